// A scatter whose window covers dims 0 and 1 whole and whose one index addresses dim 2
// (integer-label cross entropy's backward): the window dims split, no collective.
shard.grid @g(shape = 8)
func.func @main(%acc: tensor<8x4x3xf32>, %ids: tensor<1xi32>, %u: tensor<8x4xf32>) -> tensor<8x4x3xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a = shard.shard %acc to %s : tensor<8x4x3xf32>
  %v = shard.shard %u to %s : tensor<8x4xf32>
  %r = "stablehlo.scatter"(%a, %ids, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2]>, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) : (tensor<8x4x3xf32>, tensor<1xi32>, tensor<8x4xf32>) -> tensor<8x4x3xf32>
  %r1 = shard.shard %r to %s : tensor<8x4x3xf32>
  func.return %r1 : tensor<8x4x3xf32>
}
