// RUN: mlir-opt --pass-pipeline="builtin.module(func.func(shard-partition))" %s | FileCheck %s

shard.grid @g(shape = 4)

// CHECK-LABEL: func.func @gather_result
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>) -> tensor<8x8xf32>
func.func @gather_result(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x8xf32>
  // CHECK: %[[G:.*]] = shard.all_gather %[[X]] on @g grid_axes = [0] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
  // CHECK: return
  return %1 : tensor<8x8xf32>
}
