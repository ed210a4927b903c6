// A max-scatter on a 2x4 grid: the input's window dim split over axis 1 (taken whole by
// each update, not indexed), the updates' index dim split over axis 0, a max loop: each
// device scatters its updates into its column block of the input, and the result is a
// partial max over axis 0, settled by one all_reduce (max) of a 16x2 f32 block.
shard.grid @g(shape = 2x4)
func.func @main(%acc: tensor<16x8xf32>, %ids: tensor<6x1xi32>, %u: tensor<6x8xf32>) -> tensor<16x8xf32> {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %a = shard.shard %acc to %cols : tensor<16x8xf32>
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %rows : tensor<6x1xi32>
  %both = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %v = shard.shard %u to %both : tensor<6x8xf32>
  %r = "stablehlo.scatter"(%a, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<16x8xf32>
  %r1 = shard.shard %r to %cols annotate_for_users : tensor<16x8xf32>
  func.return %r1 : tensor<16x8xf32>
}
