// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

// Partial values through TCP ops: an op that distributes over the reduction
// keeps its operand partial (no all-reduce yet); any other op asks for the
// operand without its partial axes, i.e. reduced first. Every value here is
// also split on axis 1, which must ride along unchanged.

shard.grid @g(shape = 2x2)

// add of two partial sums is the partial sum of the adds; neg of a partial sum
// is the partial sum of the negations.
func.func @add_neg(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = shard.sharding @g split_axes = [[1]] partial = sum [0] : !shard.sharding
  %a1 = shard.shard %a to %p : tensor<4x8xf32>
  %b1 = shard.shard %b to %p : tensor<4x8xf32>
  %0 = tcp.add %a1, %b1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tcp.neg %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @add_neg
// CHECK:       %b1 = shard.shard
// CHECK-NEXT:  %[[SA:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[A:.*]] = shard.shard %a1 to %[[SA]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %b1 to %[[SB]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.add %[[A]], %[[B]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK:       tcp.neg
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding

// -----

// mul is linear in each operand: one partial operand, the other one whole.
// divf is linear in its numerator.
shard.grid @g(shape = 2x2)

func.func @mul_divf(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = shard.sharding @g split_axes = [[1]] partial = sum [0] : !shard.sharding
  %a1 = shard.shard %a to %p : tensor<4x8xf32>
  %0 = tcp.mul %b, %a1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tcp.divf %0, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @mul_divf
// CHECK:       %a1 = shard.shard
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[SA:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[A:.*]] = shard.shard %a1 to %[[SA]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.mul %[[B]], %[[A]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK:       %[[SN:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[N:.*]] = shard.shard %{{.*}} to %[[SN]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[SC:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[C:.*]] = shard.shard %{{.*}} to %[[SC]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.divf %[[N]], %[[C]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding

// -----

// max joins a partial max with a whole operand; tanh and a float-to-signed cast
// are non-decreasing, so they keep a partial max.
shard.grid @g(shape = 2x2)

func.func @max_join(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %p = shard.sharding @g split_axes = [[1]] partial = max [0] : !shard.sharding
  %a1 = shard.shard %a to %p : tensor<4x8xf32>
  %0 = tcp.max %a1, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tcp.tanh %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tcp.cast %1 {out_int_signedness = #tcp<signedness Signed>} : tensor<4x8xf32> -> tensor<4x8xi32>
  return %2 : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @max_join
// CHECK:       %a1 = shard.shard
// CHECK-NEXT:  %[[SA:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] partial = max [0] : !shard.sharding
// CHECK-NEXT:  %[[A:.*]] = shard.shard %a1 to %[[SA]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.max %[[A]], %[[B]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = max [0] : !shard.sharding
// CHECK:       tcp.tanh
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = max [0] : !shard.sharding
// CHECK:       tcp.cast
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = max [0] : !shard.sharding

// -----

// A partial sum does not pass through tanh, a float-to-int cast (truncation is
// not additive) or a divisor: each asks for its operand reduced, split as before.
shard.grid @g(shape = 2x2)

func.func @not_linear(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>) {
  %p = shard.sharding @g split_axes = [[1]] partial = sum [0] : !shard.sharding
  %a1 = shard.shard %a to %p : tensor<4x8xf32>
  %0 = tcp.tanh %a1 : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tcp.cast %a1 {out_int_signedness = #tcp<signedness Signed>} : tensor<4x8xf32> -> tensor<4x8xi32>
  %2 = tcp.divf %b, %a1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @not_linear
// CHECK:       %a1 = shard.shard
// CHECK-NEXT:  %[[S0:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[X0:.*]] = shard.shard %a1 to %[[S0]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.tanh %[[X0]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK:       %[[S1:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[X1:.*]] = shard.shard %a1 to %[[S1]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.cast %[[X1]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK:       %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[S2:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// CHECK-NEXT:  %[[X2:.*]] = shard.shard %a1 to %[[S2]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.divf %[[B]], %[[X2]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding

// -----

// Data movement, a sum over other dims and a widening float cast keep a partial sum.
shard.grid @g(shape = 2x2)

func.func @movement(%a: tensor<4x1xf32>) -> tensor<4x1xf64> {
  %p = shard.sharding @g split_axes = [[1]] partial = sum [0] : !shard.sharding
  %c8 = arith.constant 8 : index
  %a1 = shard.shard %a to %p : tensor<4x1xf32>
  %0 = tcp.broadcast %a1, %c8 {axes = [1]} : tensor<4x1xf32>, index -> tensor<4x8xf32>
  %1 = tcp.reduce_sum %0 {axes = [1]} : tensor<4x8xf32> -> tensor<4x1xf32>
  %2 = tcp.cast %1 : tensor<4x1xf32> -> tensor<4x1xf64>
  return %2 : tensor<4x1xf64>
}

// CHECK-LABEL: func.func @movement
// CHECK:       tcp.broadcast
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK:       tcp.reduce_sum
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
// CHECK:       tcp.cast
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1]] partial = sum [0] : !shard.sharding
