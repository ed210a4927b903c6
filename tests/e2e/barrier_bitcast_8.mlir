// optimization_barrier keeps each operand's layout (one loop per dim of each operand);
// bitcast_convert to a narrower type splits each element into a new minor dim that is
// never split, the others keep theirs: no collective.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<16x4xf32>, %y: tensor<8x2xf32>) -> (tensor<16x4xf32>, tensor<8x2x2xbf16>) {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<16x4xf32>
  %y1 = shard.shard %y to %rows : tensor<8x2xf32>
  %b:2 = stablehlo.optimization_barrier %x1, %y1 : tensor<16x4xf32>, tensor<8x2xf32>
  %c = stablehlo.bitcast_convert %b#1 : (tensor<8x2xf32>) -> tensor<8x2x2xbf16>
  %b0 = shard.shard %b#0 to %rows : tensor<16x4xf32>
  %c1 = shard.shard %c to %rows : tensor<8x2x2xbf16>
  func.return %b0, %c1 : tensor<16x4xf32>, tensor<8x2x2xbf16>
}
