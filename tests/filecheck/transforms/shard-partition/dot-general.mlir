// dot_general split on each kind of loop. Batch and free dims: the same op on local
// blocks, no collective. Contracting dim: the local product is a partial sum; it stays
// partial through ops that distribute over the sum and is all-reduced once, where the
// user asks for the whole value.
// RUN: xshard-opt %s --split-input-file -p 'sharding-propagation{traversal=forward},shard-partition' | filecheck %s

shard.grid @g(shape = 2x2)
func.func @batch(%a: tensor<4x8x6xf32>, %b: tensor<4x6x2xf32>) -> tensor<4x8x2xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<4x8x6xf32>
  %0 = stablehlo.dot_general %a1, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x6xf32>, tensor<4x6x2xf32>) -> tensor<4x8x2xf32>
  func.return %0 : tensor<4x8x2xf32>
}
// CHECK-LABEL: func.func @batch(%a: tensor<2x8x6xf32>, %b: tensor<2x6x2xf32>) -> tensor<2x8x2xf32> {
// CHECK-NEXT:    %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x6xf32>, tensor<2x6x2xf32>) -> tensor<2x8x2xf32>
// CHECK-NEXT:    func.return %0 : tensor<2x8x2xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @free(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = shard.shard %0 to %s : tensor<8x4xf32>
  func.return %1 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @free(%a: tensor<4x6xf32>, %b: tensor<6x2xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %0 : tensor<4x2xf32>

// -----

shard.grid @g(shape = 2x2)
func.func @contracting(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %0 = stablehlo.dot_general %a1, %b, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x4xf32>
  func.return %1 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @contracting(%a: tensor<8x3xf32>, %b: tensor<3x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %0 on @g grid_axes = [1] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %1 : tensor<8x4xf32>

// -----

// Without a user asking for it, the partial result is settled before it is returned
// (callers expect the value); annotated partial, it is returned partial.
shard.grid @g(shape = 2)
func.func @partial_result(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %0 = stablehlo.dot_general %a1, %b, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %a1, %b, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %p = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %2 = shard.shard %1 to %p : tensor<8x4xf32>
  func.return %0, %2 : tensor<8x4xf32>, tensor<8x4xf32>
}
// CHECK-LABEL: func.func @partial_result(%a: tensor<8x3xf32>, %b: tensor<3x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
// CHECK-NEXT:    %0 = stablehlo.dot_general
// CHECK-NEXT:    %1 = stablehlo.dot_general
// CHECK-NEXT:    %2 = shard.all_reduce %0 on @g grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %2, %1 : tensor<8x4xf32>, tensor<8x4xf32>
