// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One verifier rule per chunk; the messages are mlir-opt 22.1.8's, except for the
// checks xshard adds (split axes in grid bounds, axes in tensor rank, dynamic slots
// matched by values), which mlir-opt lacks.

shard.grid @grid0(shape = [])
// CHECK: 'shard.grid' op rank of grid is expected to be a positive integer

// -----

"shard.grid"() <{shape = array<i64: 2, -5>, sym_name = "grid0"}> : () -> ()
// CHECK: 'shard.grid' op dimension size of a grid is expected to be non-negative or dynamic

// -----

shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[0], [0]] : !shard.sharding
// CHECK: grid axis duplicated

// -----

shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[0, 0]] : !shard.sharding
// CHECK: grid axis duplicated

// -----

shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[-1]] : !shard.sharding
// CHECK: grid axis is expected to be non-negative

// -----

%s = shard.sharding @grid0 split_axes = [[0], [1]] halo_sizes = [1, 2] : !shard.sharding
// CHECK: halo sizes must be specified for all split axes.

// -----

%s = shard.sharding @grid0 split_axes = [[0]] halo_sizes = [1, 2] sharded_dims_offsets = [0, 2, 2] : !shard.sharding
// CHECK: 'shard.sharding' op halo sizes and shard offsets are mutually exclusive

// -----

%s = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
// CHECK: Undefined required grid symbol "grid0".

// -----

shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[0], [2]] : !shard.sharding
// CHECK: 0-based grid axis index 2 is out of bounds. The referenced grid "grid0" is of rank 2.

// -----

shard.grid @grid_dyn(shape = ?x?)
%s = shard.sharding @grid_dyn split_axes = [[0]] sharded_dims_offsets = [0, 2, 2] : !shard.sharding
// CHECK: sharded dims offsets are not allowed for device grids with dynamic shape.

// -----

shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[0], [1]] sharded_dims_offsets = [0, 2, 4, 0, 2, 4, 6] : !shard.sharding
// CHECK: sharded dims offsets has wrong size.

// -----

shard.grid @grid0(shape = 4)
%s = shard.sharding @grid0 split_axes = [[0]] sharded_dims_offsets = [0, 2, 3, 2, 4] : !shard.sharding
// CHECK: sharded dims offsets must be non-decreasing.

// -----

shard.grid @grid0(shape = 2x4)
%s = "shard.sharding"() <{grid = @grid0, operandSegmentSizes = array<i32: 0, 0>, split_axes = #shard<axisarray[[0]]>, static_halo_sizes = array<i64: 1, -9223372036854775808>, static_sharded_dims_offsets = array<i64>}> : () -> !shard.sharding
// CHECK: halo_sizes has 1 dynamic positions but 0 dynamic values

// -----

shard.grid @grid0(shape = 2x4)
%0:2 = shard.grid_shape @grid0 axes = [0, 2] : index, index
// CHECK: 0-based grid axis index 2 is out of bounds. The referenced grid "grid0" is of rank 2.

// -----

shard.grid @grid0(shape = 1x2x3)
%0:3 = shard.grid_shape @grid0 axes = [0, 2, 0] : index, index, index
// CHECK: Grid axes contains duplicate elements.

// -----

shard.grid @grid0(shape = 2x4)
%0:2 = shard.grid_shape @grid0 axes = [0] : index, index
// CHECK: Unexpected number of results 2. Expected 1.

// -----

shard.grid @grid0(shape = 1x2x3)
%0:2 = shard.grid_shape @grid0 : index, index
// CHECK: Unexpected number of results 2. Expected 3.

// -----

%0 = shard.grid_shape @this_grid_symbol_does_not_exist : index
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

shard.grid @grid0(shape = 2x4)
%0:2 = shard.process_multi_index on @grid0 axes = [0, 2] : index, index
// CHECK: 0-based grid axis index 2 is out of bounds. The referenced grid "grid0" is of rank 2.

// -----

shard.grid @grid0(shape = 1x2x3)
%0:3 = shard.process_multi_index on @grid0 axes = [0, 2, 0] : index, index, index
// CHECK: Grid axes contains duplicate elements.

// -----

shard.grid @grid0(shape = 1x2x3)
%0:2 = shard.process_multi_index on @grid0 : index, index
// CHECK: Unexpected number of results 2. Expected 3.

// -----

%0 = shard.process_multi_index on @this_grid_symbol_does_not_exist : index
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

%0 = shard.process_linear_index on @this_grid_symbol_does_not_exist : index
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

%i = "test.op"() : () -> index
%d, %u = shard.neighbors_linear_indices on @this_grid_symbol_does_not_exist[%i] split_axes = [0] : index, index
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

%m = "test.op"() : () -> memref<4xi8>
%0 = shard.update_halo %m on @this_grid_symbol_does_not_exist split_axes = [[0]] : memref<4xi8>
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

shard.grid @grid0(shape = 2x4)
%m = "test.op"() : () -> tensor<i8>
%0 = shard.update_halo %m on @grid0 split_axes = [[0]] : tensor<i8>
// CHECK: 'shard.update_halo' op operand #0 must be non-0-ranked.memref of any type values or non-0-ranked.tensor of any type values, but got 'tensor<i8>'

// -----

shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
%0 = "shard.shard_shape"(%s) <{device = array<i64: -9223372036854775808>, dims = array<i64: 8>, operandSegmentSizes = array<i32: 0, 1, 0>}> : (!shard.sharding) -> index
// CHECK: device has 1 dynamic positions but 0 dynamic values

// -----

%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.all_reduce %x on @this_grid_symbol_does_not_exist reduction = sum : tensor<4xf32> -> tensor<4xf64>
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.all_reduce %x on @grid0 grid_axes = [2] : tensor<4xf32> -> tensor<4xf64>
// CHECK: 0-based grid axis index 2 is out of bounds. The referenced grid "grid0" is of rank 2.

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.all_reduce %x on @grid0 grid_axes = [0, 1, 0] : tensor<4xf32> -> tensor<4xf64>
// CHECK: Grid axes contains duplicate elements.

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.all_reduce %x on @grid0 : tensor<4xf32> -> tensor<5xf64>
// CHECK: 'shard.all_reduce' op requires the same shape for all operands and results

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<f32>
%0 = shard.all_gather %x on @grid0 grid_axes = [1] gather_axis = 0 : tensor<f32> -> tensor<f32>
// CHECK: 'shard.all_gather' op operand #0 must be non-0-ranked.tensor of any type values, but got 'tensor<f32>'

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<2xf32>
%0 = shard.all_gather %x on @grid0 grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<2x4xf32>
// CHECK: 'shard.all_gather' op result type has different rank than operands

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<2xf32>
%0 = shard.all_gather %x on @grid0 grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf64>
// CHECK: 'shard.all_gather' op requires the same element type for all operands and results

// -----

shard.grid @grid0(shape = 1)
%x = "test.op"() : () -> tensor<3x4xf32>
%0 = shard.all_gather %x on @grid0 grid_axes = [0] gather_axis = 0 : tensor<3x4xf32> -> tensor<3x5xf32>
// CHECK: Dimension size mismatch for result axis 1. Expected 4, but got 5.

// -----

shard.grid @grid0(shape = 1x2)
%x = "test.op"() : () -> tensor<3x4xf32>
%0 = shard.all_gather %x on @grid0 grid_axes = [1] gather_axis = 1 : tensor<3x4xf32> -> tensor<3x5xf32>
// CHECK: Dimension size mismatch for result axis 1. Expected 8, but got 5.

// -----

shard.grid @grid0(shape = 1)
%x = "test.op"() : () -> tensor<?xf32>
%0 = shard.all_gather %x on @grid0 gather_axis = 0 : tensor<?xf32> -> tensor<3xf32>
// CHECK: Dimension size mismatch for result axis 0. Expected dynamic, but got 3.

// -----

shard.grid @grid0(shape = 1)
%x = "test.op"() : () -> tensor<3xf32>
%0 = shard.all_gather %x on @grid0 grid_axes = [0] gather_axis = 1 : tensor<3xf32> -> tensor<3xf32>
// CHECK: Gather axis 1 is out of bounds [0, 1).

// -----

shard.grid @grid0(shape = 1)
%x = "test.op"() : () -> tensor<3xf32>
%0 = shard.all_gather %x on @grid0 grid_axes = [0] gather_axis = -1 : tensor<3xf32> -> tensor<3xf32>
// CHECK: Gather axis -1 is out of bounds [0, 1).

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<?xf32>
%0 = shard.all_slice %x on @grid0 grid_axes = [0, 0] slice_axis = 0 : tensor<?xf32> -> tensor<?xf32>
// CHECK: Grid axes contains duplicate elements.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<?xf32>
%0 = shard.all_slice %x on @grid0 slice_axis = 0 : tensor<?xf32> -> tensor<2xf32>
// CHECK: Dimension size mismatch for result axis 0. Expected dynamic, but got 2.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3xf32>
%0 = shard.all_slice %x on @grid0 grid_axes = [0] slice_axis = 0 : tensor<3xf32> -> tensor<2xf32>
// CHECK: Dimension size mismatch for result axis 0. Expected 1, but got 2.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.all_slice %x on @grid0 grid_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<?xf32>
// CHECK: Operand dimension size 4 is not divisible by collective device group size 3 for tensor axis 0.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3xf32>
%0 = shard.all_slice %x on @grid0 grid_axes = [0] slice_axis = 1 : tensor<3xf32> -> tensor<3xf32>
// CHECK: Slice axis 1 is out of bounds [0, 1).

// -----

%x = "test.op"() : () -> tensor<3x6xi8>
%0 = shard.all_to_all %x on @this_grid_symbol_does_not_exist split_axis = 1 concat_axis = 0 : tensor<3x6xi8> -> tensor<3x6xi8>
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

shard.grid @grid0(shape = ?x1)
%x = "test.op"() : () -> tensor<3x6xi8>
%0 = shard.all_to_all %x on @grid0 grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<3x6xi8> -> tensor<3x6xi8>
// CHECK: Dimension size mismatch for result axis 1. Expected dynamic, but got 6.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3x2xi8>
%0 = shard.all_to_all %x on @grid0 grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<3x2xi8> -> tensor<1x7xi8>
// CHECK: Dimension size mismatch for result axis 1. Expected 6, but got 7.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3x2xi8>
%0 = shard.all_to_all %x on @grid0 grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<3x2xi8> -> tensor<2x6xi8>
// CHECK: Dimension size mismatch for result axis 0. Expected 1, but got 2.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3x2xi8>
%0 = shard.all_to_all %x on @grid0 grid_axes = [0] split_axis = 0 concat_axis = 0 : tensor<3x2xi8> -> tensor<3x3xi8>
// CHECK: Dimension size mismatch for result axis 1. Expected 2, but got 3.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3x2xi8>
%0 = shard.all_to_all %x on @grid0 grid_axes = [0] split_axis = 3 concat_axis = 0 : tensor<3x2xi8> -> tensor<3x2xi8>
// CHECK: Split axis 3 is out of bounds [0, 2).

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3x2xi8>
%0 = shard.all_to_all %x on @grid0 grid_axes = [0] split_axis = 0 concat_axis = 2 : tensor<3x2xi8> -> tensor<3x2xi8>
// CHECK: Concat axis 2 is out of bounds [0, 2).

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.broadcast %x on @grid0 grid_axes = [0] root = [3] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: Out of bounds coordinate 0 for in-group device "root". Got 3, but expected value in the range [0, 2].

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.broadcast %x on @grid0 grid_axes = [0] root = [2, 2] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: In-group device "root" has unexpected multi-index size 2. Expected 1.

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.broadcast %x on @grid0 grid_axes = [0] root = [2] : (tensor<2xi8>) -> tensor<2xi16>
// CHECK: 'shard.broadcast' op failed to verify that all of {{[{]}}input, result} have same element type

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.broadcast %x on @grid0 grid_axes = [0] root = [2] : (tensor<2xi8>) -> tensor<3xi8>
// CHECK: 'shard.broadcast' op failed to verify that all of {{[{]}}input, result} have same shape

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = "shard.broadcast"(%x) <{grid = @grid0, grid_axes = array<i16: 0>, root = array<i64: -9223372036854775808>}> : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: root has 1 dynamic positions but 0 dynamic values

// -----

shard.grid @grid0(shape = 1)
%x = "test.op"() : () -> tensor<1xf32>
%0 = shard.gather %x on @grid0 grid_axes = [0] gather_axis = 0 root = [0] : (tensor<1xf32>) -> tensor<1xi8>
// CHECK: 'shard.gather' op failed to verify that all of {{[{]}}input, result} have same element type

// -----

shard.grid @grid0(shape = 1)
%x = "test.op"() : () -> tensor<2xf32>
%0 = shard.gather %x on @grid0 grid_axes = [0] gather_axis = 0 root = [0] : (tensor<2xf32>) -> tensor<2x2xf32>
// CHECK: 'shard.gather' op failed to verify that all of {{[{]}}input, result} have same rank

// -----

shard.grid @grid0(shape = 1x2)
%x = "test.op"() : () -> tensor<3x4xf32>
%0 = shard.gather %x on @grid0 grid_axes = [1] gather_axis = 1 root = [0] : (tensor<3x4xf32>) -> tensor<3x5xf32>
// CHECK: Dimension size mismatch for result axis 1. Expected 8, but got 5.

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.gather %x on @grid0 grid_axes = [0] gather_axis = 0 root = [3] : (tensor<2xi8>) -> tensor<6xi8>
// CHECK: Out of bounds coordinate 0 for in-group device "root". Got 3, but expected value in the range [0, 2].

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.recv %x on @grid0 grid_axes = [0] source = [3] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: Out of bounds coordinate 0 for in-group device "source". Got 3, but expected value in the range [0, 2].

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.recv %x on @grid0 grid_axes = [0] source = [2, 2] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: In-group device "source" has unexpected multi-index size 2. Expected 1.

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.recv %x on @grid0 grid_axes = [0] source = [2] : (tensor<2xi8>) -> tensor<2xi16>
// CHECK: 'shard.recv' op failed to verify that all of {{[{]}}input, result} have same element type

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.reduce %x on @grid0 grid_axes = [0] root = [3] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: Out of bounds coordinate 0 for in-group device "root". Got 3, but expected value in the range [0, 2].

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.reduce %x on @grid0 grid_axes = [0] root = [2] : (tensor<2xi8>) -> tensor<3xi16>
// CHECK: 'shard.reduce' op failed to verify that all of {{[{]}}input, result} have same shape

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<?xf32>
%0 = shard.reduce_scatter %x on @grid0 grid_axes = [0, 0] scatter_axis = 0 : tensor<?xf32> -> tensor<?xf64>
// CHECK: Grid axes contains duplicate elements.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3xf32>
%0 = shard.reduce_scatter %x on @grid0 grid_axes = [0] scatter_axis = 0 : tensor<3xf32> -> tensor<2xf64>
// CHECK: Dimension size mismatch for result axis 0. Expected 1, but got 2.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.reduce_scatter %x on @grid0 grid_axes = [0] scatter_axis = 0 : tensor<4xf32> -> tensor<?xf64>
// CHECK: Operand dimension size 4 is not divisible by collective device group size 3 for tensor axis 0.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3xf32>
%0 = shard.reduce_scatter %x on @grid0 grid_axes = [0] scatter_axis = 0 : tensor<3xf32> -> tensor<1x1xf32>
// CHECK: 'shard.reduce_scatter' op result type has different rank than operands

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<?xf32>
%0 = shard.scatter %x on @grid0 scatter_axis = 0 root = [] : (tensor<?xf32>) -> tensor<2xf32>
// CHECK: Dimension size mismatch for result axis 0. Expected dynamic, but got 2.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<4xf32>
%0 = shard.scatter %x on @grid0 grid_axes = [0] scatter_axis = 0 root = [1] : (tensor<4xf32>) -> tensor<?xf32>
// CHECK: Operand dimension size 4 is not divisible by collective device group size 3 for tensor axis 0.

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<3xi8>
%0 = shard.scatter %x on @grid0 grid_axes = [0] scatter_axis = 0 root = [2, 2] : (tensor<3xi8>) -> tensor<1xi8>
// CHECK: In-group device "root" has unexpected multi-index size 2. Expected 1.

// -----

shard.grid @grid0(shape = 3)
%x = "test.op"() : () -> tensor<3xi8>
%0 = shard.scatter %x on @grid0 grid_axes = [0] scatter_axis = 1 root = [0] : (tensor<3xi8>) -> tensor<3xi8>
// CHECK: Scatter axis 1 is out of bounds [0, 1).

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.send %x on @grid0 grid_axes = [0] destination = [3] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: Out of bounds coordinate 0 for in-group device "destination". Got 3, but expected value in the range [0, 2].

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.send %x on @grid0 grid_axes = [0] destination = [2, 2] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: In-group device "destination" has unexpected multi-index size 2. Expected 1.

// -----

shard.grid @grid0(shape = 3x?)
%x = "test.op"() : () -> tensor<2xi8>
%0 = shard.send %x on @grid0 grid_axes = [0] destination = [2] : (tensor<2xi8>) -> tensor<2xi16>
// CHECK: 'shard.send' op failed to verify that all of {{[{]}}input, result} have same element type

// -----

%x = "test.op"() : () -> tensor<4xi8>
%0 = shard.shift %x on @this_grid_symbol_does_not_exist shift_axis = 0 offset = -2 : tensor<4xi8> -> tensor<4xi8>
// CHECK: Undefined required grid symbol "this_grid_symbol_does_not_exist".

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<4xi8>
%0 = shard.shift %x on @grid0 grid_axes = [2] shift_axis = 2 offset = -2 : tensor<4xi8> -> tensor<4xi8>
// CHECK: 0-based grid axis index 2 is out of bounds. The referenced grid "grid0" is of rank 2.

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<4xi8>
%0 = shard.shift %x on @grid0 grid_axes = [0] shift_axis = 0 offset = 2 : tensor<4xi8> -> tensor<5xi8>
// CHECK: 'shard.shift' op requires the same shape for all operands and results

// -----

shard.grid @grid0(shape = 2x4)
%x = "test.op"() : () -> tensor<4xi8>
%0 = shard.shift %x on @grid0 grid_axes = [0] shift_axis = 1 offset = 2 : tensor<4xi8> -> tensor<4xi8>
// CHECK: Invalid shift axis 1. It must be one of the grouping grid axes.

// -----

func.func @nested() {
  %0 = shard.process_linear_index on @grid0 : index
  return
}
builtin.module {
  shard.grid @grid0(shape = 2)
}
// CHECK: Undefined required grid symbol "grid0".

// -----

// Partial axes (xshard's extension).
shard.grid @grid(shape = 2x4)
%s = shard.sharding @grid split_axes = [[0]] partial = sum [2] : !shard.sharding
// CHECK: 0-based grid axis index 2 is out of bounds. The referenced grid "grid" is of rank 2.

// -----

// Partial axes (xshard's extension).
shard.grid @grid(shape = 2x4)
%s = shard.sharding @grid split_axes = [[0]] partial = sum [1, 1] : !shard.sharding
// CHECK: grid axis duplicated

// -----

// Partial axes (xshard's extension).
shard.grid @grid(shape = 2x4)
%s = shard.sharding @grid split_axes = [[0], [1]] partial = max [1] : !shard.sharding
// CHECK: grid axis duplicated

// -----

// Partial axes (xshard's extension).
shard.grid @grid(shape = 2x4)
%s = shard.sharding @grid split_axes = [[0]] partial = sum [-1] : !shard.sharding
// CHECK: grid axis is expected to be non-negative

// -----

// Partial axes (xshard's extension).
shard.grid @grid(shape = 2x4)
%s = "shard.sharding"() <{grid = @grid, operandSegmentSizes = array<i32: 0, 0>, partial_axes = array<i16: 1>, split_axes = #shard<axisarray[[0]]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>}> : () -> !shard.sharding
// CHECK: 'shard.sharding' op partial_axes and partial_type must be given together

// -----

// xshard's rule (mlir-opt 22 accepts it, then divides by it): a grid axis holds devices.
shard.grid @grid0(shape = 2x0)
// CHECK: 'shard.grid' op dimension size of a grid is expected to be non-zero: a grid axis of size 0 holds no devices

// -----

// The grid is verified before the ops that read it, wherever it is defined.
func.func @before_grid(%x : tensor<4xf32>) -> tensor<4xf32> {
  %0 = shard.all_slice %x on @grid0 grid_axes = [1] slice_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
shard.grid @grid0(shape = 2x0)
// CHECK: 'shard.grid' op dimension size of a grid is expected to be non-zero

// -----

// xshard's rule (mlir-opt 22 accepts it): halos are sizes.
shard.grid @grid0(shape = 2x4)
%s = shard.sharding @grid0 split_axes = [[0]] halo_sizes = [-1, 2] : !shard.sharding
// CHECK: halo sizes must be non-negative.

// -----

shard.grid @grid0(shape = 2x4)
func.func @update_halo_negative(%x : tensor<6xf32>) -> tensor<6xf32> {
  %0 = shard.update_halo %x on @grid0 split_axes = [[0]] halo_sizes = [1, -2] : tensor<6xf32>
  return %0 : tensor<6xf32>
}
// CHECK: halo sizes must be non-negative.

// -----

shard.grid @grid0(shape = 2x4)
func.func @update_halo_count(%x : tensor<6xf32>) -> tensor<6xf32> {
  %0 = shard.update_halo %x on @grid0 split_axes = [[0]] halo_sizes = [1, 2, 3] : tensor<6xf32>
  return %0 : tensor<6xf32>
}
// CHECK: halo sizes must be specified for all split axes.

// -----

// A duplicate symbol is reported at its second definition.
shard.grid @grid0(shape = 2x4)
shard.grid @grid0(shape = 8)
// CHECK: invalid.mlir:620:1: error: redefinition of symbol named 'grid0'

// -----

// The first error of each function is reported.
shard.grid @grid0(shape = 2x4)
func.func @first(%x : tensor<4xf32>) -> tensor<4xf32> {
  %0 = shard.all_reduce %x on @nowhere : tensor<4xf32> -> tensor<4xf32>
  %1 = shard.all_reduce %0 on @elsewhere : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @second(%x : tensor<4xf32>) -> tensor<4xf32> {
  %0 = shard.all_reduce %x on @grid0 grid_axes = [2] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:628:3: error: Undefined required grid symbol "nowhere".
// CHECK-NEXT: invalid.mlir:633:3: error: 0-based grid axis index 2 is out of bounds. The referenced grid "grid0" is of rank 2.
