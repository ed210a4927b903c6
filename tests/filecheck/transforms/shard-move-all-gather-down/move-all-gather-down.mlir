// An all_gather whose only user is parallel along the gathered dim moves below the
// user, which then runs on the shard: elementwise ops (other operands replicated
// over the group, sliced with all_slice where indexed), convert to a narrower type,
// transpose and broadcast_in_dim (dim remapped), dot_general on a free dim. It does
// not fire where the gather would move more bytes.
// RUN: xshard-opt %s --split-input-file -p shard-move-all-gather-down | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.tanh %x : tensor<4x2xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %1
func.func @main(%x: tensor<4x2xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.tanh %0 : tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// A chain moves down step by step; the constant is sliced like the gathered dim,
// the all-reduced operand (replicated over [0, 1] ⊇ [1]) too.
// CHECK-LABEL: func.func @main
// CHECK:         %[[C:.*]] = stablehlo.constant
// CHECK:         %[[R:.*]] = shard.all_reduce %y on @g grid_axes = [0, 1]
// CHECK-NEXT:    %[[CS:.*]] = shard.all_slice %[[C]] on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %x, %[[CS]] : tensor<4x2xf32>
// CHECK-NEXT:    %[[RS:.*]] = shard.all_slice %[[R]] on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[RS]], %[[A]] : tensor<4x2xf32>
// CHECK-NEXT:    %[[G:.*]] = shard.all_gather %[[M]] on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[G]]
func.func @main(%x: tensor<4x2xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<4x8xf32>
  %r = shard.all_reduce %y on @g grid_axes = [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.add %0, %c : tensor<4x8xf32>
  %2 = stablehlo.multiply %r, %1 : tensor<4x8xf32>
  func.return %2 : tensor<4x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The other operand is a pure function of a constant, hence replicated: it is sliced.
// CHECK-LABEL: func.func @main
// CHECK:         %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %0 = shard.all_slice %b on @g grid_axes = [0, 1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %1 = stablehlo.maximum %x, %0 : tensor<4x1xf32>
// CHECK-NEXT:    %2 = shard.all_gather %1 on @g grid_axes = [0, 1] gather_axis = 1 : tensor<4x1xf32> -> tensor<4x8xf32>
func.func @main(%x: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 1 : tensor<4x1xf32> -> tensor<4x8xf32>
  %1 = stablehlo.maximum %0, %b : tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// A convert to a narrower type: the gather then moves half the bytes.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.convert %x : (tensor<2x4xf32>) -> tensor<2x4xf16>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [1, 0] gather_axis = 0 : tensor<2x4xf16> -> tensor<16x4xf16>
func.func @main(%x: tensor<2x4xf32>) -> tensor<16x4xf16> {
  %0 = shard.all_gather %x on @g grid_axes = [1, 0] gather_axis = 0 : tensor<2x4xf32> -> tensor<16x4xf32>
  %1 = stablehlo.convert %0 : (tensor<16x4xf32>) -> tensor<16x4xf16>
  func.return %1 : tensor<16x4xf16>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// transpose: the gathered dim 0 is result dim 1.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x6xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [1] gather_axis = 1 : tensor<6x2xf32> -> tensor<6x8xf32>
func.func @main(%x: tensor<2x6xf32>) -> tensor<6x8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<2x6xf32> -> tensor<8x6xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  func.return %1 : tensor<6x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// broadcast_in_dim that adds a unit dim in front: the gathered dim 1 is result dim 2.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x1xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [0, 1] gather_axis = 2 : tensor<1x3x1xf32> -> tensor<1x3x8xf32>
func.func @main(%x: tensor<3x1xf32>) -> tensor<1x3x8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 1 : tensor<3x1xf32> -> tensor<3x8xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<3x8xf32>) -> tensor<1x3x8xf32>
  func.return %1 : tensor<1x3x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// dot_general on the lhs free dim; the rhs (all-gathered, so replicated) is not indexed
// by that dim and is used whole.
// CHECK-LABEL: func.func @main
// CHECK:         %[[W:.*]] = shard.all_gather %w on @g grid_axes = [1] gather_axis = 0
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %x, %[[W]], contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[G:.*]] = shard.all_gather %[[D]] on @g grid_axes = [1] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %[[G]]
func.func @main(%x: tensor<2x8xf32>, %w: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %w8 = shard.all_gather %w on @g grid_axes = [1] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %w8, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return %1 : tensor<8x4xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// dot_general on the rhs free dim, with a batch dim: the result is gathered on its
// rhs free dim (2); the all-reduced lhs is used whole.
// CHECK-LABEL: func.func @main
// CHECK:         %[[D:.*]] = stablehlo.dot_general %{{.*}}, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x8xf32>, tensor<2x8x1xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:    %[[G:.*]] = shard.all_gather %[[D]] on @g grid_axes = [1] gather_axis = 2 : tensor<2x3x1xf32> -> tensor<2x3x4xf32>
func.func @main(%x: tensor<2x3x8xf32>, %y: tensor<2x8x1xf32>) -> tensor<2x3x4xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [1] : tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  %0 = shard.all_gather %y on @g grid_axes = [1] gather_axis = 2 : tensor<2x8x1xf32> -> tensor<2x8x4xf32>
  %1 = stablehlo.dot_general %r, %0, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x8xf32>, tensor<2x8x4xf32>) -> tensor<2x3x4xf32>
  func.return %1 : tensor<2x3x4xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Any op whose model is parallel along the dim moves the same way: a reshape that
// merges the gathered (major) dim with the next one.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.reshape %x : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [0, 1] gather_axis = 0 : tensor<4xf32> -> tensor<32xf32>
func.func @main(%x: tensor<1x4xf32>) -> tensor<32xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x4xf32> -> tensor<8x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<8x4xf32>) -> tensor<32xf32>
  func.return %1 : tensor<32xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: the other operand is an argument, different on every device.
// CHECK-LABEL: func.func @other_not_replicated
// CHECK-NEXT:    %0 = shard.all_gather
// CHECK-NEXT:    %1 = stablehlo.add %0, %y : tensor<4x8xf32>
func.func @other_not_replicated(%x: tensor<4x2xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.add %0, %y : tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: a dot_general's rhs that is not indexed by the gathered dim still must be
// replicated: each device would multiply its block by its own rhs.
// CHECK-LABEL: func.func @rhs_not_replicated
// CHECK-NEXT:    %0 = shard.all_gather
// CHECK-NEXT:    %1 = stablehlo.dot_general %0, %w
func.func @rhs_not_replicated(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return %1 : tensor<8x4xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: the gather has two uses.
// CHECK-LABEL: func.func @two_uses
// CHECK-NEXT:    %0 = shard.all_gather
// CHECK-NEXT:    %1 = stablehlo.tanh %0
func.func @two_uses(%x: tensor<4x2xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.tanh %0 : tensor<4x8xf32>
  func.return %1, %0 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: the gathered dim is contracted (a reduction loop, not parallel).
// CHECK-LABEL: func.func @contracting
// CHECK:         %0 = shard.all_gather
// CHECK-NEXT:    %1 = stablehlo.dot_general %0
func.func @contracting(%x: tensor<4x2xf32>) -> tensor<4x4xf32> {
  %w = stablehlo.constant dense<1.0> : tensor<8x4xf32>
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %1 : tensor<4x4xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: moving the gather below a widening convert, a growing broadcast or a
// dot_general whose rhs free dim exceeds the contracted one would move more bytes.
// CHECK-LABEL: func.func @more_bytes
// CHECK-NEXT:    %0 = shard.all_gather %x
// CHECK-NEXT:    %1 = stablehlo.convert %0
// CHECK-NEXT:    %2 = shard.all_gather %x
// CHECK-NEXT:    %3 = stablehlo.broadcast_in_dim %2
// CHECK-NEXT:    %w = stablehlo.constant
// CHECK-NEXT:    %4 = shard.all_gather %x
// CHECK-NEXT:    %5 = stablehlo.dot_general %4, %w
func.func @more_bytes(%x: tensor<1x4xf32>) -> (tensor<8x4xf64>, tensor<8x4x16xf32>, tensor<8x32xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x4xf32> -> tensor<8x4xf32>
  %1 = stablehlo.convert %0 : (tensor<8x4xf32>) -> tensor<8x4xf64>
  %2 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x4xf32> -> tensor<8x4xf32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4x16xf32>
  %w = stablehlo.constant dense<1.0> : tensor<4x32xf32>
  %4 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x4xf32> -> tensor<8x4xf32>
  %5 = stablehlo.dot_general %4, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
  func.return %1, %3, %5 : tensor<8x4xf64>, tensor<8x4x16xf32>, tensor<8x32xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: an op whose model partitions it itself (a reduce) is left alone.
// CHECK-LABEL: func.func @reduce
// CHECK:         %0 = shard.all_gather
// CHECK-NEXT:    %1 = stablehlo.reduce
func.func @reduce(%x: tensor<4x2xf32>) -> tensor<4xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.reduce(%0 init: %init) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
