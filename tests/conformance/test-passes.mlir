// RUN: mlir-opt --test-grid-simplifications %s | FileCheck %s

shard.grid @g(shape = 2x2)

// CHECK-LABEL: func.func @max_endomorphism
// CHECK-SAME: (%[[A:.*]]: tensor<3xi64>, %[[B:.*]]: tensor<3xi64>)
func.func @max_endomorphism(%a: tensor<3xi64>, %b: tensor<3xi64>) -> tensor<3xi64> {
  %0 = shard.all_reduce %a on @g grid_axes = [1] reduction = max : tensor<3xi64> -> tensor<3xi64>
  %1 = shard.all_reduce %b on @g grid_axes = [1] reduction = max : tensor<3xi64> -> tensor<3xi64>
  // CHECK: %[[M:.*]] = arith.maxsi %[[A]], %[[B]]
  // CHECK: shard.all_reduce %[[M]] on @g grid_axes = [1] reduction = max
  %2 = arith.maxsi %0, %1 : tensor<3xi64>
  return %2 : tensor<3xi64>
}

// CHECK-LABEL: func.func @static_grid_shape
func.func @static_grid_shape() -> index {
  // CHECK: arith.constant 2 : index
  %0 = shard.grid_shape @g axes = [0] : index
  return %0 : index
}
