// The table split by rows, the dim the ids look one row up in (a vocabulary-parallel
// embedding): each device looks its rows up, zeroes the rows other devices hold, and
// the partial sum is settled; the table is never gathered.
shard.grid @g(shape = 8)
func.func @main(%table: tensor<16x8xf32>, %ids: tensor<4x6xi32>) -> tensor<4x6x8xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %rows : tensor<16x8xf32>
  %e = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x6xi32>) -> tensor<4x6x8xf32>
  func.return %e : tensor<4x6x8xf32>
}
