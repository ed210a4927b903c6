// RUN: mlir-opt %s | mlir-opt | FileCheck %s

shard.grid @g2x4(shape = 2x4)
shard.grid @dyn(shape = 3x?)

// CHECK-LABEL: func.func @annotate
func.func @annotate(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  // CHECK: shard.sharding @g2x4 split_axes = {{\[\[}}1], [0]] : !shard.sharding
  %s = shard.sharding @g2x4 split_axes = [[1], [0]] : !shard.sharding
  // CHECK: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<8x12xf32>
  %0 = shard.shard %x to %s annotate_for_users : tensor<8x12xf32>
  return %0 : tensor<8x12xf32>
}

// CHECK-LABEL: func.func @queries
func.func @queries() -> (index, index, index) {
  // CHECK: shard.grid_shape @dyn axes = [1] : index
  %0 = shard.grid_shape @dyn axes = [1] : index
  // CHECK: shard.process_multi_index on @g2x4 : index, index
  %1:2 = shard.process_multi_index on @g2x4 : index, index
  return %0, %1#0, %1#1 : index, index, index
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%x: tensor<8x4xf32>) -> tensor<2x16xf32> {
  // CHECK: shard.all_to_all %{{.*}} on @g2x4 grid_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x4xf32> -> tensor<2x16xf32>
  %0 = shard.all_to_all %x on @g2x4 grid_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x4xf32> -> tensor<2x16xf32>
  // CHECK: shard.all_reduce %{{.*}} on @g2x4 grid_axes = [0] reduction = min
  %1 = shard.all_reduce %0 on @g2x4 grid_axes = [0] reduction = min : tensor<2x16xf32> -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}
