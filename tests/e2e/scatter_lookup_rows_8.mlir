// The gradient of a vocabulary-parallel embedding: updates scattered (add) into a table
// split by rows, the dim the ids address one row of. Each device moves the ids into
// its block and scatters every update; those meant for another block are out of
// bounds on this device and dropped: no collective, the table stays split.
shard.grid @g(shape = 8)
func.func @main(%acc: tensor<16x8xf32>, %ids: tensor<32x1xi32>, %grads: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a = shard.shard %acc to %rows : tensor<16x8xf32>
  %r = "stablehlo.scatter"(%a, %ids, %grads) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<32x1xi32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %r1 = shard.shard %r to %rows : tensor<16x8xf32>
  func.return %r1 : tensor<16x8xf32>
}
