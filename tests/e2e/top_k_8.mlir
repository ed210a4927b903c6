// jax.lax.top_k on rows split over 8 devices: chlo-legalize-to-stablehlo turns it into
// iota + sort + slice along the last dim, all of which keep dim 0 split: no collective.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<16x32xf32>) -> (tensor<16x4xf32>, tensor<16x4xi32>) {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<16x32xf32>
  %v, %i = chlo.top_k(%x1, k = 4) : tensor<16x32xf32> -> (tensor<16x4xf32>, tensor<16x4xi32>)
  %v1 = shard.shard %v to %rows : tensor<16x4xf32>
  %i1 = shard.shard %i to %rows : tensor<16x4xi32>
  func.return %v1, %i1 : tensor<16x4xf32>, tensor<16x4xi32>
}
