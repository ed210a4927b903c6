// A gather whose slice covers 8 of the operand's 16 columns from a start the indices
// give: the column dim is not taken whole, so neither it nor the result's offset dim is
// split; the split operand is gathered, the result computed whole and sliced as asked.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<8x16xf32>, %ids: tensor<4x2xi32>) -> tensor<4x8xf32> {
  %cols = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %cols : tensor<8x16xf32>
  %g = "stablehlo.gather"(%x1, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<8x16xf32>, tensor<4x2xi32>) -> tensor<4x8xf32>
  %g1 = shard.shard %g to %cols : tensor<4x8xf32>
  func.return %g1 : tensor<4x8xf32>
}
