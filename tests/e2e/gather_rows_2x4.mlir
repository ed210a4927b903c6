// Embedding lookup on a 2x4 grid: ids split by batch (axis 0), the table's feature dim
// split (axis 1). The feature dim is a slice dim taken whole, so each device gathers its
// feature block for its ids: no collective.
shard.grid @g(shape = 2x4)
func.func @main(%table: tensor<16x8xf32>, %ids: tensor<4x6xi32>) -> tensor<4x6x8xf32> {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %t = shard.shard %table to %cols : tensor<16x8xf32>
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %rows : tensor<4x6xi32>
  %e = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x6xi32>) -> tensor<4x6x8xf32>
  %out = shard.sharding @g split_axes = [[0], [], [1]] : !shard.sharding
  %e1 = shard.shard %e to %out : tensor<4x6x8xf32>
  func.return %e1 : tensor<4x6x8xf32>
}
