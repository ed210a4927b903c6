// A 3x3 stride-2 convolution with flax's "SAME" padding ([[0, 1], [0, 1]]) on a 2x4 grid,
// its input and output with the batch split on axis 0 and the rows (H) on axis 1: 4 input
// rows and 2 output rows per device. The input is twice as long as the output and the
// windows start at each block's first row, so a block plus one row of the next device
// (a halo (0, 1); zeros past the last row, where the convolution pads) computes its
// output rows. Analytic minimum: 1 collective_permute of one 2x1x16x4 f32 row,
// 2*1*16*4*4 = 512 bytes.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<4x16x16x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<4x8x8x8xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<4x16x16x4xf32>
  %y = stablehlo.convolution(%x_s, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<4x8x8x8xf32>
  %y_s = shard.shard %y to %rows annotate_for_users : tensor<4x8x8x8xf32>
  func.return %y_s : tensor<4x8x8x8xf32>
}
