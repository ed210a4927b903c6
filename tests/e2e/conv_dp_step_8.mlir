// One SGD step of a 3x3 "same" NHWC convolution, data parallel: the batch of x is split
// in 8, the kernel replicated. The loss is 0.5 * sum(y^2), so dy = y. The kernel gradient
// is the convolution JAX emits for it ([f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]: the
// batch is its contracted feature dim), so each device holds a partial sum of it, settled
// once. Analytic minimum: 1 all_reduce of the 3x3x4x8 f32 gradient, 3*3*4*8*4 = 1152 bytes.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<8x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<3x3x4x8xf32> {
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %batch : tensor<8x8x8x4xf32>
  %y = stablehlo.convolution(%x_s, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x8x8x8xf32>
  %dw = stablehlo.convolution(%x_s, %y) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x4xf32>, tensor<8x8x8x8xf32>) -> tensor<3x3x4x8xf32>
  %lr = stablehlo.constant dense<1.000000e-01> : tensor<3x3x4x8xf32>
  %step = stablehlo.multiply %lr, %dw : tensor<3x3x4x8xf32>
  %w2 = stablehlo.subtract %w, %step : tensor<3x3x4x8xf32>
  %rep = shard.sharding @g split_axes = [] : !shard.sharding
  %w2_s = shard.shard %w2 to %rep annotate_for_users : tensor<3x3x4x8xf32>
  func.return %w2_s : tensor<3x3x4x8xf32>
}
