// A conv + relu + conv residual block on a 2x4 grid: batch split on axis 0 and the image
// rows (H) on axis 1, 4 rows per device. Each 3x3 "same" convolution needs one row above
// and one below its block: shard-partition fetches them (shard.update_halo: one
// collective_permute each way, zeros past the image's edges) and convolves unpadded along
// H. The residual add and relu are local. Analytic minimum: 2 halo exchanges, each
// 2 collective_permutes of one 2x1x8x4 f32 row, 2*1*8*4*4 = 256 bytes.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<4x16x8x4xf32>, %w1: tensor<3x3x4x4xf32>, %w2: tensor<3x3x4x4xf32>) -> tensor<4x16x8x4xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<4x16x8x4xf32>
  %h = stablehlo.convolution(%x_s, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x16x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<4x16x8x4xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<4x16x8x4xf32>
  %a = stablehlo.maximum %h, %zero : tensor<4x16x8x4xf32>
  %y = stablehlo.convolution(%a, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x16x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<4x16x8x4xf32>
  %r = stablehlo.add %y, %x_s : tensor<4x16x8x4xf32>
  %r_s = shard.shard %r to %rows annotate_for_users : tensor<4x16x8x4xf32>
  func.return %r_s : tensor<4x16x8x4xf32>
}
