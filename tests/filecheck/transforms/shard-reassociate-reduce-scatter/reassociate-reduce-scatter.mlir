// shard-reassociate-reduce-scatter: op(reduce_scatter(x), reduce_scatter(y)) becomes
// reduce_scatter(op(x, y)) for elementwise ops that distribute over the kind.
// Chunks marked `// numerics` also run on 8 devices before and after the pass
// (tests/test_reassociate_reduce_scatter.py).
// RUN: xshard-opt %s -p shard-reassociate-reduce-scatter --split-input-file | filecheck %s

// numerics
// add for sum, over both grid axes; the op runs on the unscattered operands.
// CHECK-LABEL: func.func @add
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %x, %y : tensor<16x4xf32>
// CHECK-NEXT:    %[[R:.*]] = shard.reduce_scatter %[[A]] on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @add(%x: tensor<16x4xf32>, %y: tensor<16x4xf32>) -> tensor<2x4xf32> {
  %0 = shard.reduce_scatter %x on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
  %1 = shard.reduce_scatter %y on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
  func.return %2 : tensor<2x4xf32>
}

// -----

// numerics
// maximum for max and a chain of subtract then add for sum, scattered along dim 1.
// CHECK-LABEL: func.func @max_and_chain
// CHECK-NEXT:    %[[M:.*]] = stablehlo.maximum %x, %y : tensor<2x8xf32>
// CHECK-NEXT:    shard.reduce_scatter %[[M]] on @g grid_axes = [1] reduction = max scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.subtract %x, %y : tensor<2x8xf32>
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %[[S]], %z : tensor<2x8xf32>
// CHECK-NEXT:    shard.reduce_scatter %[[A]] on @g grid_axes = [1] scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
shard.grid @g(shape = 2x4)
func.func @max_and_chain(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>, %z: tensor<2x8xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = shard.reduce_scatter %x on @g grid_axes = [1] reduction = max scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
  %1 = shard.reduce_scatter %y on @g grid_axes = [1] reduction = max scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
  %2 = stablehlo.maximum %0, %1 : tensor<2x2xf32>
  %3 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
  %4 = shard.reduce_scatter %y on @g grid_axes = [1] scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
  %5 = stablehlo.subtract %3, %4 : tensor<2x2xf32>
  %6 = shard.reduce_scatter %z on @g grid_axes = [1] scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
  %7 = stablehlo.add %5, %6 : tensor<2x2xf32>
  func.return %2, %7 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// numerics
// A rank-0 predicate replicated over the axes chooses for all elements.
// CHECK-LABEL: func.func @select_scalar_pred
// CHECK:         %[[S:.*]] = stablehlo.select %p, %x, %y : tensor<i1>, tensor<8xf32>
// CHECK-NEXT:    shard.reduce_scatter %[[S]] on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
shard.grid @g(shape = 2x4)
func.func @select_scalar_pred(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<4xf32> {
  %p = stablehlo.constant dense<false> : tensor<i1>
  %0 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %1 = shard.reduce_scatter %y on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %2 = stablehlo.select %p, %0, %1 : tensor<i1>, tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

// Mismatched scatter axes, grid axes, and kinds.
// CHECK-LABEL: func.func @mismatched
// CHECK-COUNT-6: shard.reduce_scatter
// CHECK-NOT:     shard.reduce_scatter
shard.grid @g(shape = 2x4)
func.func @mismatched(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>, %h: tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
  %1 = shard.reduce_scatter %y on @g grid_axes = [1] scatter_axis = 1 : tensor<8x8xf32> -> tensor<8x2xf32>
  %t = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x2xf32>) -> tensor<2x8xf32>
  %2 = stablehlo.add %0, %t : tensor<2x8xf32>
  %3 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
  %4 = shard.reduce_scatter %h on @g grid_axes = [0] scatter_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
  %7 = stablehlo.add %3, %4 : tensor<2x8xf32>
  %8 = shard.reduce_scatter %x on @g grid_axes = [1] reduction = max scatter_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
  %9 = shard.reduce_scatter %y on @g grid_axes = [1] reduction = min scatter_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
  %10 = stablehlo.maximum %8, %9 : tensor<2x8xf32>
  func.return %2, %7, %10 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// multiply does not distribute over sum; a reduce_scatter with a second use; an
// operand that is not a reduce_scatter; a full-shape predicate (it would need slicing).
// CHECK-LABEL: func.func @not_fired
// CHECK-COUNT-7: shard.reduce_scatter
// CHECK-NOT:     shard.reduce_scatter
shard.grid @g(shape = 2x4)
func.func @not_fired(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %1 = shard.reduce_scatter %y on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  %3 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %4 = shard.reduce_scatter %y on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %5 = stablehlo.add %3, %4 : tensor<4xf32>
  %6 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %7 = stablehlo.add %6, %z : tensor<4xf32>
  %p = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %8 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %9 = shard.reduce_scatter %y on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %10 = stablehlo.select %p, %8, %9 : tensor<4xi1>, tensor<4xf32>
  func.return %2, %4, %5, %7, %10 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
