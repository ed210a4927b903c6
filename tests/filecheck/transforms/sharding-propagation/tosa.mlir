// RUN: xshard-opt %s -p 'sharding-propagation{traversal=forward}' | filecheck %s --check-prefix=FWD
// RUN: xshard-opt %s -p 'sharding-propagation{traversal=backward}' | filecheck %s --check-prefix=BWD

// tosa payload ops, in the style of upstream's Shard propagation tests: each
// function is checked under the traversal it is written for (FWD or BWD).

shard.grid @g(shape = 2x2)

// An elementwise chain takes its input's sharding; no loop indexes the zero
// points of negate, so they are used whole.
// FWD-LABEL: func.func @elementwise_chain
func.func @elementwise_chain(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // FWD:      tosa.sigmoid
  // FWD-NEXT: shard.sharding @g split_axes = {{\[\[}}0], [1]]
  %0 = tosa.sigmoid %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // FWD:      tosa.tanh
  // FWD-NEXT: shard.sharding @g split_axes = {{\[\[}}0], [1]]
  %1 = tosa.tanh %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // FWD:      tosa.abs
  // FWD-NEXT: shard.sharding @g split_axes = {{\[\[}}0], [1]]
  %2 = tosa.abs %1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // FWD:      %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]]
  // FWD-NEXT: %[[IN:.*]] = shard.shard %{{.*}} to %[[S]] annotate_for_users
  // FWD-NEXT: %[[SZ:.*]] = shard.sharding @g split_axes = {{\[\[}}]]
  // FWD-NEXT: %[[ZP:.*]] = shard.shard %zp to %[[SZ]] annotate_for_users : tensor<1xf32>
  // FWD-NEXT: tosa.negate %[[IN]], %[[ZP]], %[[ZP]]
  // FWD-NEXT: shard.sharding @g split_axes = {{\[\[}}0], [1]]
  %3 = tosa.negate %2, %zp, %zp : (tensor<8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// A result sharding flows back through compare and select ops to both
// arguments, whatever their element types.
// BWD-LABEL: func.func @elementwise_backward
// BWD-SAME:    (%[[X:[a-z0-9_]+]]: tensor<8x16xf32>, %[[Y:[a-z0-9_]+]]: tensor<8x16xf32>)
// BWD-DAG:     %[[SY:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]]
// BWD-DAG:     shard.shard %[[Y]] to %[[SY]] : tensor<8x16xf32>
// BWD-DAG:     %[[SX:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1, 0]]
// BWD-DAG:     shard.shard %[[X]] to %[[SX]] : tensor<8x16xf32>
// BWD:         tosa.exp
// BWD:         tosa.maximum
// BWD:         tosa.greater_equal
// BWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}], [1, 0]]
// BWD:         tosa.select
// BWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}], [1, 0]]
func.func @elementwise_backward(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tosa.exp %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = tosa.maximum %0, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = tosa.greater_equal %1, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  %3 = tosa.logical_not %2 : (tensor<8x16xi1>) -> tensor<8x16xi1>
  %4 = tosa.select %3, %1, %y : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %5 = shard.shard %4 to %s : tensor<8x16xf32>
  return %5 : tensor<8x16xf32>
}

// A size-1 dim broadcast against a split one is not split.
// FWD-LABEL: func.func @broadcast
// FWD-SAME:    (%[[X:[a-z0-9_]+]]: tensor<8x1xf32>,
// FWD:         %[[SX:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// FWD-NEXT:    shard.shard %[[X]] to %[[SX]] : tensor<8x1xf32>
// FWD:         tosa.add
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0], [1]]
func.func @broadcast(%x: tensor<8x1xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %b = shard.shard %y to %s : tensor<8x16xf32>
  %0 = tosa.add %x, %b : (tensor<8x1xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Batch and rows of the LHS split: the RHS is split on its batch dim only.
// FWD-LABEL: func.func @matmul_batch_m
// FWD-SAME:    %[[B:[a-z0-9_]+]]: tensor<2x8x32xf32>
// FWD:         %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// FWD-NEXT:    shard.shard %[[B]] to %[[SB]] : tensor<2x8x32xf32>
// FWD:         tosa.matmul
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
func.func @matmul_batch_m(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>) -> tensor<2x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<2x16x8xf32>
  %0 = tosa.matmul %a1, %b, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  return %0 : tensor<2x16x32xf32>
}

// A split contracting dim leaves the result partial; negate is linear and keeps
// it partial, tanh is not and takes it reduced.
// FWD-LABEL: func.func @matmul_split_k
// FWD-SAME:    %[[B:[a-z0-9_]+]]: tensor<2x8x32xf32>
// FWD:         %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// FWD-NEXT:    shard.shard %[[B]] to %[[SB]] : tensor<2x8x32xf32>
// FWD:         tosa.matmul
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}], [0]] partial = sum [1] : !shard.sharding
// FWD:         tosa.negate
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}], [0]] partial = sum [1] : !shard.sharding
// FWD-NEXT:    shard.shard
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}], [0]] : !shard.sharding
// FWD-NEXT:    shard.shard {{.*}} annotate_for_users
// FWD-NEXT:    tosa.tanh
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}], [0]] : !shard.sharding
func.func @matmul_split_k(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>) -> tensor<2x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = shard.sharding @g split_axes = [[], [0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<2x16x8xf32>
  %0 = tosa.matmul %a1, %b, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  %1 = tosa.negate %0, %zp, %zp : (tensor<2x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  %2 = tosa.tanh %1 : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %2 : tensor<2x16x32xf32>
}

// An integer matmul subtracts zero points: a partial operand must be reduced first.
// FWD-LABEL: func.func @integer_matmul_partial_operand
// FWD:         %[[A:.*]] = shard.shard %a to %s
// FWD-NEXT:    %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// FWD-NEXT:    shard.shard %[[A]] to %[[S]] annotate_for_users : tensor<1x4x8xi8>
// FWD:         tosa.matmul
func.func @integer_matmul_partial_operand(%a: tensor<1x4x8xi8>, %b: tensor<1x8x4xi8>) -> tensor<1x4x4xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<1x4x8xi8>
  %0 = tosa.matmul %a1, %b, %zp, %zp : (tensor<1x4x8xi8>, tensor<1x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4xi32>
  return %0 : tensor<1x4x4xi32>
}

// A batch of 1 broadcast against 4 is not split when the result's batch is.
// BWD-LABEL: func.func @matmul_broadcast_batch
// BWD-SAME:    (%[[A:[a-z0-9_]+]]: tensor<1x16x8xf32>, %[[B:[a-z0-9_]+]]: tensor<4x8x32xf32>)
// BWD-DAG:     %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// BWD-DAG:     shard.shard %[[B]] to %[[SB]] : tensor<4x8x32xf32>
// BWD-DAG:     %[[SA:.*]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// BWD-DAG:     shard.shard %[[A]] to %[[SA]] : tensor<1x16x8xf32>
func.func @matmul_broadcast_batch(%a: tensor<1x16x8xf32>, %b: tensor<4x8x32xf32>) -> tensor<4x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x8xf32>, tensor<4x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<4x16x32xf32>
  return %1 : tensor<4x16x32xf32>
}

// Reducing a split axis leaves a partial result of the reduction's kind.
// FWD-LABEL: func.func @reduce_split_axis
// FWD:         tosa.reduce_sum
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1] : !shard.sharding
// FWD:         tosa.reduce_max
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1] : !shard.sharding
func.func @reduce_split_axis(%x: tensor<8x16xf32>) -> (tensor<8x1xf32>, tensor<8x1xf32>) {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %0 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %1 = tosa.reduce_max %a {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  return %0, %1 : tensor<8x1xf32>, tensor<8x1xf32>
}

// A tensor constant takes the sharding its user wants.
// BWD-LABEL: func.func @splat_constant
// BWD:         %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<8x16xf32>
// BWD-NEXT:    %[[SC:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// BWD-NEXT:    shard.shard %[[C]] to %[[SC]] : tensor<8x16xf32>
func.func @splat_constant(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = arith.constant dense<1.0> : tensor<8x16xf32>
  %0 = tosa.sub %x, %c : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
