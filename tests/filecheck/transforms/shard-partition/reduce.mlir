// stablehlo.reduce: kept dims split give a local reduce; a split reduced dim gives a
// local partial reduce of the same kind, settled only where a user asks for it.
// RUN: xshard-opt %s --split-input-file -p 'sharding-propagation{traversal=forward},shard-partition' | filecheck %s

shard.grid @g(shape = 2x2)
func.func @kept_dim_split(%a: tensor<8x6xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a1 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @kept_dim_split(%a: tensor<4x6xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %0 : tensor<4xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @sum_partial(%a: tensor<8x6xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a1 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %p = shard.sharding @g split_axes = [[]] partial = sum [1] : !shard.sharding
  %1 = shard.shard %0 to %p : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
// Annotated partial, the result is returned as it is: no all_reduce.
// CHECK-LABEL: func.func @sum_partial(%a: tensor<8x3xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:    func.return %0 : tensor<8xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @max_split(%a: tensor<8x6xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %z = stablehlo.constant dense<0xff800000> : tensor<f32>
  %0 = stablehlo.reduce(%a1 init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %r = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
// CHECK-LABEL: func.func @max_split(%a: tensor<4x3xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %z = stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT:    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %0 on @g grid_axes = [1] reduction = max : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return %1 : tensor<4xf32>
