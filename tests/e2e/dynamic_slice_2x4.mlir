// dynamic_slice of rows [i, i+2) of every column, then an update of a 2x8 window at
// (j, k): the column dim is taken whole by the slice and split over axis 1, no
// collective; the update covers no dim whole, so its operand is gathered (the fallback).
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8x16xf32>, %i: tensor<i32>, %u: tensor<2x8xf32>, %j: tensor<i32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x1 = shard.shard %x to %cols : tensor<8x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.dynamic_slice %x1, %i, %c0, sizes = [2, 16] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
  %s1 = shard.shard %s to %cols : tensor<2x16xf32>
  %d = stablehlo.dynamic_update_slice %x1, %u, %j, %i : (tensor<8x16xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  func.return %s1, %d : tensor<2x16xf32>, tensor<8x16xf32>
}
