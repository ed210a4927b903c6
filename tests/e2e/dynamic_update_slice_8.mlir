// dynamic_update_slice writing rows [i, i+2) across all columns, columns split: the
// update covers the column dim whole, so operand, update and result split alike.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<8x16xf32>, %u: tensor<2x16xf32>, %i: tensor<i32>) -> tensor<8x16xf32> {
  %cols = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %cols : tensor<8x16xf32>
  %u1 = shard.shard %u to %cols : tensor<2x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %d = stablehlo.dynamic_update_slice %x1, %u1, %i, %c0 : (tensor<8x16xf32>, tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %d1 = shard.shard %d to %cols : tensor<8x16xf32>
  func.return %d1 : tensor<8x16xf32>
}
