// shard-reassociate-all-reduce: op(all_reduce(x), all_reduce(y)) becomes
// all_reduce(op(x, y)) when op distributes over the kind. Chunks marked
// `// numerics` also run on 8 devices before and after the pass
// (tests/test_reassociate_all_reduce.py).
// RUN: xshard-opt %s -p shard-reassociate-all-reduce --split-input-file | filecheck %s

// numerics
// add and subtract for sum; a chain of adds becomes one all_reduce.
// CHECK-LABEL: func.func @sum
// CHECK-NEXT:    %[[S:.*]] = stablehlo.subtract %x, %y
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %[[S]], %z
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %[[A]] on @g grid_axes = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @sum(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = stablehlo.subtract %0, %1 : tensor<4x8xf32>
  %3 = shard.all_reduce %z on @g grid_axes = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = stablehlo.add %2, %3 : tensor<4x8xf32>
  func.return %4 : tensor<4x8xf32>
}

// -----

// numerics
// maximum for max, minimum for min.
// CHECK-LABEL: func.func @max_min
// CHECK-NEXT:    %[[M:.*]] = stablehlo.maximum %x, %y
// CHECK-NEXT:    shard.all_reduce %[[M]] on @g grid_axes = [1] reduction = max
// CHECK-NEXT:    %[[N:.*]] = stablehlo.minimum %x, %y
// CHECK-NEXT:    shard.all_reduce %[[N]] on @g grid_axes = [0] reduction = min
shard.grid @g(shape = 2x4)
func.func @max_min(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [1] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [1] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %2 = stablehlo.maximum %0, %1 : tensor<8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] reduction = min : tensor<8xf32> -> tensor<8xf32>
  %4 = shard.all_reduce %y on @g grid_axes = [0] reduction = min : tensor<8xf32> -> tensor<8xf32>
  %5 = stablehlo.minimum %3, %4 : tensor<8xf32>
  func.return %2, %5 : tensor<8xf32>, tensor<8xf32>
}

// -----

// numerics
// Each bitwise kind with its own op, and multiply for product.
// CHECK-LABEL: func.func @combiners
// CHECK-NEXT:    %[[A:.*]] = stablehlo.and %x, %y
// CHECK-NEXT:    shard.all_reduce %[[A]] on @g grid_axes = [0, 1] reduction = bitwise_and
// CHECK-NEXT:    %[[O:.*]] = stablehlo.or %x, %y
// CHECK-NEXT:    shard.all_reduce %[[O]] on @g grid_axes = [0, 1] reduction = bitwise_or
// CHECK-NEXT:    %[[X:.*]] = stablehlo.xor %x, %y
// CHECK-NEXT:    shard.all_reduce %[[X]] on @g grid_axes = [0, 1] reduction = bitwise_xor
// CHECK-NEXT:    %[[P:.*]] = stablehlo.multiply %x, %y
// CHECK-NEXT:    shard.all_reduce %[[P]] on @g grid_axes = [1] reduction = product
shard.grid @g(shape = 2x4)
func.func @combiners(%x: tensor<8xi32>, %y: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0, 1] reduction = bitwise_and : tensor<8xi32> -> tensor<8xi32>
  %1 = shard.all_reduce %y on @g grid_axes = [0, 1] reduction = bitwise_and : tensor<8xi32> -> tensor<8xi32>
  %2 = stablehlo.and %0, %1 : tensor<8xi32>
  %3 = shard.all_reduce %x on @g grid_axes = [0, 1] reduction = bitwise_or : tensor<8xi32> -> tensor<8xi32>
  %4 = shard.all_reduce %y on @g grid_axes = [0, 1] reduction = bitwise_or : tensor<8xi32> -> tensor<8xi32>
  %5 = stablehlo.or %3, %4 : tensor<8xi32>
  %6 = shard.all_reduce %x on @g grid_axes = [0, 1] reduction = bitwise_xor : tensor<8xi32> -> tensor<8xi32>
  %7 = shard.all_reduce %y on @g grid_axes = [0, 1] reduction = bitwise_xor : tensor<8xi32> -> tensor<8xi32>
  %8 = stablehlo.xor %6, %7 : tensor<8xi32>
  %9 = shard.all_reduce %x on @g grid_axes = [1] reduction = product : tensor<8xi32> -> tensor<8xi32>
  %10 = shard.all_reduce %y on @g grid_axes = [1] reduction = product : tensor<8xi32> -> tensor<8xi32>
  %11 = stablehlo.multiply %9, %10 : tensor<8xi32>
  func.return %2, %5, %8, %11 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
}

// -----

// numerics
// select with a predicate replicated over the axes (a constant); concatenate
// moves data only. The same all_reduce twice is one operand, used only here.
// CHECK-LABEL: func.func @select_concat
// CHECK:         %[[S:.*]] = stablehlo.select %p, %x, %y
// CHECK-NEXT:    shard.all_reduce %[[S]] on @g grid_axes = [1] :
// CHECK-NEXT:    %[[C:.*]] = stablehlo.concatenate %x, %x
// CHECK-NEXT:    shard.all_reduce %[[C]] on @g grid_axes = [0] reduction = max : tensor<16xf32> -> tensor<16xf32>
shard.grid @g(shape = 2x4)
func.func @select_concat(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<16xf32>) {
  %p = stablehlo.constant dense<[true, false, true, true, false, false, true, false]> : tensor<8xi1>
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %2 = stablehlo.select %p, %0, %1 : tensor<8xi1>, tensor<8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %4 = stablehlo.concatenate %3, %3, dim = 0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<16xf32>
  func.return %2, %4 : tensor<8xf32>, tensor<16xf32>
}

// -----

// Not distributing: multiply for sum, maximum for sum, add for max.
// CHECK-LABEL: func.func @not_distributing
// CHECK-COUNT-6: shard.all_reduce
// CHECK-NOT:     shard.all_reduce
shard.grid @g(shape = 2x4)
func.func @not_distributing(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %4 = shard.all_reduce %y on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %5 = stablehlo.maximum %3, %4 : tensor<8xf32>
  %6 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %7 = shard.all_reduce %y on @g grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %8 = stablehlo.add %6, %7 : tensor<8xf32>
  func.return %2, %5, %8 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Mismatched kinds, axes (even as a permutation: the pass does not reorder), and grids.
// CHECK-LABEL: func.func @mismatched
// CHECK-COUNT-8: shard.all_reduce
// CHECK-NOT:     shard.all_reduce
shard.grid @g(shape = 2x4)
shard.grid @h(shape = 2x4)
func.func @mismatched(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [0] reduction = min : tensor<8xf32> -> tensor<8xf32>
  %2 = stablehlo.maximum %0, %1 : tensor<8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %4 = shard.all_reduce %y on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %5 = stablehlo.add %3, %4 : tensor<8xf32>
  %6 = shard.all_reduce %x on @g grid_axes = [0, 1] : tensor<8xf32> -> tensor<8xf32>
  %7 = shard.all_reduce %y on @g grid_axes = [1, 0] : tensor<8xf32> -> tensor<8xf32>
  %8 = stablehlo.add %6, %7 : tensor<8xf32>
  %9 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %10 = shard.all_reduce %y on @h grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %11 = stablehlo.add %9, %10 : tensor<8xf32>
  func.return %2, %5, %8, %11 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// An all_reduce with another use; an operand that is not an all_reduce; a select
// whose predicate is an argument (not known replicated); an accumulation-type change.
// CHECK-LABEL: func.func @not_all_reduced
// CHECK-COUNT-7: shard.all_reduce
// CHECK-NOT:     shard.all_reduce
shard.grid @g(shape = 2x4)
func.func @not_all_reduced(%x: tensor<8xf32>, %y: tensor<8xf32>, %p: tensor<8xi1>, %h: tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %4 = stablehlo.add %3, %y : tensor<8xf32>
  %5 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %6 = shard.all_reduce %y on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %7 = stablehlo.select %p, %5, %6 : tensor<8xi1>, tensor<8xf32>
  %8 = shard.all_reduce %h on @g grid_axes = [0] : tensor<8xf16> -> tensor<8xf32>
  %9 = shard.all_reduce %h on @g grid_axes = [0] : tensor<8xf16> -> tensor<8xf32>
  %10 = stablehlo.add %8, %9 : tensor<8xf32>
  func.return %2, %1, %4, %7, %10 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
