// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

// tcp.broadcast, tcp.slice, tcp.gather: one parallel loop per result dim; the
// input dims that a loop cannot split there (a broadcast axis of size 1, a
// sliced dim, the gather dim) are never asked to be split. Each function
// defines its shardings first: `%s = shard.sharding` anchors the checks after
// the annotations propagation puts on the arguments.

shard.grid @g(shape = 2x2)

// Forward: the kept dim's split carries over; the broadcast axis stays whole.
func.func @broadcast_forward(%x: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %c4 = arith.constant 4 : index
  %x1 = shard.shard %x to %s annotate_for_users : tensor<1x8xf32>
  %0 = tcp.broadcast %x1, %c4 {axes = [0]} : tensor<1x8xf32>, index -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @broadcast_forward
// CHECK:       %[[B:.*]] = tcp.broadcast %x1
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[B]] to %[[S]] : tensor<4x8xf32>

// -----

// Backward: the broadcast axis is a loop of its own, split on the result; it
// has size 1 on the input, which is asked only for its other dim's split.
shard.grid @g(shape = 2x2)

func.func @broadcast_backward(%x: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %c4 = arith.constant 4 : index
  %0 = tcp.broadcast %x, %c4 {axes = [0]} : tensor<1x8xf32>, index -> tensor<4x8xf32>
  %1 = shard.shard %0 to %s : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @broadcast_backward
// CHECK:       %c4 = arith.constant 4 : index
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S]] annotate_for_users : tensor<1x8xf32>
// CHECK-NEXT:  %[[B:.*]] = tcp.broadcast %[[X]], %c4
// CHECK-NEXT:  shard.shard %[[B]] to %s : tensor<4x8xf32>

// -----

// Forward: dim 1 is taken whole (start 0, stride 1, full size), so its split
// carries over; dims 0 (stride 2) and 2 (start 2) are sliced.
shard.grid @g(shape = 2x2)

func.func @slice_forward(%x: tensor<8x6x6xf32>) -> tensor<4x6x4xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %x1 = shard.shard %x to %s annotate_for_users : tensor<8x6x6xf32>
  %0 = tcp.slice %x1 starts(%c0, %c0, %c2) sizes(%c4, %c6, %c4) strides(%c2, %c1, %c1) : tensor<8x6x6xf32> -> tensor<4x6x4xf32>
  return %0 : tensor<4x6x4xf32>
}

// CHECK-LABEL: func.func @slice_forward
// CHECK:       %[[R:.*]] = tcp.slice %x1
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[R]] to %[[S]] : tensor<4x6x4xf32>

// -----

// Backward: the same, from the result.
shard.grid @g(shape = 2x2)

func.func @slice_backward(%x: tensor<8x8x6xf32>) -> tensor<4x8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0, 1]] : !shard.sharding
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.slice %x starts(%c0, %c0, %c2) sizes(%c4, %c8, %c4) strides(%c2, %c1, %c1) : tensor<8x8x6xf32> -> tensor<4x8x4xf32>
  %1 = shard.shard %0 to %s : tensor<4x8x4xf32>
  return %1 : tensor<4x8x4xf32>
}

// CHECK-LABEL: func.func @slice_backward
// CHECK:       %c8 = arith.constant 8 : index
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}], [0, 1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S]] annotate_for_users : tensor<8x8x6xf32>
// CHECK-NEXT:  %[[R:.*]] = tcp.slice %[[X]]
// CHECK-NEXT:  shard.shard %[[R]] to %s : tensor<4x8x4xf32>

// -----

// Forward from the indices: the input is read anywhere along the gather dim
// (1), so it is asked only for its dim 0 split.
shard.grid @g(shape = 2x2)

func.func @gather_forward(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %i1 = shard.shard %i to %s annotate_for_users : tensor<4x2xi64>
  %0 = tcp.gather %x, %i1 {dim = 1 : index} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @gather_forward
// CHECK:       %i1 = shard.shard
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[G:.*]] = tcp.gather %[[X]], %i1
// CHECK-NEXT:  %[[SG:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[G]] to %[[SG]] : tensor<4x2xf32>

// -----

// Backward: the result's layout is the indices'; the input follows on dim 0.
shard.grid @g(shape = 2x2)

func.func @gather_backward(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %0 = tcp.gather %x, %i {dim = 1 : index} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  %1 = shard.shard %0 to %s : tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @gather_backward
// CHECK:       %s = shard.sharding
// CHECK-NEXT:  %[[SX:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[SX]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[SI:.*]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  %[[I:.*]] = shard.shard %{{.*}} to %[[SI]] annotate_for_users : tensor<4x2xi64>
// CHECK-NEXT:  %[[G:.*]] = tcp.gather %[[X]], %[[I]]
// CHECK-NEXT:  shard.shard %[[G]] to %s : tensor<4x2xf32>
