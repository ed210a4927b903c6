// Input shard-partition cannot handle is a located error, never a crash: a dim that
// does not divide (in an annotation or in a reshard; the error says what would fit),
// dynamic shapes, more than one block, an op without a sharding model, a reshard to a
// generic partial, a dynamic grid. Everything else partitions (unannotated.mlir).
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p shard-partition | filecheck %s

shard.grid @g(shape = 2x4)
func.func @not_divisible(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %s = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<6x8xf32>
  func.return %0 : tensor<6x8xf32>
}
// CHECK: invalid.mlir:10:3: error: a value of type tensor<6x8xf32> cannot be laid out as @g split_axes = {{\[\[}}1]] on grid @g (shape = 2x4): dim 0 of size 6 is not divisible by the 4 shards of grid axes [1] (sharding @g split_axes = {{\[\[}}1]]); dim 0 of size 6 can be split over grid axis 0

// -----

shard.grid @g(shape = 4)
func.func @reshard_not_divisible(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<6x8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<6x8xf32>
  func.return %1 : tensor<6x8xf32>
}
// CHECK: invalid.mlir:22:3: error: a value of type tensor<6x8xf32> cannot be laid out as @g split_axes = {{\[\[}}0]] on grid @g (shape = 4): dim 0 of size 6 is not divisible by the 4 shards of grid axes [0] (sharding @g split_axes = {{\[\[}}0]]); dim 0 of size 6 must stay unsplit

// -----

shard.grid @g(shape = 2)
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<?x8xf32>
  func.return %0 : tensor<?x8xf32>
}
// CHECK: invalid.mlir:32:3: error: shard-partition does not support dynamic shapes, got tensor<?x8xf32>

// -----

shard.grid @g(shape = 2)
func.func @two_blocks(%x: tensor<8xf32>) -> tensor<8xf32> {
  cf.br ^bb1
^bb1:
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:40:1: error: shard-partition supports only functions with one block

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
// CHECK: invalid.mlir:54:3: error: 'stablehlo.custom_call' cannot be partitioned: @foo is opaque to xshard (of custom calls it models JAX's host callbacks and linear algebra kernels only), so nothing says which dims it may split

// -----

shard.grid @g(shape = 2)
func.func @to_generic_partial(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %p = shard.sharding @g split_axes = [[]] partial = generic [0] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<8xf32>
  %1 = shard.shard %0 to %p annotate_for_users : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
// CHECK: invalid.mlir:67:3: error: cannot reshard @g split_axes = {{\[\[}}]] -> @g split_axes = {{\[\[}}]] partial = generic [0]: the target holds generic operands over grid axes [0] where the source does not, and a generic reduction has no identity to make them with

// -----

shard.grid @g(shape = ?)
func.func @dynamic_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:77:3: error: shard-partition needs a static grid, @g has shape ?

// -----

shard.grid @g(shape = 2)
func.func @split_a_scalar(%x: tensor<8xf32>) -> tensor<f32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %2 = shard.shard %1 to %s : tensor<f32>
  func.return %2 : tensor<f32>
}
// CHECK: invalid.mlir:90:3: error: a value of type tensor<f32> cannot be laid out as @g split_axes = {{\[\[}}0]] on grid @g (shape = 2): sharding @g split_axes = {{\[\[}}0]] splits dim 0 of a tensor of rank 0

// -----

shard.grid @g(shape = 2147483648x4)
func.func @huge_grid(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %p = shard.sharding @g split_axes = [] partial = sum [1, 0] : !shard.sharding
  %0 = shard.shard %x to %p : tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: invalid.mlir:100:3: error: grid @g has 8589934592 devices; shard-partition takes at most 2147483647, what StableHLO's i32 partition ids count
