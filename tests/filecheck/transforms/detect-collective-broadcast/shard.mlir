// detect-collective-broadcast at the shard level: a sum all_reduce of a value only
// one device per group contributes (the others contribute exact zeros) becomes a
// shard.broadcast from that device. The mask is evaluated on every device, so any
// arithmetic on the device index or slices of constant tables is recognised.
// Chunks marked `// numerics` also run on 8 devices before and after the pass
// (tests/test_detect_collective_broadcast.py).
// RUN: xshard-opt %s --split-input-file -p detect-collective-broadcast | filecheck %s

// select(device is column 2, x, 0), summed along axis 1: column 2 broadcasts.
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @select_column
// CHECK-NEXT:    %[[B:.*]] = shard.broadcast %x on @g grid_axes = [1] root = [2] : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @select_column(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[false, false, true, false]> : tensor<4xi1>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
  %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// x * onehot over the whole grid, one-hot at device 5 = (1, 1).
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @onehot_whole_grid
// CHECK:         %[[B:.*]] = shard.broadcast %x on @g grid_axes = [0, 1] root = [1, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NOT:     shard.all_reduce
// CHECK:         func.return %[[B]]
func.func @onehot_whole_grid(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %t = stablehlo.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]> : tensor<8xf32>
  %s = shard.all_slice %t on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8xf32> -> tensor<1xf32>
  %h = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<1xf32>) -> tensor<2xf32>
  %o = stablehlo.broadcast_in_dim %h, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %m = stablehlo.multiply %o, %x : tensor<2x3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// The zero in the true branch: select(row is 0, 0, x) along axis 0 keeps row 1's x.
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @zero_on_true_branch
// CHECK:         shard.broadcast %x on @g grid_axes = [0] root = [1] : (tensor<4xi32>) -> tensor<4xi32>
func.func @zero_on_true_branch(%x: tensor<4xi32>) -> tensor<4xi32> {
  %t = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %s = shard.all_slice %t on @g grid_axes = [0] slice_axis = 0 : tensor<2xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %z = stablehlo.constant dense<0> : tensor<4xi32>
  %m = stablehlo.select %p, %z, %x : tensor<i1>, tensor<4xi32>
  %r = shard.all_reduce %m on @g grid_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

// grid_axes = [1, 0]: in-group order is column-major, so device 6 = (1, 2) is
// in-group index 2 * 2 + 1 = 5 and its root is written [2, 1] (axis 1 first).
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @axes_reversed
// CHECK:         shard.broadcast %x on @g grid_axes = [1, 0] root = [2, 1]
func.func @axes_reversed(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]> : tensor<8xf32>
  %s = shard.all_slice %t on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8xf32> -> tensor<1xf32>
  %o = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
  %m = stablehlo.multiply %x, %o : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1, 0] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// The masked value has another user: it stays for that user, the all_reduce still
// becomes a broadcast (sound whatever else reads the mask).
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @masked_value_used_twice
// CHECK:         %[[M:.*]] = stablehlo.select
// CHECK-NEXT:    %[[B:.*]] = shard.broadcast %x on @g grid_axes = [1] root = [0]
// CHECK-NEXT:    func.return %[[B]], %[[M]]
func.func @masked_value_used_twice(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %t = stablehlo.constant dense<[true, false, false, false]> : tensor<4xi1>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
  %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r, %m : tensor<3xf32>, tensor<3xf32>
}

// -----

// The form written with the process queries: arith.cmpi on the in-group index and
// arith.select.
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @process_index_select
// CHECK:         %[[B:.*]] = shard.broadcast %x on @g grid_axes = [1] root = [3]
// CHECK-NEXT:    func.return %[[B]]
func.func @process_index_select(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [1] : index
  %c3 = arith.constant 3 : index
  %p = arith.cmpi eq, %i, %c3 : index
  %z = arith.constant dense<0.000000e+00> : tensor<3xf32>
  %m = arith.select %p, %x, %z : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// Linear index arithmetic: linear % 4 == 1 picks column 1 of each row.
// numerics
shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @linear_index_arithmetic
// CHECK:         %[[B:.*]] = shard.broadcast %x on @g grid_axes = [1] root = [1]
// CHECK-NOT:     shard.all_reduce
// CHECK:         func.return %[[B]]
func.func @linear_index_arithmetic(%x: tensor<3xf32>) -> tensor<3xf32> {
  %l = shard.process_linear_index on @g : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %col = arith.remui %l, %c4 : index
  %p = arith.cmpi eq, %col, %c1 : index
  %z = arith.constant dense<0.000000e+00> : tensor<3xf32>
  %m = arith.select %p, %x, %z : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// Negative cases: the all_reduce stays.
shard.grid @g(shape = 2x4)

// A max reduction of select(root, x, 0) is max(x, 0) on the root's value, not x.
// CHECK-LABEL: func.func @max_kind
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce %{{.*}} reduction = max
func.func @max_kind(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[false, false, true, false]> : tensor<4xi1>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
  %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] reduction = max : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// The other devices contribute ones, not zeros.
// CHECK-LABEL: func.func @nonzero_false_branch
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @nonzero_false_branch(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[false, false, true, false]> : tensor<4xi1>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<3xf32>
  %m = stablehlo.select %p, %x, %one : tensor<i1>, tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// The root is a run-time value.
// CHECK-LABEL: func.func @root_not_constant
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @root_not_constant(%x: tensor<3xf32>, %root: index) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [1] : index
  %p = arith.cmpi eq, %i, %root : index
  %z = arith.constant dense<0.000000e+00> : tensor<3xf32>
  %m = arith.select %p, %x, %z : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// The mask picks a column, the reduction runs along axis 0: each group (a column)
// has both rows contributing x or none.
// CHECK-LABEL: func.func @wrong_axes
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @wrong_axes(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[false, false, true, false]> : tensor<4xi1>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
  %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [0] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// Two devices per group contribute: a sum of two values.
// CHECK-LABEL: func.func @two_sources
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @two_sources(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
  %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// One source per group, but at column 1 in row 0 and column 2 in row 1:
// shard.broadcast has one root for all groups.
// CHECK-LABEL: func.func @root_differs_per_group
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @root_differs_per_group(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]> : tensor<8xf32>
  %s = shard.all_slice %t on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8xf32> -> tensor<1xf32>
  %o = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
  %m = stablehlo.multiply %x, %o : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// A factor of 2 on the root is not a one-hot.
// CHECK-LABEL: func.func @not_one_hot
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @not_one_hot(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.constant dense<[0.0, 2.0, 0.0, 0.0]> : tensor<4xf32>
  %s = shard.all_slice %t on @g grid_axes = [1] slice_axis = 0 : tensor<4xf32> -> tensor<1xf32>
  %o = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
  %m = stablehlo.multiply %x, %o : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// Neither factor depends on the device only.
// CHECK-LABEL: func.func @product_of_inputs
// CHECK-NOT:     shard.broadcast
// CHECK:         shard.all_reduce
func.func @product_of_inputs(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %m = stablehlo.multiply %x, %y : tensor<3xf32>
  %r = shard.all_reduce %m on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
