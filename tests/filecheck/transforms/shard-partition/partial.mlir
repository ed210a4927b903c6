// A partial value stays partial while its users accept it: no collective between
// annotations that are both partial, and the one all_reduce comes where a user wants
// the whole value.
// RUN: xshard-opt %s -p shard-partition | filecheck %s

// Two partial products, added and negated while partial (annotated by hand, as
// propagation would): one all_reduce, where the user asks for the whole value.
shard.grid @g(shape = 2)
func.func @stays_partial(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>, %c: tensor<8x6xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %sb = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %p = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %b0 = shard.shard %b to %sb : tensor<6x4xf32>
  %c0 = shard.shard %c to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %s annotate_for_users : tensor<8x6xf32>
  %b1 = shard.shard %b0 to %sb annotate_for_users : tensor<6x4xf32>
  %c1 = shard.shard %c0 to %s annotate_for_users : tensor<8x6xf32>
  %0 = stablehlo.dot_general %a1, %b1, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = shard.shard %0 to %p : tensor<8x4xf32>
  %2 = stablehlo.dot_general %c1, %b1, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %3 = shard.shard %2 to %p : tensor<8x4xf32>
  %4 = shard.shard %1 to %p annotate_for_users : tensor<8x4xf32>
  %5 = shard.shard %3 to %p annotate_for_users : tensor<8x4xf32>
  %6 = stablehlo.add %4, %5 : tensor<8x4xf32>
  %7 = shard.shard %6 to %p : tensor<8x4xf32>
  %8 = shard.shard %7 to %p annotate_for_users : tensor<8x4xf32>
  %9 = stablehlo.negate %8 : tensor<8x4xf32>
  %10 = shard.shard %9 to %p : tensor<8x4xf32>
  %11 = shard.shard %10 to %r annotate_for_users : tensor<8x4xf32>
  func.return %11 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @stays_partial(%a: tensor<8x3xf32>, %b: tensor<3x4xf32>, %c: tensor<8x3xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    %0 = stablehlo.dot_general %a, %b
// CHECK-NEXT:    %1 = stablehlo.dot_general %c, %b
// CHECK-NEXT:    %2 = stablehlo.add %0, %1 : tensor<8x4xf32>
// CHECK-NEXT:    %3 = stablehlo.negate %2 : tensor<8x4xf32>
// CHECK-NEXT:    %4 = shard.all_reduce %3 on @g grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %4 : tensor<8x4xf32>
