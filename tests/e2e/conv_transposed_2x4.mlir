// The fallback: a transposed convolution (lhs_dilate = 2, as JAX emits for the input
// gradient of a stride-2 convolution) on a 2x4 grid, its input and output with the batch
// split on axis 0 and the rows (H) on axis 1. A dilated input's windows do not follow
// its blocks, so H is not a loop of the convolution: the rows are gathered over axis 1,
// each device convolves its whole images and keeps its rows of the output (a local
// slice). Convolving row blocks would be wrong. The operand is annotated batch-only for
// the convolution: without that, shard-partition's choice of option gathers the batch as
// well (correct, 3x the bytes).
// Analytic minimum: 1 all_gather of the 2x2x8x4 f32 block, 2*2*8*4*4 = 512 bytes.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<4x8x8x4xf32>, %w: tensor<3x3x8x4xf32>) -> tensor<4x16x16x8xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<4x8x8x4xf32>
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_b = shard.shard %x_s to %batch annotate_for_users : tensor<4x8x8x4xf32>
  %y = stablehlo.convolution(%x_b, %w) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x8x8x4xf32>, tensor<3x3x8x4xf32>) -> tensor<4x16x16x8xf32>
  %y_s = shard.shard %y to %rows annotate_for_users : tensor<4x16x16x8xf32>
  func.return %y_s : tensor<4x16x16x8xf32>
}
