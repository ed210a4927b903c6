// Input shard-partition cannot handle is a located error, never a crash: a function
// that is not fully annotated (operand, result, argument used outside its annotation),
// a dim that does not divide (in an annotation or in a reshard), dynamic shapes, more
// than one block, an op without a sharding model, a split reduction whose init value
// is not the combiner's identity, a reshard to a generic partial, a dynamic grid.
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p shard-partition | filecheck %s

shard.grid @g(shape = 2x2)
func.func @operand_unannotated(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = shard.shard %1 to %s : tensor<8x8xf32>
  func.return %2 : tensor<8x8xf32>
}
// CHECK: invalid.mlir:12:3: error: the function is not fully annotated (run sharding-propagation first): operand #0 of 'stablehlo.negate' must come from a 'shard.shard ... annotate_for_users' annotation

// -----

shard.grid @g(shape = 2x2)
func.func @result_unannotated(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  func.return %2 : tensor<8x8xf32>
}
// CHECK: invalid.mlir:25:3: error: the function is not fully annotated (run sharding-propagation first): result #0 of 'stablehlo.negate' must have exactly one use, a 'shard.shard' result annotation

// -----

shard.grid @g(shape = 2x2)
func.func @argument_used_twice(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x8xf32>
  %1 = stablehlo.negate %x : tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// CHECK: invalid.mlir:33:1: error: the function is not fully annotated (run sharding-propagation first): block argument #0 must have exactly one use, a 'shard.shard' result annotation

// -----

shard.grid @g(shape = 4)
func.func @not_divisible(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<6x8xf32>
  func.return %0 : tensor<6x8xf32>
}
// CHECK: invalid.mlir:46:3: error: dim 0 of size 6 is not divisible by the 4 shards of grid axes [0] (sharding @g split_axes = [[0]])

// -----

shard.grid @g(shape = 4)
func.func @reshard_not_divisible(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<6x8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<6x8xf32>
  func.return %1 : tensor<6x8xf32>
}
// CHECK: invalid.mlir:58:3: error: cannot reshard @g split_axes = [[]] -> @g split_axes = [[0]]: target sharding: dim 0 of size 6 is not divisible

// -----

shard.grid @g(shape = 2)
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<?x8xf32>
  func.return %0 : tensor<?x8xf32>
}
// CHECK: invalid.mlir:68:3: error: shard-partition does not support dynamic shapes, got tensor<?x8xf32>

// -----

shard.grid @g(shape = 2)
func.func @two_blocks(%x: tensor<8xf32>) -> tensor<8xf32> {
  cf.br ^bb1
^bb1:
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:76:1: error: shard-partition supports only functions with one block

// -----

shard.grid @g(shape = 2)
func.func @no_model(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8xf32>
  %2 = stablehlo.custom_call @foo(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = shard.shard %2 to %s : tensor<8xf32>
  func.return %3 : tensor<8xf32>
}
// CHECK: invalid.mlir:90:3: error: 'stablehlo.custom_call' has no sharding model, so it cannot be partitioned

// -----

shard.grid @g(shape = 2)
func.func @init_not_identity(%x: tensor<8xf32>) -> tensor<f32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r = shard.sharding @g split_axes = [] : !shard.sharding
  %p = shard.sharding @g split_axes = [] partial = sum [0] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8xf32>
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %c1 = shard.shard %c to %r annotate_for_users : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c1) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %3 = shard.shard %2 to %p : tensor<f32>
  func.return %3 : tensor<f32>
}
// CHECK: invalid.mlir:107:3: error: a reduction split across devices needs the identity of its combiner (sum) as init value: each device adds it once

// -----

shard.grid @g(shape = 2)
func.func @to_generic_partial(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %p = shard.sharding @g split_axes = [[]] partial = generic [0] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<8xf32>
  %1 = shard.shard %0 to %p annotate_for_users : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
// CHECK: invalid.mlir:120:3: error: cannot reshard @g split_axes = [[]] -> @g split_axes = [[]] partial = generic [0]: the target holds generic operands over grid axes [0] where the source does not

// -----

shard.grid @g(shape = ?)
func.func @dynamic_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:130:3: error: shard-partition needs a static grid, @g has shape ?
