// A partial sum (contracting dim split, the product annotated partial) flows through the
// gather: only the gathered rows are all-reduced (4x8 f32), not the 16x8 product.
shard.grid @g(shape = 8)
func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %ids: tensor<4x1xi32>) -> tensor<4x8xf32> {
  %k = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %k : tensor<16x32xf32>
  %d = stablehlo.dot_general %a1, %b, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %sum = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %d1 = shard.shard %d to %sum : tensor<16x8xf32>
  %e = "stablehlo.gather"(%d1, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %e1 = shard.shard %e to %rep annotate_for_users : tensor<4x8xf32>
  func.return %e1 : tensor<4x8xf32>
}
