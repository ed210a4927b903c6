// arguments=global (the RFC's second mode): arguments keep their global types and each
// device cuts its block with all_slice (or makes its operand of a partial layout);
// results are local as in the default mode.
// RUN: xshard-opt %s -p 'shard-partition{arguments=global}' | filecheck %s
// RUN: xshard-opt %s -p shard-partition | filecheck %s --check-prefix=LOCAL

shard.grid @g(shape = 2x2)
func.func @f(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %sw = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %so = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x6xf32>
  %1 = shard.shard %w to %sw : tensor<6x4xf32>
  %2 = shard.shard %0 to %s annotate_for_users : tensor<8x6xf32>
  %3 = shard.shard %1 to %sw annotate_for_users : tensor<6x4xf32>
  %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %5 = shard.shard %4 to %so : tensor<8x4xf32>
  func.return %5 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @f(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:    %0 = shard.all_slice %x on @g grid_axes = [0] slice_axis = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %1 = shard.all_slice %w on @g grid_axes = [1] slice_axis = 1 : tensor<6x4xf32> -> tensor<6x2xf32>
// CHECK-NEXT:    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %2 : tensor<4x2xf32>

// LOCAL-LABEL: func.func @f(%x: tensor<4x6xf32>, %w: tensor<6x2xf32>) -> tensor<4x2xf32> {
// LOCAL-NEXT:    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
// LOCAL-NEXT:    func.return %0 : tensor<4x2xf32>

// A whole argument annotated partial is made partial where it arrives: the first
// device of the group keeps it, the other holds 0, so the sum is the value again.
func.func @partial_argument(%x: tensor<8xf32>) -> tensor<8xf32> {
  %p = shard.sharding @g split_axes = [[]] partial = sum [1] : !shard.sharding
  %0 = shard.shard %x to %p : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @partial_argument(%x: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 0 : tensor<2xi1> -> tensor<1xi1>
// CHECK-NEXT:    %2 = stablehlo.reshape %1 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT:    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<8xi1>
// CHECK-NEXT:    %4 = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    %5 = stablehlo.select %3, %x, %4 : tensor<8xi1>, tensor<8xf32>
// CHECK-NEXT:    func.return %5 : tensor<8xf32>

// LOCAL-LABEL: func.func @partial_argument(%x: tensor<8xf32>) -> tensor<8xf32> {
// LOCAL-NEXT:    func.return %x : tensor<8xf32>
