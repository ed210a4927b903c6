// RUN: mlir-opt --test-grid-resharding-partition %s | FileCheck %s

shard.grid @g(shape = 2)

// CHECK-LABEL: func.func @split_to_split
func.func @split_to_split(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s0 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %0 = shard.shard %x to %s0 : tensor<4x6xf32>
  %s1 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<4x6xf32>
  // CHECK: builtin.unrealized_conversion_cast %{{.*}} : tensor<4x6xf32> to tensor<4x3xf32>
  // CHECK: shard.all_to_all %{{.*}} on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x3xf32> -> tensor<2x6xf32>
  // CHECK: builtin.unrealized_conversion_cast %{{.*}} : tensor<2x6xf32> to tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}
