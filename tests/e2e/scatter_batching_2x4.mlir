// The backward of take_along_axis as JAX 0.10 emits it: batching dims 0 and 1, split on
// both grid axes in the input, indices and updates alike; each device scatters into its
// own batch block, no collective.
shard.grid @g(shape = 2x4)
func.func @main(%acc: tensor<4x8x16xf32>, %ids: tensor<4x8x1x1xi32>, %u: tensor<4x8x1xf32>) -> tensor<4x8x16xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %acc to %s : tensor<4x8x16xf32>
  %i = shard.shard %ids to %s : tensor<4x8x1x1xi32>
  %v = shard.shard %u to %s : tensor<4x8x1xf32>
  %r = "stablehlo.scatter"(%a, %i, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) : (tensor<4x8x16xf32>, tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
  %r1 = shard.shard %r to %s : tensor<4x8x16xf32>
  func.return %r1 : tensor<4x8x16xf32>
}
