// Data movement whose per-device form is the same op on local types: transpose,
// reshape (split major dim), broadcast_in_dim, concatenate on an unsplit dim, and
// slice, whose limits on split (whole) dims become the local extent.
// RUN: xshard-opt %s -p 'sharding-propagation{traversal=forward},shard-partition' | filecheck %s

shard.grid @g(shape = 2x2)
func.func @movement(%a: tensor<8x6xf32>, %v: tensor<6xf32>) -> (tensor<6x8xf32>, tensor<2x4x6xf32>, tensor<8x6xf32>, tensor<8x4xf32>, tensor<8x12xf32>) {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %t = stablehlo.transpose %a1, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %r = stablehlo.reshape %a1 : (tensor<8x6xf32>) -> tensor<2x4x6xf32>
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<6xf32>) -> tensor<8x6xf32>
  %sb = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %b1 = shard.shard %b to %sb : tensor<8x6xf32>
  %sl = stablehlo.slice %a1 [0:8, 1:5] : (tensor<8x6xf32>) -> tensor<8x4xf32>
  %c = stablehlo.concatenate %a1, %a1, dim = 1 : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x12xf32>
  func.return %t, %r, %b1, %sl, %c : tensor<6x8xf32>, tensor<2x4x6xf32>, tensor<8x6xf32>, tensor<8x4xf32>, tensor<8x12xf32>
}
// CHECK-LABEL: func.func @movement(%a: tensor<4x6xf32>, %v: tensor<6xf32>) -> (tensor<6x4xf32>, tensor<1x4x6xf32>, tensor<2x6xf32>, tensor<4x4xf32>, tensor<4x12xf32>) {
// CHECK-NEXT:    %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %1 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<1x4x6xf32>
// CHECK-NEXT:    %2 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %3 = stablehlo.slice %a [0:4, 1:5] : (tensor<4x6xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %4 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x12xf32>
// CHECK-NEXT:    func.return %0, %1, %2, %3, %4

// An empty tensor (a dim of 0; `jnp.pad(..., mode="edge")` makes them) has nothing to
// split or move: its reshape has no loop, and the reshard to whole is an empty constant
// rather than a collective (XLA refuses to gather one).
func.func @reshape_empty(%x: tensor<0x4xf32>) -> tensor<4x0xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<0x4xf32>
  %0 = stablehlo.reshape %x1 : (tensor<0x4xf32>) -> tensor<4x0xf32>
  func.return %0 : tensor<4x0xf32>
}
// CHECK-LABEL: func.func @reshape_empty(%x: tensor<0x2xf32>) -> tensor<4x0xf32>
// CHECK-NEXT:    %0 = stablehlo.constant dense<> : tensor<0x4xf32>
// CHECK-NEXT:    %1 = stablehlo.reshape %0 : (tensor<0x4xf32>) -> tensor<4x0xf32>
// CHECK-NEXT:    func.return %1 : tensor<4x0xf32>
