// A 3x3 "same" NHWC convolution with its input features split in 8 (x by channels, the
// kernel by its input-feature dim i): each device holds a partial sum of the whole output.
// A 2x2 sum pooling (reduce_window add from 0, the sum's identity) keeps it partial (the
// annotations say so), so the sum is settled on the pooled 2x4x4x8 f32 output, a quarter
// of the convolution's.
// Analytic minimum: 1 all_reduce of 2*4*4*8*4 = 1024 bytes.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<2x8x8x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<2x4x4x8xf32> {
  %chan = shard.sharding @g split_axes = [[], [], [], [0]] : !shard.sharding
  %x_s = shard.shard %x to %chan : tensor<2x8x8x16xf32>
  %rows = shard.sharding @g split_axes = [[], [], [0]] : !shard.sharding
  %w_s = shard.shard %w to %rows : tensor<3x3x16x8xf32>
  %y = stablehlo.convolution(%x_s, %w_s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x16xf32>, tensor<3x3x16x8xf32>) -> tensor<2x8x8x8xf32>
  %partial = shard.sharding @g split_axes = [] partial = sum [0] : !shard.sharding
  %y_s = shard.shard %y to %partial : tensor<2x8x8x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %p = "stablehlo.reduce_window"(%y_s, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x4x4x8xf32>
  %p_p = shard.shard %p to %partial : tensor<2x4x4x8xf32>
  %rep = shard.sharding @g split_axes = [] : !shard.sharding
  %p_s = shard.shard %p_p to %rep annotate_for_users : tensor<2x4x4x8xf32>
  func.return %p_s : tensor<2x4x4x8xf32>
}
