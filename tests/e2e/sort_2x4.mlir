// Two sorts along dim 1 (descending, stable, values with their positions): the first
// input split on dim 0 (each device sorts its rows, no collective); the second split
// on the sorted dim, which no loop indexes, so it is gathered first (the fallback).
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xf32>) {
  %rows = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<8x16xf32>
  %pos = stablehlo.iota dim = 1 : tensor<8x16xi32>
  %s:2 = "stablehlo.sort"(%x1, %pos) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
  %s0 = shard.shard %s#0 to %rows : tensor<8x16xf32>
  %s1 = shard.shard %s#1 to %rows : tensor<8x16xi32>
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %y1 = shard.shard %y to %cols : tensor<8x16xf32>
  %t = "stablehlo.sort"(%y1) <{dimension = -1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %s0, %s1, %t : tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xf32>
}
