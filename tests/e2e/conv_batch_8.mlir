// A 3x3 "same" NHWC convolution + bias + relu (flax's nn.Conv), data parallel on 8
// devices: the batch of x is split in 8, the kernel and bias are replicated. Every device
// convolves its own images. Analytic minimum: no collective.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<8x8x8x4xf32>, %w: tensor<3x3x4x8xf32>, %b: tensor<8xf32>) -> tensor<8x8x8x8xf32> {
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %batch : tensor<8x8x8x4xf32>
  %y = stablehlo.convolution(%x_s, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x8x8x8xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<8xf32>) -> tensor<8x8x8x8xf32>
  %yb = stablehlo.add %y, %bb : tensor<8x8x8x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<8x8x8x8xf32>
  %r = stablehlo.maximum %yb, %zero : tensor<8x8x8x8xf32>
  %r_s = shard.shard %r to %batch annotate_for_users : tensor<8x8x8x8xf32>
  func.return %r_s : tensor<8x8x8x8xf32>
}
