// A 3x3 "same" NHWC convolution on a 2x4 grid: batch split on axis 0, output features on
// axis 1 (the kernel split by its output-feature dim o, as its columns). Each device
// computes its images' block of output channels. Analytic minimum: no collective.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<4x8x8x4xf32>, %w: tensor<3x3x4x16xf32>) -> tensor<4x8x8x16xf32> {
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %batch : tensor<4x8x8x4xf32>
  %cols = shard.sharding @g split_axes = [[], [], [], [1]] : !shard.sharding
  %w_s = shard.shard %w to %cols : tensor<3x3x4x16xf32>
  %y = stablehlo.convolution(%x_s, %w_s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<4x8x8x16xf32>
  %out = shard.sharding @g split_axes = [[0], [], [], [1]] : !shard.sharding
  %y_s = shard.shard %y to %out annotate_for_users : tensor<4x8x8x16xf32>
  func.return %y_s : tensor<4x8x8x16xf32>
}
