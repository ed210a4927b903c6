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
