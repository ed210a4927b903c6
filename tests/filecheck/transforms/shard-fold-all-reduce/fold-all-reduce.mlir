// shard-fold-all-reduce: a chain all_reduce_B(f(all_reduce_A(x), c)) of one kind
// becomes all_reduce_{A∪B}(f(x, c)). Chunks marked `// numerics` also run on 8
// devices before and after the pass (tests/test_fold_all_reduce.py).
// RUN: xshard-opt %s -p shard-fold-all-reduce --split-input-file | filecheck %s

// numerics
// Disjoint axes: the union, inner axes first.
// CHECK-LABEL: func.func @disjoint
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %x on @g grid_axes = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @disjoint(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

// numerics
// max is idempotent: overlapping axes still fold (the replicas of axis 0 agree).
// CHECK-LABEL: func.func @max_overlap
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %x on @g grid_axes = [0, 1] reduction = max
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @max_overlap(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [0, 1] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

// numerics
// Ops that commute with a sum sit between: negate, and a multiply by a constant.
// CHECK-LABEL: func.func @through_linear_ops
// CHECK-NEXT:    %c = stablehlo.constant
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %x
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %c, %[[N]]
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %[[M]] on @g grid_axes = [0, 1] :
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @through_linear_ops(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<4x8xf32>
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = stablehlo.negate %0 : tensor<4x8xf32>
  %2 = stablehlo.multiply %c, %1 : tensor<4x8xf32>
  %3 = shard.all_reduce %2 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %3 : tensor<4x8xf32>
}

// -----

// numerics
// The other factor is replicated over the inner axes because an all_reduce over
// a superset of them made it; a dot_general with a constant weight is linear too.
// CHECK-LABEL: func.func @replicated_factor
// CHECK-NEXT:    %w = stablehlo.constant
// CHECK-NEXT:    %s = shard.all_reduce %y on @g grid_axes = [0, 1]
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %x, %s
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %[[M]], %w
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %[[D]] on @g grid_axes = [0, 1] :
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @replicated_factor(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %w = stablehlo.constant dense<0.5> : tensor<8x2xf32>
  %s = shard.all_reduce %y on @g grid_axes = [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = stablehlo.multiply %0, %s : tensor<4x8xf32>
  %2 = stablehlo.dot_general %1, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %3 = shard.all_reduce %2 on @g grid_axes = [1] : tensor<4x2xf32> -> tensor<4x2xf32>
  func.return %3 : tensor<4x2xf32>
}

// -----

// numerics
// max(max_A x, c) = max_A max(x, c) for a c replicated over A (a broadcast constant).
// CHECK-LABEL: func.func @max_join
// CHECK:         %[[M:.*]] = stablehlo.maximum %x, %b
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %[[M]] on @g grid_axes = [1, 0] reduction = max
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @max_join(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = stablehlo.constant dense<0.25> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %0 = shard.all_reduce %x on @g grid_axes = [1] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = stablehlo.maximum %0, %b : tensor<4x8xf32>
  %2 = shard.all_reduce %1 on @g grid_axes = [0] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %2 : tensor<4x8xf32>
}

// -----

// numerics
// bitwise_or is idempotent and `or` is its combiner: overlapping axes, a constant mask.
// CHECK-LABEL: func.func @or_overlap
// CHECK-NEXT:    %c = stablehlo.constant
// CHECK-NEXT:    %[[O:.*]] = stablehlo.or %x, %c
// CHECK-NEXT:    %[[R:.*]] = shard.all_reduce %[[O]] on @g grid_axes = [1, 0] reduction = bitwise_or
// CHECK-NEXT:    func.return %[[R]]
shard.grid @g(shape = 2x4)
func.func @or_overlap(%x: tensor<8xi32>) -> tensor<8xi32> {
  %c = stablehlo.constant dense<16> : tensor<8xi32>
  %0 = shard.all_reduce %x on @g grid_axes = [1] reduction = bitwise_or : tensor<8xi32> -> tensor<8xi32>
  %1 = stablehlo.or %0, %c : tensor<8xi32>
  %2 = shard.all_reduce %1 on @g grid_axes = [0, 1] reduction = bitwise_or : tensor<8xi32> -> tensor<8xi32>
  func.return %2 : tensor<8xi32>
}

// -----

// Sum over overlapping axes counts axis 0's replicas twice: no fold.
// CHECK-LABEL: func.func @sum_overlap
// CHECK-NEXT:    shard.all_reduce %x on @g grid_axes = [0] :
// CHECK-NEXT:    shard.all_reduce %{{.*}} on @g grid_axes = [0, 1] :
shard.grid @g(shape = 2x4)
func.func @sum_overlap(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

// xor is not idempotent (a ^ a = 0): no fold over overlapping axes.
// CHECK-LABEL: func.func @xor_overlap
// CHECK-NEXT:    shard.all_reduce %x on @g grid_axes = [1] reduction = bitwise_xor
// CHECK-NEXT:    shard.all_reduce %{{.*}} on @g grid_axes = [1] reduction = bitwise_xor
shard.grid @g(shape = 2x4)
func.func @xor_overlap(%x: tensor<8xi32>) -> tensor<8xi32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] reduction = bitwise_xor : tensor<8xi32> -> tensor<8xi32>
  %1 = shard.all_reduce %0 on @g grid_axes = [1] reduction = bitwise_xor : tensor<8xi32> -> tensor<8xi32>
  func.return %1 : tensor<8xi32>
}

// -----

// Mismatched kinds.
// CHECK-LABEL: func.func @kinds_differ
// CHECK-NEXT:    shard.all_reduce %x on @g grid_axes = [0] :
// CHECK-NEXT:    shard.all_reduce %{{.*}} on @g grid_axes = [1] reduction = max
shard.grid @g(shape = 2x4)
func.func @kinds_differ(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [1] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

// The inner result has a second use, which would still need it.
// CHECK-LABEL: func.func @two_uses
// CHECK-NEXT:    %[[A:.*]] = shard.all_reduce %x on @g grid_axes = [0] :
// CHECK-NEXT:    shard.all_reduce %[[A]] on @g grid_axes = [1] :
shard.grid @g(shape = 2x4)
func.func @two_uses(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A factor that is an argument is not known to be replicated over axis 0; one
// replicated over the other axes only does not do either.
// CHECK-LABEL: func.func @factor_not_replicated
// CHECK:         shard.all_reduce %x on @g grid_axes = [0] :
// CHECK:         shard.all_reduce %{{.*}} on @g grid_axes = [1] :
// CHECK:         shard.all_reduce %x on @g grid_axes = [0] :
// CHECK:         shard.all_reduce %y on @g grid_axes = [1] :
// CHECK:         shard.all_reduce %{{.*}} on @g grid_axes = [1] :
shard.grid @g(shape = 2x4)
func.func @factor_not_replicated(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = stablehlo.multiply %0, %y : tensor<4x8xf32>
  %2 = shard.all_reduce %1 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = shard.all_reduce %y on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %5 = stablehlo.multiply %3, %4 : tensor<4x8xf32>
  %6 = shard.all_reduce %5 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %2, %6 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Ops that do not commute with a sum: add of a replicated constant (counted once
// per device), exp, and maximum.
// CHECK-LABEL: func.func @not_distributing
// CHECK-COUNT-6: shard.all_reduce
shard.grid @g(shape = 2x4)
func.func @not_distributing(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<4x8xf32>
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = stablehlo.add %0, %c : tensor<4x8xf32>
  %2 = shard.all_reduce %1 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = stablehlo.exponential %3 : tensor<4x8xf32>
  %5 = shard.all_reduce %4 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %6 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %7 = stablehlo.maximum %6, %c : tensor<4x8xf32>
  %8 = shard.all_reduce %7 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %2, %5, %8 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Different grids; and an inner all_reduce that widens the element type.
// CHECK-LABEL: func.func @grid_or_type_differs
// CHECK-COUNT-4: shard.all_reduce
shard.grid @g(shape = 2x4)
shard.grid @h(shape = 2x4)
func.func @grid_or_type_differs(%x: tensor<4x8xf32>, %y: tensor<8xf16>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %x on @h grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = shard.all_reduce %y on @g grid_axes = [0] : tensor<8xf16> -> tensor<8xf32>
  %3 = shard.all_reduce %2 on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  func.return %1, %3 : tensor<4x8xf32>, tensor<8xf32>
}

// -----

// A broadcast between them grows the data: one all_reduce over both axes of the
// large tensor would move more bytes than the small one plus the large one over
// axis 1, so the chain stays.
// CHECK-LABEL: func.func @grows
// CHECK-NEXT:    shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8xf32>
// CHECK-NEXT:    stablehlo.broadcast_in_dim
// CHECK-NEXT:    shard.all_reduce %{{.*}} on @g grid_axes = [1] reduction = max : tensor<64x8xf32>
shard.grid @g(shape = 2x4)
func.func @grows(%x: tensor<8xf32>) -> tensor<64x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<8xf32>) -> tensor<64x8xf32>
  %2 = shard.all_reduce %1 on @g grid_axes = [1] reduction = max : tensor<64x8xf32> -> tensor<64x8xf32>
  func.return %2 : tensor<64x8xf32>
}
