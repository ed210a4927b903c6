// all_slice(all_gather(x)) on the same grid, axes and dim is x, always;
// all_gather(all_slice(x)) is x only when x is provably the same on every device
// of the group (constants, all-reduced or all-gathered values, pure functions of them).
// RUN: xshard-opt %s --split-input-file -p shard-cancel-inverse-pairs | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    func.return %x : tensor<4x2xf32>
func.func @main(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The gather has another use: it stays, the slice goes.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0
// CHECK-NEXT:    func.return %x, %0 : tensor<1x4xf32>, tensor<8x4xf32>
func.func @main(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<8x4xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x4xf32> -> tensor<8x4xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8x4xf32> -> tensor<1x4xf32>
  func.return %1, %0 : tensor<1x4xf32>, tensor<8x4xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// x is all-reduced over the gather's axes (and more): every device of the group
// holds the same x, so gathering the slices rebuilds it.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.all_reduce %x on @g grid_axes = [0, 1]
// CHECK-NEXT:    func.return %0 : tensor<4x8xf32>
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %2 = shard.all_gather %1 on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  func.return %2 : tensor<4x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// A pure function of replicated values (an all-gathered value and a constant) is
// replicated; so is a value all-sliced over axes disjoint from the group's.
// CHECK-LABEL: func.func @main
// CHECK:         %[[SUM:.*]] = stablehlo.add
// CHECK-NEXT:    %[[ROWS:.*]] = shard.all_slice %[[SUM]] on @g grid_axes = [0] slice_axis = 0
// CHECK-NEXT:    func.return %[[ROWS]] : tensor<2x8xf32>
func.func @main(%x: tensor<4x2xf32>) -> tensor<2x8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %c = stablehlo.constant dense<1.5> : tensor<4x8xf32>
  %1 = stablehlo.add %0, %c : tensor<4x8xf32>
  %2 = shard.all_slice %1 on @g grid_axes = [0] slice_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
  %3 = shard.all_slice %2 on @g grid_axes = [1] slice_axis = 1 : tensor<2x8xf32> -> tensor<2x2xf32>
  %4 = shard.all_gather %3 on @g grid_axes = [1] gather_axis = 1 : tensor<2x2xf32> -> tensor<2x8xf32>
  func.return %4 : tensor<2x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: x is an argument, which differs from device to device. Upstream folds
// this pair to x; device k would then return its own x instead of the blocks the
// group's devices sliced from theirs.
// CHECK-LABEL: func.func @argument
// CHECK-NEXT:    %0 = shard.all_slice %x
// CHECK-NEXT:    %1 = shard.all_gather %0
// CHECK-NEXT:    func.return %1
func.func @argument(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %1 = shard.all_gather %0 on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: all-reduced over [0] only, so still different along axis 1.
// CHECK-LABEL: func.func @reduced_elsewhere
// CHECK:         shard.all_slice
// CHECK-NEXT:    shard.all_gather
func.func @reduced_elsewhere(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %2 = shard.all_gather %1 on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  func.return %2 : tensor<4x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: a process id makes the value differ per device, even though the op is pure.
// CHECK-LABEL: func.func @process_dependent
// CHECK:         shard.all_slice
// CHECK-NEXT:    shard.all_gather
func.func @process_dependent(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %id = stablehlo.partition_id : tensor<ui32>
  %f = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
  %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = stablehlo.add %0, %b : tensor<4x8xf32>
  %2 = shard.all_slice %1 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %3 = shard.all_gather %2 on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  func.return %3 : tensor<4x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// Negative: gather and slice on different tensor dims, or different axes orders.
// CHECK-LABEL: func.func @mismatched
// CHECK-NEXT:    %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 0
// CHECK-NEXT:    %2 = shard.all_gather %y on @g grid_axes = [0, 1] gather_axis = 0
// CHECK-NEXT:    %3 = shard.all_slice %2 on @g grid_axes = [1, 0] slice_axis = 0
func.func @mismatched(%x: tensor<4x2xf32>, %y: tensor<1x4xf32>) -> (tensor<1x8xf32>, tensor<1x4xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 0 : tensor<4x8xf32> -> tensor<1x8xf32>
  %2 = shard.all_gather %y on @g grid_axes = [0, 1] gather_axis = 0 : tensor<1x4xf32> -> tensor<8x4xf32>
  %3 = shard.all_slice %2 on @g grid_axes = [1, 0] slice_axis = 0 : tensor<8x4xf32> -> tensor<1x4xf32>
  func.return %1, %3 : tensor<1x8xf32>, tensor<1x4xf32>
}

// -----

shard.grid @g(shape = 2x4)
shard.grid @h(shape = 2x4)
// Negative: different grids.
// CHECK-LABEL: func.func @other_grid
// CHECK-NEXT:    shard.all_gather %x on @g
// CHECK-NEXT:    shard.all_slice %0 on @h
func.func @other_grid(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = shard.all_slice %0 on @h grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}
