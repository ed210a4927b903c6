shard.grid @g(shape = 2x4)
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
  func.return %1 : tensor<8x16xf32>
}
