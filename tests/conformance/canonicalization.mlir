// RUN: mlir-opt --canonicalize %s | FileCheck %s

shard.grid @g(shape = 4x2)

// CHECK-LABEL: func.func @no_axes_gather
// CHECK-SAME: (%[[X:.*]]: tensor<6xf32>)
func.func @no_axes_gather(%x: tensor<6xf32>) -> tensor<6xf32> {
  // CHECK-NOT: shard.all_gather
  %0 = shard.all_gather %x on @g grid_axes = [] gather_axis = 0 : tensor<6xf32> -> tensor<6xf32>
  // CHECK: return %[[X]]
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @no_axes_widening_reduce
func.func @no_axes_widening_reduce(%x: tensor<6xf16>) -> tensor<6xf32> {
  // CHECK: shard.all_reduce
  %0 = shard.all_reduce %x on @g grid_axes = [] : tensor<6xf16> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @constant_halo
func.func @constant_halo() -> !shard.sharding {
  %c1 = arith.constant 1 : i64
  // CHECK: shard.sharding @g split_axes = {{\[\[}}1]] halo_sizes = [1, 3] : !shard.sharding
  %s = shard.sharding @g split_axes = [[1]] halo_sizes = [%c1, 3] : !shard.sharding
  return %s : !shard.sharding
}

// Equal constants become one as they fold, so the shard ops reading them merge.
// CHECK-LABEL: func.func @equal_constants
func.func @equal_constants() -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<4x8xf32>
  // CHECK-NEXT: %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
  // CHECK-NEXT: %[[A:.*]] = shard.shard %[[C]] to %[[S]] : tensor<4x8xf32>
  // CHECK-NEXT: return %[[A]], %[[A]]
  %c1 = arith.constant dense<1.0> : tensor<4x8xf32>
  %s1 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a = shard.shard %c1 to %s1 : tensor<4x8xf32>
  %c2 = arith.constant dense<1.0> : tensor<4x8xf32>
  %b = shard.shard %c2 to %s1 : tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
