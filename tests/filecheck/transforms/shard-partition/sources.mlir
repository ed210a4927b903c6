// Ops with no tensor operands. A splat constant becomes the local splat; other
// constants are built whole and each device keeps its slice (all_slice). An iota
// split along its own dim is the local iota plus the device's offset, read from a
// table of all offsets by an all_slice; split along another dim it is just local.
// RUN: xshard-opt %s -p 'sharding-propagation{traversal=forward},shard-partition' | filecheck %s

shard.grid @g(shape = 2x2)

func.func @splat() -> tensor<8x6xf32> {
  %c = stablehlo.constant dense<1.5> : tensor<8x6xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<8x6xf32>
  func.return %c1 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @splat() -> tensor<4x3xf32> {
// CHECK-NEXT:    %0 = stablehlo.constant dense<1.500000e+00> : tensor<4x3xf32>
// CHECK-NEXT:    func.return %0 : tensor<4x3xf32>

func.func @not_splat() -> tensor<2x4xi32> {
  %c = stablehlo.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<2x4xi32>
  func.return %c1 : tensor<2x4xi32>
}
// CHECK-LABEL: func.func @not_splat() -> tensor<2x2xi32> {
// CHECK-NEXT:    %0 = stablehlo.constant dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [1] slice_axis = 1 : tensor<2x4xi32> -> tensor<2x2xi32>
// CHECK-NEXT:    func.return %1 : tensor<2x2xi32>

func.func @iota_split(%x: tensor<8x6xi32>) -> tensor<8x6xi32> {
  %i = stablehlo.iota dim = 0 : tensor<8x6xi32>
  %s = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %i1 = shard.shard %i to %s : tensor<8x6xi32>
  func.return %i1 : tensor<8x6xi32>
}
// Dim 0 over axes [0, 1]: four blocks of 2 rows, starting at 0, 2, 4, 6. The unused
// argument keeps its global type.
// CHECK-LABEL: func.func @iota_split(%x: tensor<8x6xi32>) -> tensor<2x6xi32> {
// CHECK-NEXT:    %0 = stablehlo.iota dim = 0 : tensor<2x6xi32>
// CHECK-NEXT:    %1 = stablehlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK-NEXT:    %2 = shard.all_slice %1 on @g grid_axes = [0, 1] slice_axis = 0 : tensor<4xi32> -> tensor<1xi32>
// CHECK-NEXT:    %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i32>) -> tensor<2x6xi32>
// CHECK-NEXT:    %5 = stablehlo.add %0, %4 : tensor<2x6xi32>
// CHECK-NEXT:    func.return %5 : tensor<2x6xi32>

func.func @iota_float() -> tensor<6x8xf32> {
  %i = stablehlo.iota dim = 1 : tensor<6x8xf32>
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %i1 = shard.shard %i to %s : tensor<6x8xf32>
  func.return %i1 : tensor<6x8xf32>
}
// CHECK-LABEL: func.func @iota_float() -> tensor<6x4xf32> {
// CHECK-NEXT:    %0 = stablehlo.iota dim = 1 : tensor<6x4xf32>
// CHECK-NEXT:    %1 = stablehlo.constant dense<[0.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %2 = shard.all_slice %1 on @g grid_axes = [1] slice_axis = 0 : tensor<2xf32> -> tensor<1xf32>

func.func @iota_other_dim() -> tensor<8x6xi32> {
  %i = stablehlo.iota dim = 1 : tensor<8x6xi32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %i1 = shard.shard %i to %s : tensor<8x6xi32>
  func.return %i1 : tensor<8x6xi32>
}
// CHECK-LABEL: func.func @iota_other_dim() -> tensor<4x6xi32> {
// CHECK-NEXT:    %0 = stablehlo.iota dim = 1 : tensor<4x6xi32>
// CHECK-NEXT:    func.return %0 : tensor<4x6xi32>

// An empty constant is no splat, and no block of it needs a value.
func.func @empty(%x: tensor<0xf32>) -> tensor<0xf32> {
  %c = stablehlo.constant dense<> : tensor<0xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<0xf32>
  %0 = stablehlo.add %a, %c : tensor<0xf32>
  %1 = shard.shard %0 to %s : tensor<0xf32>
  return %1 : tensor<0xf32>
}
// CHECK-LABEL: func.func @empty(%x: tensor<0xf32>) -> tensor<0xf32> {
// CHECK:         stablehlo.add
