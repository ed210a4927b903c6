// take_along_axis as JAX 0.10 emits it (batching dims): operand and indices split on
// batch dim 0, the gather runs on each device's batch block, no collective.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<8x4x16xf32>, %i: tensor<8x4x1x1xi32>) -> tensor<8x4x1xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x4x16xf32>
  %i1 = shard.shard %i to %s : tensor<8x4x1x1xi32>
  %g = "stablehlo.gather"(%x1, %i1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<8x4x16xf32>, tensor<8x4x1x1xi32>) -> tensor<8x4x1xf32>
  %g1 = shard.shard %g to %s : tensor<8x4x1xf32>
  func.return %g1 : tensor<8x4x1xf32>
}
