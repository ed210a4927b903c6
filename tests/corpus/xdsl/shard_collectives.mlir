shard.grid @grid(shape = 2x4)
func.func @collectives(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = shard.all_reduce %x on @grid grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @grid grid_axes = [0, 1] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
