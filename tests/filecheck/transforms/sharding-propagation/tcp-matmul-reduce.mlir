// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

// tcp.matmul (loops: batch..., m, n, then k as a sum reduction) and the
// keep-dims reductions (loops: the input's dims, the reduced ones reductions of
// the op's kind; a reduced dim stays in the result with size 1 and no loop).
// A split reduction loop leaves the result partial, of the op's kind. Each
// function defines its shardings first: `%s = shard.sharding` anchors the
// checks after the annotations propagation puts on the arguments.

shard.grid @g(shape = 2x2)

// Forward: m on axis 0 and k on axis 1; B follows on k, the result is partial.
func.func @matmul_forward(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %0 = tcp.matmul %a1, %b : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @matmul_forward
// CHECK:       %a1 = shard.shard
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<8x6xf32>
// CHECK-NEXT:  %[[M:.*]] = tcp.matmul %a1, %[[B]]
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[M]] to %[[S]] : tensor<4x6xf32>

// -----

// Backward, batched: batch on axis 0, n on axis 1; A is not split on m or k.
shard.grid @g(shape = 2x2)

func.func @matmul_backward(%a: tensor<2x4x8xf32>, %b: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %s = shard.sharding @g split_axes = [[0], [], [1]] : !shard.sharding
  %0 = tcp.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  %1 = shard.shard %0 to %s : tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// CHECK-LABEL: func.func @matmul_backward
// CHECK:       %s = shard.sharding
// CHECK-NEXT:  %[[SA:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[A:.*]] = shard.shard %{{.*}} to %[[SA]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [], [1]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<2x8x6xf32>
// CHECK-NEXT:  %[[M:.*]] = tcp.matmul %[[A]], %[[B]]
// CHECK-NEXT:  shard.shard %[[M]] to %s : tensor<2x4x6xf32>

// -----

// Backward from a partial result: the sum reduction loop k takes axis 1.
shard.grid @g(shape = 2x2)

func.func @matmul_backward_partial(%a: tensor<2x4x8xf32>, %b: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %s = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %0 = tcp.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  %1 = shard.shard %0 to %s : tensor<2x4x6xf32>
  return %1 : tensor<2x4x6xf32>
}

// CHECK-LABEL: func.func @matmul_backward_partial
// CHECK:       %s = shard.sharding
// CHECK-NEXT:  %[[SA:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [], [1]] : !shard.sharding
// CHECK-NEXT:  %[[A:.*]] = shard.shard %{{.*}} to %[[SA]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<2x8x6xf32>
// CHECK-NEXT:  %[[M:.*]] = tcp.matmul %[[A]], %[[B]]
// CHECK-NEXT:  shard.shard %[[M]] to %s : tensor<2x4x6xf32>

// -----

// Forward: the reduced dim 1 is split on axis 0, so each result is partial over
// axis 0 with its op's kind (product for reduce_prod); dim 0 keeps axis 1.
shard.grid @g(shape = 2x2)

func.func @reduce_forward(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s annotate_for_users : tensor<4x8xf32>
  %0 = tcp.reduce_sum %x1 {axes = [1]} : tensor<4x8xf32> -> tensor<4x1xf32>
  %1 = tcp.reduce_prod %x1 {axes = [1]} : tensor<4x8xf32> -> tensor<4x1xf32>
  %2 = tcp.reduce_max %x1 {axes = [1]} : tensor<4x8xf32> -> tensor<4x1xf32>
  %3 = tcp.reduce_min %x1 {axes = [1]} : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0, %1, %2, %3 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>
}

// CHECK-LABEL: func.func @reduce_forward
// CHECK:       tcp.reduce_sum %x1
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK:       tcp.reduce_prod %x1
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = product [0] : !shard.sharding
// CHECK:       tcp.reduce_max %x1
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = max [0] : !shard.sharding
// CHECK:       tcp.reduce_min %x1
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = min [0] : !shard.sharding

// -----

// Backward: result dim 2 is input dim 2 (the reduced dim is kept, nothing is
// renumbered).
shard.grid @g(shape = 2x2)

func.func @reduce_backward(%x: tensor<4x8x8xf32>) -> tensor<4x1x8xf32> {
  %s = shard.sharding @g split_axes = [[], [], [1, 0]] : !shard.sharding
  %0 = tcp.reduce_sum %x {axes = [1]} : tensor<4x8x8xf32> -> tensor<4x1x8xf32>
  %1 = shard.shard %0 to %s : tensor<4x1x8xf32>
  return %1 : tensor<4x1x8xf32>
}

// CHECK-LABEL: func.func @reduce_backward
// CHECK:       %s = shard.sharding
// CHECK-NEXT:  %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}], [], [1, 0]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S]] annotate_for_users : tensor<4x8x8xf32>
// CHECK-NEXT:  %[[R:.*]] = tcp.reduce_sum %[[X]]
// CHECK-NEXT:  shard.shard %[[R]] to %s : tensor<4x1x8xf32>

// -----

// Backward from a partial result of each kind: dim 0 keeps axis 0, and the
// first reduced dim takes the partial axis.
shard.grid @g(shape = 2x2)

func.func @reduce_backward_partial(%x: tensor<4x8x6xf32>) -> (tensor<4x1x1xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>) {
  %ssum = shard.sharding @g split_axes = [[0]] partial = sum [1] : !shard.sharding
  %sprod = shard.sharding @g split_axes = [[0]] partial = product [1] : !shard.sharding
  %smax = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %smin = shard.sharding @g split_axes = [[0]] partial = min [1] : !shard.sharding
  %0 = tcp.reduce_sum %x {axes = [1, 2]} : tensor<4x8x6xf32> -> tensor<4x1x1xf32>
  %1 = shard.shard %0 to %ssum : tensor<4x1x1xf32>
  %2 = tcp.reduce_prod %x {axes = [1, 2]} : tensor<4x8x6xf32> -> tensor<4x1x1xf32>
  %3 = shard.shard %2 to %sprod : tensor<4x1x1xf32>
  %4 = tcp.reduce_max %x {axes = [1, 2]} : tensor<4x8x6xf32> -> tensor<4x1x1xf32>
  %5 = shard.shard %4 to %smax : tensor<4x1x1xf32>
  %6 = tcp.reduce_min %x {axes = [1, 2]} : tensor<4x8x6xf32> -> tensor<4x1x1xf32>
  %7 = shard.shard %6 to %smin : tensor<4x1x1xf32>
  return %1, %3, %5, %7 : tensor<4x1x1xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>
}

// CHECK-LABEL: func.func @reduce_backward_partial
// CHECK:       %smin = shard.sharding
// CHECK-NEXT:  %[[S0:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X0:.*]] = shard.shard %{{.*}} to %[[S0]] annotate_for_users : tensor<4x8x6xf32>
// CHECK-NEXT:  tcp.reduce_sum %[[X0]]
// CHECK:       %[[S1:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X1:.*]] = shard.shard %{{.*}} to %[[S1]] annotate_for_users : tensor<4x8x6xf32>
// CHECK-NEXT:  tcp.reduce_prod %[[X1]]
// CHECK:       %[[S2:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X2:.*]] = shard.shard %{{.*}} to %[[S2]] annotate_for_users : tensor<4x8x6xf32>
// CHECK-NEXT:  tcp.reduce_max %[[X2]]
// CHECK:       %[[S3:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X3:.*]] = shard.shard %{{.*}} to %[[S3]] annotate_for_users : tensor<4x8x6xf32>
// CHECK-NEXT:  tcp.reduce_min %[[X3]]
