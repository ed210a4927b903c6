// test-grid-process-multi-index-op-lowering: upstream's test pass under its name.
// A device's coordinates come from its linear index split on the grid's shape.
// RUN: xshard-opt %s -p test-grid-process-multi-index-op-lowering | filecheck %s
// The printed affine.delinearize_index parses back (xshard's affine dialect has it).
// RUN: xshard-opt %s -p test-grid-process-multi-index-op-lowering | xshard-opt | filecheck %s

shard.grid @g(shape = 2x?x3)

// CHECK-LABEL: func.func @some_axes
// CHECK-NEXT:    %[[LIN:.*]] = shard.process_linear_index on @g : index
// CHECK-NEXT:    %[[SHAPE:.*]]:3 = shard.grid_shape @g : index, index, index
// CHECK-NEXT:    %[[IDX:.*]]:3 = affine.delinearize_index %[[LIN]] into (%[[SHAPE]]#0, %[[SHAPE]]#1, %[[SHAPE]]#2) : index, index, index
// CHECK-NEXT:    func.return %[[IDX]]#2, %[[IDX]]#0 : index, index
func.func @some_axes() -> (index, index) {
  %0:2 = shard.process_multi_index on @g axes = [2, 0] : index, index
  func.return %0#0, %0#1 : index, index
}

// CHECK-LABEL: func.func @all_axes
// CHECK:         %[[IDX:.*]]:3 = affine.delinearize_index
// CHECK-NEXT:    func.return %[[IDX]]#0, %[[IDX]]#1, %[[IDX]]#2
func.func @all_axes() -> (index, index, index) {
  %0:3 = shard.process_multi_index on @g : index, index, index
  func.return %0#0, %0#1, %0#2 : index, index, index
}
