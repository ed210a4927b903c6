// The fallback: a 3x3 stride-2 convolution with flax's "SAME" padding ([[0, 1], [0, 1]])
// on a 2x4 grid, its input and output with the batch split on axis 0 and the rows (H) on
// axis 1. Its windows neither keep the length (stride 2) nor tile the rows (reach 3 >
// stride), so H is not a loop of the convolution: the rows are gathered over axis 1,
// each device convolves its whole images and keeps its rows of the output (a local
// slice). Convolving row blocks would be wrong at every block edge. The operand is
// annotated batch-only for the convolution: without that, shard-partition's choice of
// option gathers the batch as well (correct, 3x the bytes).
// Analytic minimum: 1 all_gather of the 2x4x16x4 f32 block, 2*4*16*4*4 = 2048 bytes.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<4x16x16x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<4x8x8x8xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<4x16x16x4xf32>
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_b = shard.shard %x_s to %batch annotate_for_users : tensor<4x16x16x4xf32>
  %y = stablehlo.convolution(%x_b, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<4x8x8x8xf32>
  %y_s = shard.shard %y to %rows annotate_for_users : tensor<4x8x8x8xf32>
  func.return %y_s : tensor<4x8x8x8xf32>
}
