// stablehlo.dot_general: loops are the batch dims, the free lhs dims, the free
// rhs dims (the result's dims, in that order), then the contracting dims, a sum
// reduction. A split contracting dim leaves the result partial over its axes.
// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

shard.grid @g(shape = 2x2x2)

// Forward from lhs (b, m, k): rhs (b, k, n) takes b and k, the result (b, m, n)
// takes b and m and is partial over k's axis.
func.func @batched_forward(%lhs: tensor<2x4x8xf32>, %rhs: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %s = shard.sharding @g split_axes = [[0], [1], [2]] : !shard.sharding
  %x = shard.shard %lhs to %s : tensor<2x4x8xf32>
  %0 = stablehlo.dot_general %x, %rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x6xf32>) -> tensor<2x4x6xf32>
  func.return %0 : tensor<2x4x6xf32>
}
// CHECK-LABEL: func.func @batched_forward(
// CHECK-DAG:   %[[RHS:.+]] = shard.shard %rhs to
// CHECK:       %x = shard.shard %lhs to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1], [2]] : !shard.sharding
// CHECK-NEXT:  %[[L:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [2]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[RHS]] to %[[S1]] annotate_for_users : tensor<2x8x6xf32>
// CHECK-NEXT:  %[[DOT:.+]] = stablehlo.dot_general %[[L]], %[[R]], batching_dims = [0] x [0], contracting_dims = [2] x [1]
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] partial = sum [2] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[DOT]] to %[[S2]] : tensor<2x4x6xf32>

// -----

shard.grid @g(shape = 2x2x2)

// Backward from the result (b, m, n): nothing asks for k to be split.
func.func @batched_backward(%lhs: tensor<2x4x8xf32>, %rhs: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %0 = stablehlo.dot_general %lhs, %rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x6xf32>) -> tensor<2x4x6xf32>
  %s = shard.sharding @g split_axes = [[0], [1], [2]] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<2x4x6xf32>
  func.return %r : tensor<2x4x6xf32>
}
// CHECK-LABEL: func.func @batched_backward(
// CHECK-DAG:   %[[LHS:.+]] = shard.shard %lhs to
// CHECK-DAG:   %[[RHS:.+]] = shard.shard %rhs to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[L:.+]] = shard.shard %[[LHS]] to %[[S0]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [], [2]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[RHS]] to %[[S1]] annotate_for_users : tensor<2x8x6xf32>
// CHECK-NEXT:  %[[DOT:.+]] = stablehlo.dot_general %[[L]], %[[R]]
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0], [1], [2]] : !shard.sharding
// CHECK-NEXT:  %r = shard.shard %[[DOT]] to %s : tensor<2x4x6xf32>

// -----

shard.grid @g(shape = 2x2x2)

// Backward from a partial result: the contracting loop is split on the partial axis.
func.func @partial_backward(%lhs: tensor<8x16xf32>, %rhs: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %s = shard.sharding @g split_axes = [[0]] partial = sum [1, 2] : !shard.sharding
  %r = shard.shard %0 to %s : tensor<8x4xf32>
  func.return %r : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @partial_backward(
// CHECK-DAG:   %[[LHS:.+]] = shard.shard %lhs to
// CHECK-DAG:   %[[RHS:.+]] = shard.shard %rhs to
// CHECK:       %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1, 2]] : !shard.sharding
// CHECK-NEXT:  %[[L:.+]] = shard.shard %[[LHS]] to %[[S0]] annotate_for_users : tensor<8x16xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}1, 2]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[RHS]] to %[[S1]] annotate_for_users : tensor<16x4xf32>
// CHECK-NEXT:  %[[DOT:.+]] = stablehlo.dot_general %[[L]], %[[R]]
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1, 2] : !shard.sharding

// -----

shard.grid @g(shape = 2x2x2)

// Contracting on lhs dim 0 and rhs dim 1: lhs (k, m), rhs (n, k), result (m, n).
func.func @transposed_operands(%lhs: tensor<8x4xf32>, %rhs: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %x = shard.shard %lhs to %s : tensor<8x4xf32>
  %0 = stablehlo.dot_general %x, %rhs, contracting_dims = [0] x [1] : (tensor<8x4xf32>, tensor<6x8xf32>) -> tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @transposed_operands(
// CHECK-DAG:   %[[RHS:.+]] = shard.shard %rhs to
// CHECK:       %x = shard.shard %lhs to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  %[[L:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<8x4xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[RHS]] to %[[S1]] annotate_for_users : tensor<6x8xf32>
// CHECK-NEXT:  %[[DOT:.+]] = stablehlo.dot_general %[[L]], %[[R]]
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[DOT]] to %[[S2]] : tensor<4x6xf32>

// -----

shard.grid @g(shape = 2x2x2)

// Forward from rhs's free dim: lhs is replicated, the result split on n.
func.func @rhs_free_forward(%lhs: tensor<8x16xf32>, %rhs: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [2]] : !shard.sharding
  %y = shard.shard %rhs to %s : tensor<16x4xf32>
  %0 = stablehlo.dot_general %lhs, %y, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @rhs_free_forward(
// CHECK-DAG:   %[[LHS:.+]] = shard.shard %lhs to
// CHECK:       %y = shard.shard %rhs to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[L:.+]] = shard.shard %[[LHS]] to %[[S0]] annotate_for_users : tensor<8x16xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}], [2]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %y to %[[S1]] annotate_for_users : tensor<16x4xf32>
// CHECK-NEXT:  %[[DOT:.+]] = stablehlo.dot_general %[[L]], %[[R]]
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}], [2]] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[DOT]] to %[[S2]] : tensor<8x4xf32>

// -----

shard.grid @g(shape = 2x2x2)

// Two contracting dims, each split: the result is partial over both axes.
func.func @two_contracting_forward(%lhs: tensor<4x2x8xf32>, %rhs: tensor<2x8x6xf32>) -> tensor<4x6xf32> {
  %s = shard.sharding @g split_axes = [[], [0], [1]] : !shard.sharding
  %x = shard.shard %lhs to %s : tensor<4x2x8xf32>
  %0 = stablehlo.dot_general %x, %rhs, contracting_dims = [1, 2] x [0, 1] : (tensor<4x2x8xf32>, tensor<2x8x6xf32>) -> tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @two_contracting_forward(
// CHECK-DAG:   %[[RHS:.+]] = shard.shard %rhs to
// CHECK:       %x = shard.shard %lhs to %s
// CHECK-NEXT:  %[[S0:.+]] = shard.sharding @g split_axes = {{\[\[}}], [0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[L:.+]] = shard.shard %x to %[[S0]] annotate_for_users : tensor<4x2x8xf32>
// CHECK-NEXT:  %[[S1:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[R:.+]] = shard.shard %[[RHS]] to %[[S1]] annotate_for_users : tensor<2x8x6xf32>
// CHECK-NEXT:  %[[DOT:.+]] = stablehlo.dot_general %[[L]], %[[R]]
// CHECK-NEXT:  %[[S2:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0, 1] : !shard.sharding
// CHECK-NEXT:  %{{.+}} = shard.shard %[[DOT]] to %[[S2]] : tensor<4x6xf32>
