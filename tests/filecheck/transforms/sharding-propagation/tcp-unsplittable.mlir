// RUN: xshard-opt %s -p sharding-propagation | filecheck %s

// Annotations the user pinned on dims that no loop of the op indexes: the
// broadcast axis of size 1, a strided dim of a slice, the gather dim of the
// input, a reduced dim of a keep-dims result. No option of the op satisfies
// them, so the op is left unsharded (as MLIR 22's pass does with a must-have
// annotation it cannot satisfy): no annotation is added next to it and the
// user's annotations stay as written. A model that let a loop split such a dim
// would shard the op instead.

shard.grid @g(shape = 2)

func.func @pinned(%x: tensor<1x8xf32>, %y: tensor<8x6xf32>, %z: tensor<4x8xf32>, %i: tensor<4x2xi64>) -> (tensor<4x8xf32>, tensor<4x6xf32>, tensor<4x2xf32>, tensor<4x1xf32>) {
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %x1 = shard.shard %x to %s0 annotate_for_users : tensor<1x8xf32>
  %0 = tcp.broadcast %x1, %c4 {axes = [0]} : tensor<1x8xf32>, index -> tensor<4x8xf32>
  %y1 = shard.shard %y to %s0 annotate_for_users : tensor<8x6xf32>
  %1 = tcp.slice %y1 starts(%c0, %c0) sizes(%c4, %c6) strides(%c2, %c1) : tensor<8x6xf32> -> tensor<4x6xf32>
  %z1 = shard.shard %z to %s1 annotate_for_users : tensor<4x8xf32>
  %2 = tcp.gather %z1, %i {dim = 1 : index} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  %3 = tcp.reduce_max %z {axes = [1]} : tensor<4x8xf32> -> tensor<4x1xf32>
  %4 = shard.shard %3 to %s1 : tensor<4x1xf32>
  return %0, %1, %2, %4 : tensor<4x8xf32>, tensor<4x6xf32>, tensor<4x2xf32>, tensor<4x1xf32>
}

// CHECK-LABEL: func.func @pinned
// CHECK:       %x1 = shard.shard %x to %s0 annotate_for_users : tensor<1x8xf32>
// CHECK-NEXT:  %[[B:.*]] = tcp.broadcast %x1, %c4
// CHECK-NEXT:  %y1 = shard.shard %y to %s0 annotate_for_users : tensor<8x6xf32>
// CHECK-NEXT:  %[[S:.*]] = tcp.slice %y1
// CHECK-NEXT:  %z1 = shard.shard %z to %s1 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[G:.*]] = tcp.gather %z1, %i
// CHECK-NEXT:  %[[R:.*]] = tcp.reduce_max %z
// CHECK-NEXT:  %[[RS:.*]] = shard.shard %[[R]] to %s1 : tensor<4x1xf32>
// CHECK-NEXT:  func.return %[[B]], %[[S]], %[[G]], %[[RS]]
