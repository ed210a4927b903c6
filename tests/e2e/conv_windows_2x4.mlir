// The two kinds of split spatial dims, on a 2x4 grid with the rows (H) on axis 1 and the
// columns (W) on axis 0 of a 2x16x16x3 image:
// - a 4x4 stride-4 "patchify" convolution (ViT's patch embedding): its windows tile H and
//   W, so each device embeds its own patches, no communication;
// - a 3x3 convolution dilated by 2 (reach 5) with "same" padding: each block needs 2 rows
//   and 2 columns from each neighbour. shard.update_halo fetches H first, then W from
//   the H-halo'd blocks (corners included): 2 collective_permutes of 2x2x12x3 f32
//   (576 bytes) for H, 2 of 2x8x2x3 f32 (384 bytes) for W;
// - a 2x2 convolution with flax's "SAME" padding for an even kernel, [[0, 1], [0, 1]]:
//   one row and one column from the next device only: 1 collective_permute of 2x1x9x3 f32
//   (216 bytes) for H, 1 of 2x5x1x3 f32 (120 bytes) for W.
// Analytic minimum: 6 collective_permutes, 2*576 + 2*384 + 216 + 120 = 2256 bytes.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<2x16x16x3xf32>, %p: tensor<4x4x3x8xf32>, %d: tensor<3x3x3x8xf32>, %q: tensor<2x2x3x8xf32>) -> (tensor<2x4x4x8xf32>, tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>) {
  %hw = shard.sharding @g split_axes = [[], [1], [0]] : !shard.sharding
  %x_s = shard.shard %x to %hw : tensor<2x16x16x3xf32>
  %e = stablehlo.convolution(%x_s, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x3xf32>, tensor<4x4x3x8xf32>) -> tensor<2x4x4x8xf32>
  %y = stablehlo.convolution(%x_s, %d) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 2], [2, 2]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  %z = stablehlo.convolution(%x_s, %q) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x3xf32>, tensor<2x2x3x8xf32>) -> tensor<2x16x16x8xf32>
  %e_s = shard.shard %e to %hw annotate_for_users : tensor<2x4x4x8xf32>
  %y_s = shard.shard %y to %hw annotate_for_users : tensor<2x16x16x8xf32>
  %z_s = shard.shard %z to %hw annotate_for_users : tensor<2x16x16x8xf32>
  func.return %e_s, %y_s, %z_s : tensor<2x4x4x8xf32>, tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>
}
