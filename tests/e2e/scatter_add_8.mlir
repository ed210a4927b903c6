// Embedding gradient: updates (and their ids) split by token, the dim that enumerates
// indices. With an add combiner that is a sum loop: each device scatters its tokens into
// its copy of the input (the input on one device, zeros on the others) and the result is
// a partial sum, settled by one all_reduce of the 16x8 f32 result where it is wanted whole.
shard.grid @g(shape = 8)
func.func @main(%acc: tensor<16x8xf32>, %ids: tensor<32x1xi32>, %grads: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %tok = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %tok : tensor<32x1xi32>
  %u = shard.shard %grads to %tok : tensor<32x8xf32>
  %r = "stablehlo.scatter"(%acc, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<32x1xi32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %r1 = shard.shard %r to %rep annotate_for_users : tensor<16x8xf32>
  func.return %r1 : tensor<16x8xf32>
}
