// The same split with a `set` combiner (the update replaces the element): devices
// cannot combine their scatters, so the updates and ids are gathered (the fallback).
shard.grid @g(shape = 8)
func.func @main(%acc: tensor<16x8xf32>, %ids: tensor<32x1xi32>, %new: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %tok = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %tok : tensor<32x1xi32>
  %u = shard.shard %new to %tok : tensor<32x8xf32>
  %r = "stablehlo.scatter"(%acc, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<32x1xi32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  func.return %r : tensor<16x8xf32>
}
