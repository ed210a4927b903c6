// strategy=aggressive: a windowed op's loop keeps only the axes that leave each device
// a block as wide as its halo, and its other loops keep theirs.
// RUN: xshard-opt %s -p 'sharding-propagation{strategy=aggressive}' | filecheck %s

// A cumulative sum along the sequence (jnp.cumsum: a window of all 16 cells, padded 15
// before), the batch on axis 0 and the sequence on axis 1. The sequence's halo of 15
// cells does not fit in a block of 4, so that dim is gathered; the batch stays split.
shard.grid @g(shape = 2x4)
func.func @cumsum(%arg: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x = shard.shard %arg to %s : tensor<4x16x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %sum = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [15, 0], [0, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 16, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<4x16x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
  func.return %sum : tensor<4x16x8xf32>
}
// CHECK-LABEL: func.func @cumsum(
// CHECK-DAG:     %[[BATCH:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK:         %[[IN:.+]] = shard.shard %x to %[[BATCH]] annotate_for_users : tensor<4x16x8xf32>
// CHECK-NEXT:    %sum = "stablehlo.reduce_window"(%[[IN]], %zero)
// CHECK:         shard.shard %sum to %[[BATCH]] : tensor<4x16x8xf32>
