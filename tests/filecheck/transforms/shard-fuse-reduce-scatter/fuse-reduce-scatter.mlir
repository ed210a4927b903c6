// An all_slice of a single-use all_reduce over the same grid axes becomes one
// reduce_scatter (upstream shard-simplify's AllReduce + AllSlice fusion); the kind
// and the accumulation element type are kept.
// RUN: xshard-opt %s --split-input-file -p shard-fuse-reduce-scatter | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %0
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Two axes, max, slicing dim 0.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.reduce_scatter %x on @g grid_axes = [0, 1] reduction = max scatter_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %0
func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0, 1] reduction = max : tensor<16x4xf32> -> tensor<16x4xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [0, 1] slice_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
  func.return %1 : tensor<2x4xf32>
}

// -----

shard.grid @g(shape = 2x4)
// The accumulation type of the all_reduce is the reduce_scatter's result type.
// CHECK-LABEL: func.func @widening
// CHECK-NEXT:    %0 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 0 : tensor<8x4xf32> -> tensor<2x4xf64>
func.func @widening(%x: tensor<8x4xf32>) -> tensor<2x4xf64> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<8x4xf32> -> tensor<8x4xf64>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 0 : tensor<8x4xf64> -> tensor<2x4xf64>
  func.return %1 : tensor<2x4xf64>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: the all_reduce has another use.
// CHECK-LABEL: func.func @two_uses
// CHECK-NEXT:    %0 = shard.all_reduce
// CHECK-NEXT:    %1 = shard.all_slice %0
func.func @two_uses(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %1, %0 : tensor<4x2xf32>, tensor<4x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: different grid axes (reduce over [0], slice over [1]).
// CHECK-LABEL: func.func @other_axes
// CHECK-NEXT:    %0 = shard.all_reduce %x on @g grid_axes = [0]
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [1]
func.func @other_axes(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: the same axes in another order slice differently.
// CHECK-LABEL: func.func @axes_order
// CHECK-NEXT:    %0 = shard.all_reduce %x on @g grid_axes = [0, 1]
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [1, 0]
func.func @axes_order(%x: tensor<16x4xf32>) -> tensor<2x4xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0, 1] : tensor<16x4xf32> -> tensor<16x4xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1, 0] slice_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
  func.return %1 : tensor<2x4xf32>
}

// -----

shard.grid @g(shape = 2x4)
shard.grid @h(shape = 2x4)
// Negative: different grids.
// CHECK-LABEL: func.func @other_grid
// CHECK-NEXT:    %0 = shard.all_reduce %x on @g
// CHECK-NEXT:    %1 = shard.all_slice %0 on @h
func.func @other_grid(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @h grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}
