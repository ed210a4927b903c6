// RUN: xshard-opt %s -p canonicalize --split-input-file | filecheck %s

// A broadcast whose result type is its input type broadcasts size-1 dims to
// size 1: it folds away (with its now-dead size operand).

// CHECK-LABEL: func.func @noop_broadcast
// CHECK-NEXT: func.return %x : tensor<1x4xf32>
func.func @noop_broadcast(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c1 = arith.constant 1 : index
  %0 = tcp.broadcast %x, %c1 {axes = [0]} : tensor<1x4xf32>, index -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// A real broadcast stays.

// CHECK-LABEL: func.func @broadcast_stays
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %0 = tcp.broadcast %x, %c3 {axes = [0 : i64]} : tensor<1x4xf32>, index -> tensor<3x4xf32>
func.func @broadcast_stays(%x: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %c3 = arith.constant 3 : index
  %0 = tcp.broadcast %x, %c3 {axes = [0]} : tensor<1x4xf32>, index -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Reducing over dims of size 1 (a keep-dims reduction keeps them) is the identity,
// so reducing twice over the same axes folds the second reduction.

// CHECK-LABEL: func.func @reduce_twice
// CHECK-NEXT: %0 = tcp.reduce_sum %x {axes = [1 : i64]} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-NEXT: func.return %0 : tensor<3x1xf32>
func.func @reduce_twice(%x: tensor<3x4xf32>) -> tensor<3x1xf32> {
  %0 = tcp.reduce_sum %x {axes = [1]} : tensor<3x4xf32> -> tensor<3x1xf32>
  %1 = tcp.reduce_max %0 {axes = [1]} : tensor<3x1xf32> -> tensor<3x1xf32>
  return %1 : tensor<3x1xf32>
}

// -----

// A dynamic dimension may or may not be 1 at run time: no fold.

// CHECK-LABEL: func.func @dynamic_stays
// CHECK-NEXT: %0 = tcp.reduce_sum %x {axes = [1 : i64]} : tensor<3x?xf32> -> tensor<3x1xf32>
func.func @dynamic_stays(%x: tensor<3x?xf32>) -> tensor<3x1xf32> {
  %0 = tcp.reduce_sum %x {axes = [1]} : tensor<3x?xf32> -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
