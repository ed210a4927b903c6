// shard-partition needs no propagation first: a value nobody annotated keeps the
// layout its producer gives it, each op runs under the layouts of the operands it has
// and the results it is asked for, and every reshard in between is planned. An
// argument without annotation arrives whole and a result without one leaves whole.
// (tests/test_partition_semantics.py runs each of these on 4 devices.)
// RUN: xshard-opt %s --split-input-file -p shard-partition | filecheck %s

// The negate's operand has no annotation of its own: it runs on the block it is given.
shard.grid @g(shape = 2x2)
func.func @operand_unannotated(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = shard.shard %1 to %s : tensor<8x8xf32>
  func.return %2 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @operand_unannotated(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    %0 = stablehlo.negate %x : tensor<4x8xf32>
// CHECK-NEXT:    func.return %0 : tensor<4x8xf32>

// -----

// The negate's result has none: it stays split, and leaves the function whole.
shard.grid @g(shape = 2x2)
func.func @result_unannotated(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  func.return %2 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @result_unannotated(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %0 = stablehlo.negate %x : tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %1 : tensor<8x8xf32>

// -----

// An argument read both through its annotation and directly: one block, two uses.
shard.grid @g(shape = 2x2)
func.func @argument_used_twice(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %1 = stablehlo.negate %x : tensor<8x8xf32>
  func.return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
// CHECK-LABEL: func.func @argument_used_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT:    %0 = stablehlo.negate %x : tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %x, %1 : tensor<4x8xf32>, tensor<8x8xf32>

// -----

// Nothing annotated between the arguments and the result: the contraction leaves a
// partial sum, and multiply(Σ, Σ) settles it once for both of its reads.
shard.grid @g(shape = 4)
func.func @chain(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %w1 = shard.shard %w to %t : tensor<16x8xf32>
  %0 = stablehlo.tanh %x1 : tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %1 : tensor<8x8xf32>
  func.return %2 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @chain(%x: tensor<8x4xf32>, %w: tensor<4x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %0 = stablehlo.tanh %x : tensor<8x4xf32>
// CHECK-NEXT:    %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %2 = shard.all_reduce %1 on @g grid_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    %3 = stablehlo.multiply %2, %2 : tensor<8x8xf32>
// CHECK-NEXT:    func.return %3 : tensor<8x8xf32>

// -----

// A split sum whose init is not the identity: the init is made partial (kept on
// the first device, 0 on the other), so the result counts it once.
shard.grid @g(shape = 2)
func.func @init_not_identity(%x: tensor<8xf32>) -> tensor<f32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
// CHECK-LABEL: func.func @init_not_identity(%x: tensor<4xf32>) -> tensor<f32> {
// CHECK-NEXT:    %c = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [0] slice_axis = 0 : tensor<2xi1> -> tensor<1xi1>
// CHECK-NEXT:    %2 = stablehlo.reshape %1 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT:    %3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %4 = stablehlo.select %2, %c, %3 : tensor<i1>, tensor<f32>
// CHECK-NEXT:    %5 = stablehlo.reduce(%x init: %4) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %6 = shard.all_reduce %5 on @g grid_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK-NEXT:    func.return %6 : tensor<f32>
