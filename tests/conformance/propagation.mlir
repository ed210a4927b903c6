// RUN: mlir-opt --pass-pipeline="builtin.module(func.func(sharding-propagation{traversal=forward},cse))" %s | FileCheck %s

shard.grid @g(shape = 4)

// CHECK-LABEL: func.func @forward_through_elementwise
func.func @forward_through_elementwise(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  // CHECK: tosa.exp
  // CHECK-NEXT: shard.shard %{{.*}} to %{{.*}} : tensor<8x8xf32>
  %1 = tosa.exp %0 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
