// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s

// TCP's elementwise ops, tcp.cast and tcp.const: every dim is its own parallel
// loop, so a sharding carries over dim by dim, from operands to results
// (forward) and from results to operands (backward). 2-D splits on two grid
// axes catch a model that swaps or drops dims. Each function defines its
// shardings first: `%s = shard.sharding` anchors the checks after the
// annotations propagation puts on the arguments.

shard.grid @g(shape = 2x2)

func.func @unary_forward(%x: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x1 = shard.shard %x to %s annotate_for_users : tensor<4x8xf32>
  %0 = tcp.tanh %x1 : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tcp.round %0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tcp.round_even %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tcp.atan %2 : tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = tcp.clamp %3 {min_float = 0.0 : f32} : tensor<4x8xf32> -> tensor<4x8xf32>
  %5 = tcp.cast %4 {out_int_signedness = #tcp<signedness Signed>} : tensor<4x8xf32> -> tensor<4x8xi32>
  return %5 : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @unary_forward
// CHECK:       tcp.tanh %x1
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK:       tcp.round %
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK:       tcp.round_even
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK:       tcp.atan
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK:       tcp.clamp
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK:       %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.cast %[[X]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} : tensor<4x8xi32>

// -----

// One annotated operand fixes the loops; the other operand is asked for alike.
shard.grid @g(shape = 2x2)

func.func @binary_forward(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %i: tensor<4x8xi32>, %j: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %0 = tcp.atan2 %a1, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %i1 = shard.shard %i to %s annotate_for_users : tensor<4x8xi32>
  %1 = tcp.divsi %i1, %j {rounding_mode = #tcp<roundingMode Floor>} : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xi32>
}

// CHECK-LABEL: func.func @binary_forward
// CHECK:       %a1 = shard.shard
// CHECK-NEXT:  %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  %[[B:.*]] = shard.shard %{{.*}} to %[[SB]] annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.atan2 %a1, %[[B]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK:       %i1 = shard.shard
// CHECK-NEXT:  %[[SJ:.*]] = shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding
// CHECK-NEXT:  %[[J:.*]] = shard.shard %{{.*}} to %[[SJ]] annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  tcp.divsi %i1, %[[J]]
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}1], [0]] : !shard.sharding

// -----

// Backward: the result's sharding reaches every operand, through the cast.
shard.grid @g(shape = 2x2)

func.func @backward(%x: tensor<4x8xi32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[], [1, 0]] : !shard.sharding
  %0 = tcp.clamp %x {min_int = 0 : i64, max_int = 6 : i64} : tensor<4x8xi32> -> tensor<4x8xi32>
  %1 = tcp.cast %0 {in_int_signedness = #tcp<signedness Signed>} : tensor<4x8xi32> -> tensor<4x8xf32>
  %2 = tcp.round_even %1 : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tcp.atan2 %2, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = tcp.round %3 : tensor<4x8xf32> -> tensor<4x8xf32>
  %5 = tcp.atan %4 : tensor<4x8xf32> -> tensor<4x8xf32>
  %6 = shard.shard %5 to %s : tensor<4x8xf32>
  return %6 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @backward
// CHECK:       %s = shard.sharding
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  tcp.clamp
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} : tensor<4x8xi32>
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xi32>
// CHECK-NEXT:  tcp.cast
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.round_even
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.atan2
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  tcp.round %
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:  shard.sharding @g split_axes = {{\[\[}}], [1, 0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT:  %[[R:.*]] = tcp.atan %
// CHECK-NEXT:  shard.shard %[[R]] to %s : tensor<4x8xf32>

// -----

// tcp.const has no operands: its result takes the layout its user wants.
shard.grid @g(shape = 2)

func.func @const_backward(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %c = tcp.const {value = dense<1.0> : tensor<4x8xf32>} : tensor<4x8xf32>
  %0 = tcp.sub %x, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.shard %0 to %s : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @const_backward
// CHECK:       %[[C:.*]] = tcp.const
// CHECK-NEXT:  %[[SC:.*]] = shard.sharding @g split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:  shard.shard %[[C]] to %[[SC]] : tensor<4x8xf32>
