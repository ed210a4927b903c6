// test-grid-all-slice-op-lowering: upstream's test pass under its name. Each device
// keeps its block of the slice axis: the in-group linear index times the block size.
// Checked against mlir-opt-22 --test-grid-all-slice-op-lowering
// --test-grid-simplifications --cse: the same ops but for the affine map's spelling
// (inline here, a `#map` alias there; three axes as a different, equal expression)
// and @no_axes, where mlir-opt-22 divides by the whole grid.
// RUN: xshard-opt %s -p test-grid-all-slice-op-lowering | filecheck %s
// The printed ops (a semi-affine `affine.apply` included) parse back.
// RUN: xshard-opt %s -p test-grid-all-slice-op-lowering | xshard-opt | filecheck %s

shard.grid @g(shape = 2x?x3)

// Static sizes are folded as the ops are built: no grid_shape query, a `true` check,
// the block size a constant; the slice is all-dynamic, cast to the op's type.
// CHECK-LABEL: func.func @static_group_static_tensor
// CHECK-SAME:    (%[[ARG:.*]]: tensor<12x5xf32>)
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[IDX:.*]]:2 = shard.process_multi_index on @g axes = [0, 2] : index, index
// CHECK-NEXT:    cf.assert %[[TRUE]], "Slicing a tensor with axis size that is not exactly divisible by the grid process group size is not supported."
// CHECK-NEXT:    %[[LIN:.*]] = affine.apply affine_map<()[s0, s1, s2] -> (((s0 * s1) + s2))> ()[%[[IDX]]#0, %[[C3]], %[[IDX]]#1]
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[LIN]], %[[C2]] : index
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[ARG]][%[[OFF]], 0] [%[[C2]], %[[C5]]] [1, 1] : tensor<12x5xf32> to tensor<?x?xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.cast %[[S]] : tensor<?x?xf32> to tensor<2x5xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @static_group_static_tensor(%arg0: tensor<12x5xf32>) -> tensor<2x5xf32> {
  %0 = shard.all_slice %arg0 on @g grid_axes = [0, 2] slice_axis = 0 : tensor<12x5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// A dynamic grid axis is queried; its size and the static ones multiply (constants
// right); the divisibility is checked at run time.
// CHECK-LABEL: func.func @mixed_group_dynamic_tensor
// CHECK-SAME:    (%[[ARG:.*]]: tensor<?x7xf32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK:         %[[IDX:.*]]:2 = shard.process_multi_index on @g axes = [1, 0] : index, index
// CHECK-NEXT:    %[[GS:.*]] = shard.grid_shape @g axes = [1] : index
// CHECK-NEXT:    %[[N:.*]] = arith.muli %[[GS]], %[[C2]] : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[ARG]], %[[C0]] : tensor<?x7xf32>
// CHECK-NEXT:    %[[REM:.*]] = arith.remui %[[DIM]], %[[N]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[REM]], %[[C0]] : index
// CHECK-NEXT:    cf.assert %[[OK]]
// CHECK-NEXT:    %[[SIZE:.*]] = arith.divui %[[DIM]], %[[N]] : index
// CHECK-NEXT:    %[[LIN:.*]] = affine.apply affine_map<()[s0, s1, s2] -> (((s0 * s1) + s2))> ()[%[[IDX]]#0, %[[C2]], %[[IDX]]#1]
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[LIN]], %[[SIZE]] : index
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[ARG]][%[[OFF]], 0] [%[[SIZE]], %[[C7]]] [1, 1] : tensor<?x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.cast %[[S]] : tensor<?x?xf32> to tensor<?x7xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @mixed_group_dynamic_tensor(%arg0: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %0 = shard.all_slice %arg0 on @g grid_axes = [1, 0] slice_axis = 0 : tensor<?x7xf32> -> tensor<?x7xf32>
  return %0 : tensor<?x7xf32>
}

// One axis: the coordinate is the linear index. The slice's type is the op's: no cast.
// CHECK-LABEL: func.func @one_axis_dynamic_result
// CHECK-SAME:    (%[[ARG:.*]]: tensor<4x?xf32>)
// CHECK:         %[[IDX:.*]] = shard.process_multi_index on @g axes = [1] : index
// CHECK:         %[[DIM:.*]] = tensor.dim %[[ARG]], %c1
// CHECK:         %[[SIZE:.*]] = arith.divui %[[DIM]], %[[GS:.*]] : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[IDX]], %[[SIZE]] : index
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[ARG]][0, %[[OFF]]] [%c4, %[[SIZE]]] [1, 1] : tensor<4x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @one_axis_dynamic_result(%arg0: tensor<4x?xf32>) -> tensor<?x?xf32> {
  %0 = shard.all_slice %arg0 on @g grid_axes = [1] slice_axis = 1 : tensor<4x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Three axes: the linear index in row-major order of the group's axes.
// CHECK-LABEL: func.func @three_axes
// CHECK:         %[[IDX:.*]]:3 = shard.process_multi_index on @g axes = [2, 1, 0]
// CHECK:         affine.apply affine_map<()[s0, s1, s2, s3, s4] -> (((((s0 * s1) + s2) * s3) + s4))> ()[%[[IDX]]#0, %{{.*}}, %[[IDX]]#1, %c2, %[[IDX]]#2]
func.func @three_axes(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = shard.all_slice %arg0 on @g grid_axes = [2, 1, 0] slice_axis = 0 : tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// No grid axes: a group of one device, the op is its input (cast to its type).
// CHECK-LABEL: func.func @no_axes
// CHECK-SAME:    (%[[ARG:.*]]: tensor<6xf32>)
// CHECK-NEXT:    %[[R:.*]] = tensor.cast %[[ARG]] : tensor<6xf32> to tensor<?xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @no_axes(%arg0: tensor<6xf32>) -> tensor<?xf32> {
  %0 = shard.all_slice %arg0 on @g slice_axis = 0 : tensor<6xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
