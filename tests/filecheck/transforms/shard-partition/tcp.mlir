// TCP ops that write sizes in the op: tcp.const becomes the local splat (a dense
// constant is built whole and sliced), and the size operands of tcp.broadcast and
// tcp.slice on a split dim become the local extent.
// RUN: xshard-opt %s -p 'sharding-propagation{traversal=forward},shard-partition' | filecheck %s

shard.grid @g(shape = 2x2)

func.func @const_splat() -> tensor<8x6xf32> {
  %c = tcp.const {value = dense<2.5> : tensor<8x6xf32>} : tensor<8x6xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<8x6xf32>
  func.return %c1 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @const_splat() -> tensor<4x3xf32> {
// CHECK-NEXT:    %0 = tcp.const {value = dense<2.500000e+00> : tensor<4x3xf32>} : tensor<4x3xf32>
// CHECK-NEXT:    func.return %0 : tensor<4x3xf32>

func.func @const_dense() -> tensor<4x2xi32> {
  %c = tcp.const {value = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>} : tensor<4x2xi32>
  %s = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<4x2xi32>
  func.return %c1 : tensor<4x2xi32>
}
// CHECK-LABEL: func.func @const_dense() -> tensor<1x2xi32> {
// CHECK-NEXT:    %0 = tcp.const {value = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>} : tensor<4x2xi32>
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [0, 1] slice_axis = 0 : tensor<4x2xi32> -> tensor<1x2xi32>
// CHECK-NEXT:    func.return %1 : tensor<1x2xi32>

func.func @broadcast_split(%x: tensor<1x6xf32>) -> tensor<8x6xf32> {
  %c8 = arith.constant 8 : index
  %0 = tcp.broadcast %x, %c8 {axes = [0]} : tensor<1x6xf32>, index -> tensor<8x6xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x6xf32>
  func.return %1 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @broadcast_split(%x: tensor<1x3xf32>) -> tensor<4x3xf32> {
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    %0 = arith.constant 4 : index
// CHECK-NEXT:    %1 = tcp.broadcast %x, %0 {axes = [0 : i64]} : tensor<1x3xf32>, index -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %1 : tensor<4x3xf32>

func.func @slice_whole_dim(%x: tensor<8x6xf32>) -> tensor<8x2xf32> {
  %s = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.slice %x1 starts(%c0, %c1) sizes(%c8, %c2) strides(%c1, %c2) : tensor<8x6xf32> -> tensor<8x2xf32>
  func.return %0 : tensor<8x2xf32>
}
// CHECK-LABEL: func.func @slice_whole_dim(%x: tensor<2x6xf32>) -> tensor<2x2xf32> {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    %0 = arith.constant 2 : index
// CHECK-NEXT:    %1 = tcp.slice %x starts(%c0, %c1) sizes(%0, %c2) strides(%c1, %c2) : tensor<2x6xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    func.return %1 : tensor<2x2xf32>

