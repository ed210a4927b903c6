// A depthwise 3x3 convolution (feature_group_count = 8, 2 output channels per input
// channel) and its kernel gradient as JAX emits it (batch_group_count = 8, the
// activations' channels as the convolution's batch), channels split in 8: each device
// holds one input channel, its 2 output channels and their kernels, and computes with
// one group. Analytic minimum: no collective.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<2x8x8x8xf32>, %k: tensor<3x3x1x16xf32>) -> (tensor<2x8x8x16xf32>, tensor<3x3x1x16xf32>) {
  %chan = shard.sharding @g split_axes = [[], [], [], [0]] : !shard.sharding
  %x_s = shard.shard %x to %chan : tensor<2x8x8x8xf32>
  %k_s = shard.shard %k to %chan : tensor<3x3x1x16xf32>
  %y = stablehlo.convolution(%x_s, %k_s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<3x3x1x16xf32>) -> tensor<2x8x8x16xf32>
  %dk = stablehlo.convolution(%x_s, %y) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 8 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<2x8x8x16xf32>) -> tensor<3x3x1x16xf32>
  %y_s = shard.shard %y to %chan annotate_for_users : tensor<2x8x8x16xf32>
  %dk_s = shard.shard %dk to %chan annotate_for_users : tensor<3x3x1x16xf32>
  func.return %y_s, %dk_s : tensor<2x8x8x16xf32>, tensor<3x3x1x16xf32>
}
