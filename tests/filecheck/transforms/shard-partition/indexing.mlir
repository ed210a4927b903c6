// Per-device forms of the ops with indices and regions: a whole slice dim split gets
// its local slice size; an add-scatter over split updates folds its input in on one
// device (the accumulator mask) and leaves a partial sum; a dynamic_update_slice that
// covers no dim whole gathers its operand; a case runs its branches on the blocks.
// The same programs run on 8 devices in tests/test_indexing_partition_numerics.py.
// RUN: xshard-opt %s --split-input-file -p sharding-propagation,shard-partition | filecheck %s

// Embedding lookup on a 2x4 grid: ids split by batch (axis 0), the table's feature dim
// split (axis 1). The feature dim is a slice dim taken whole, so each device gathers its
// feature block for its ids: no collective.
shard.grid @g(shape = 2x4)
func.func @main(%table: tensor<16x8xf32>, %ids: tensor<4x6xi32>) -> tensor<4x6x8xf32> {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %t = shard.shard %table to %cols : tensor<16x8xf32>
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %rows : tensor<4x6xi32>
  %e = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x6xi32>) -> tensor<4x6x8xf32>
  %out = shard.sharding @g split_axes = [[0], [], [1]] : !shard.sharding
  %e1 = shard.shard %e to %out : tensor<4x6x8xf32>
  func.return %e1 : tensor<4x6x8xf32>
}
// CHECK-LABEL: func.func @main(%table: tensor<16x2xf32>, %ids: tensor<2x6xi32>) -> tensor<2x6x2xf32> {
// CHECK-NEXT:  %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<16x2xf32>, tensor<2x6xi32>) -> tensor<2x6x2xf32>
// CHECK-NEXT:  func.return %0 : tensor<2x6x2xf32>

// -----

// Embedding gradient: updates (and their ids) split by token, the dim that enumerates
// indices. With an add combiner that is a sum loop: each device scatters its tokens into
// its copy of the input (the input on one device, zeros on the others) and the result is
// a partial sum, settled by one all_reduce of the 16x8 f32 result where it is wanted whole.
shard.grid @g(shape = 8)
func.func @main(%acc: tensor<16x8xf32>, %ids: tensor<32x1xi32>, %grads: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %tok = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %tok : tensor<32x1xi32>
  %u = shard.shard %grads to %tok : tensor<32x8xf32>
  %r = "stablehlo.scatter"(%acc, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<32x1xi32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %r1 = shard.shard %r to %rep annotate_for_users : tensor<16x8xf32>
  func.return %r1 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @main(%acc: tensor<16x8xf32>, %ids: tensor<4x1xi32>, %grads: tensor<4x8xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT:  %0 = stablehlo.constant dense<[true, false, false, false, false, false, false, false]> : tensor<8xi1>
// CHECK-NEXT:  %1 = shard.all_slice %0 on @g grid_axes = [0] slice_axis = 0 : tensor<8xi1> -> tensor<1xi1>
// CHECK-NEXT:  %2 = stablehlo.reshape %1 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT:  %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<16x8xi1>
// CHECK-NEXT:  %4 = stablehlo.constant dense<0.000000e+00> : tensor<16x8xf32>
// CHECK-NEXT:  %5 = stablehlo.select %3, %acc, %4 : tensor<16x8xi1>, tensor<16x8xf32>
// CHECK-NEXT:  %6 = "stablehlo.scatter"(%5, %ids, %grads) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
// CHECK-NEXT:  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:    %s = stablehlo.add %x, %y : tensor<f32>
// CHECK-NEXT:    stablehlo.return %s : tensor<f32>
// CHECK-NEXT:  }) : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %7 = shard.all_reduce %6 on @g grid_axes = [0] : tensor<16x8xf32> -> tensor<16x8xf32>
// CHECK-NEXT:  func.return %7 : tensor<16x8xf32>

// -----

// dynamic_slice of rows [i, i+2) of every column, then an update of a 2x8 window at
// (j, k): the column dim is taken whole by the slice and split over axis 1, no
// collective; the update covers no dim whole, so its operand is gathered (the fallback).
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8x16xf32>, %i: tensor<i32>, %u: tensor<2x8xf32>, %j: tensor<i32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x1 = shard.shard %x to %cols : tensor<8x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.dynamic_slice %x1, %i, %c0, sizes = [2, 16] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
  %s1 = shard.shard %s to %cols : tensor<2x16xf32>
  %d = stablehlo.dynamic_update_slice %x1, %u, %j, %i : (tensor<8x16xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  func.return %s1, %d : tensor<2x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @main(%x: tensor<8x4xf32>, %i: tensor<i32>, %u: tensor<2x8xf32>, %j: tensor<i32>) -> (tensor<2x4xf32>, tensor<8x16xf32>) {
// CHECK-NEXT:  %0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %1 = stablehlo.dynamic_slice %x, %i, %0, sizes = [2, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %2 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
// CHECK-NEXT:  %3 = stablehlo.dynamic_update_slice %2, %u, %j, %i : (tensor<8x16xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
// CHECK-NEXT:  func.return %1, %3 : tensor<2x4xf32>, tensor<8x16xf32>

// -----

// lax.cond as JAX lowers it: the branches read %x1 (a split annotation) and %y (an
// argument that arrives split) from above. The case result is annotated split as they
// are: the branches are partitioned in place and run on the blocks, with no collective;
// the index is a whole value.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<16x4xf32>, %y: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<16x4xf32>
  %y1 = shard.shard %y to %rows : tensor<16x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x1 init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x4xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.compare GT, %s, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %i = stablehlo.convert %p : (tensor<i1>) -> tensor<i32>
  %r = "stablehlo.case"(%i) ({
    %e = stablehlo.exponential %x1 : tensor<16x4xf32>
    stablehlo.return %e : tensor<16x4xf32>
  }, {
    %m = stablehlo.multiply %x1, %y : tensor<16x4xf32>
    stablehlo.return %m : tensor<16x4xf32>
  }) : (tensor<i32>) -> tensor<16x4xf32>
  %r1 = shard.shard %r to %rows : tensor<16x4xf32>
  func.return %r1 : tensor<16x4xf32>
}
// CHECK-LABEL: func.func @main(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:  %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:  %1 = stablehlo.reduce(%x init: %0) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %2 = shard.all_reduce %1 on @g grid_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK-NEXT:  %3 = stablehlo.compare GT, %2, %0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:  %i = stablehlo.convert %3 : (tensor<i1>) -> tensor<i32>
// CHECK-NEXT:  %4 = "stablehlo.case"(%i) ({
// CHECK-NEXT:    %5 = stablehlo.exponential %x : tensor<2x4xf32>
// CHECK-NEXT:    stablehlo.return %5 : tensor<2x4xf32>
// CHECK-NEXT:  }, {
// CHECK-NEXT:    %6 = stablehlo.multiply %x, %y : tensor<2x4xf32>
// CHECK-NEXT:    stablehlo.return %6 : tensor<2x4xf32>
// CHECK-NEXT:  }) : (tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:  func.return %4 : tensor<2x4xf32>
