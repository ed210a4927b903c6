// Propagation through the ops with indices and regions: a gather's ids split by batch
// split its result by rows (the table is read whole); an add-scatter's updates split by
// token leave its result a partial sum; a sort keeps rows split, but not its sorted dim;
// a dynamic_slice keeps the dim it takes whole split; a while takes no split.
// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

shard.grid @g(shape = 8)
func.func @gather_batch(%table: tensor<16x8xf32>, %ids: tensor<32xi32>) -> tensor<32x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %s : tensor<32xi32>
  %e = "stablehlo.gather"(%table, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<32xi32>) -> tensor<32x8xf32>
  func.return %e : tensor<32x8xf32>
}
// CHECK-LABEL: func.func @gather_batch
// CHECK-NEXT:  %0 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %table_1 = shard.shard %table to %0 : tensor<16x8xf32>
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %i = shard.shard %ids to %s : tensor<32xi32>
// CHECK-NEXT:  %1 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %2 = shard.shard %table_1 to %1 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT:  %3 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %4 = shard.shard %i to %3 annotate_for_users : tensor<32xi32>
// CHECK-NEXT:  %e = "stablehlo.gather"(%2, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<32xi32>) -> tensor<32x8xf32>
// CHECK-NEXT:  %5 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %6 = shard.shard %e to %5 : tensor<32x8xf32>
// CHECK-NEXT:  func.return %6 : tensor<32x8xf32>

// -----

shard.grid @g(shape = 8)
func.func @scatter_add(%acc: tensor<16x8xf32>, %ids: tensor<32x1xi32>, %u: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %s : tensor<32x1xi32>
  %v = shard.shard %u to %s : tensor<32x8xf32>
  %r = "stablehlo.scatter"(%acc, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<32x1xi32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %neg = stablehlo.negate %r : tensor<16x8xf32>
  func.return %neg : tensor<16x8xf32>
}
// The input is an accumulator: asked partial (it enters on one device only).
// CHECK-LABEL: func.func @scatter_add
// CHECK-NEXT:  %0 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %acc_1 = shard.shard %acc to %0 : tensor<16x8xf32>
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %i = shard.shard %ids to %s : tensor<32x1xi32>
// CHECK-NEXT:  %v = shard.shard %u to %s : tensor<32x8xf32>
// CHECK-NEXT:  %1 = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %2 = shard.shard %acc_1 to %1 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT:  %3 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %4 = shard.shard %i to %3 annotate_for_users : tensor<32x1xi32>
// CHECK-NEXT:  %5 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %6 = shard.shard %v to %5 annotate_for_users : tensor<32x8xf32>
// CHECK-NEXT:  %r = "stablehlo.scatter"(%2, %4, %6) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK:       %7 = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %8 = shard.shard %r to %7 : tensor<16x8xf32>
// CHECK-NEXT:  %9 = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %10 = shard.shard %8 to %9 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT:  %neg = stablehlo.negate %10 : tensor<16x8xf32>
// CHECK-NEXT:  %11 = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %12 = shard.shard %neg to %11 : tensor<16x8xf32>
// CHECK-NEXT:  %13 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %14 = shard.shard %12 to %13 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT:  func.return %14 : tensor<16x8xf32>

// -----

shard.grid @g(shape = 8)
func.func @sort_rows(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<16x8xf32>
  %r = "stablehlo.sort"(%x1) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  func.return %r : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @sort_rows
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %x1 = shard.shard %x to %s : tensor<16x8xf32>
// CHECK-NEXT:  %0 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %1 = shard.shard %x1 to %0 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT:  %r = "stablehlo.sort"(%1) <{dimension = 1 : i64}> ({
// CHECK:       %2 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %3 = shard.shard %r to %2 : tensor<16x8xf32>
// CHECK-NEXT:  func.return %3 : tensor<16x8xf32>

// -----

shard.grid @g(shape = 8)
func.func @sort_cols(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<16x8xf32>
  %r = "stablehlo.sort"(%x1) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  func.return %r : tensor<16x8xf32>
}
// The sorted dim cannot be split: no option keeps the annotation, none is written (as
// upstream); shard-partition gathers the operand.
// CHECK-LABEL: func.func @sort_cols
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:  %x1 = shard.shard %x to %s : tensor<16x8xf32>
// CHECK-NEXT:  %r = "stablehlo.sort"(%x1) <{dimension = 1 : i64}> ({
// CHECK:       func.return %r : tensor<16x8xf32>

// -----

shard.grid @g(shape = 8)
func.func @dynamic_slice(%x: tensor<16x8xf32>, %k: tensor<i32>) -> tensor<16x2xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<16x8xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.dynamic_slice %x1, %c, %k, sizes = [16, 2] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x2xf32>
  func.return %r : tensor<16x2xf32>
}
// CHECK-LABEL: func.func @dynamic_slice
// CHECK-NEXT:  %0 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %k_1 = shard.shard %k to %0 : tensor<i32>
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %x1 = shard.shard %x to %s : tensor<16x8xf32>
// CHECK-NEXT:  %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %1 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %2 = shard.shard %c to %1 : tensor<i32>
// CHECK-NEXT:  %3 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %4 = shard.shard %x1 to %3 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT:  %5 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %6 = shard.shard %2 to %5 annotate_for_users : tensor<i32>
// CHECK-NEXT:  %7 = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %8 = shard.shard %k_1 to %7 annotate_for_users : tensor<i32>
// CHECK-NEXT:  %r = stablehlo.dynamic_slice %4, %6, %8, sizes = [16, 2] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x2xf32>
// CHECK-NEXT:  %9 = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %10 = shard.shard %r to %9 : tensor<16x2xf32>
// CHECK-NEXT:  func.return %10 : tensor<16x2xf32>

// -----

shard.grid @g(shape = 8)
func.func @loop(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<16x8xf32>
  %r = stablehlo.while(%v = %x1) : tensor<16x8xf32>
  cond {
    %t = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return %v : tensor<16x8xf32>
  }
  func.return %r : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @loop
// CHECK-NEXT:  %s = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %x1 = shard.shard %x to %s : tensor<16x8xf32>
// CHECK-NEXT:  %r = stablehlo.while(%v = %x1) : tensor<16x8xf32>
// CHECK:       func.return %r : tensor<16x8xf32>
