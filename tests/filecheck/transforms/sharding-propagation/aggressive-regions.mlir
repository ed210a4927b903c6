// strategy=aggressive enters while and case regions: each loop carry (operand, block
// arguments, yield, result) is one value of one layout, found with the ops around it;
// a carry that only accumulates a partial value is carried partial and settled once
// after the loop. A constraint's open dims (xshard.open_dims) may be refined.
// RUN: xshard-opt %s --split-input-file -p 'sharding-propagation{strategy=aggressive}' | filecheck %s

// Gradient accumulation over 4 microbatches (lax.scan): each trip's weight gradient is
// a partial sum over the batch axis; the accumulator is carried partial and settled
// once after the loop.
shard.grid @g(shape = 8)
func.func @main(%xs: tensor<4x16x8xf32>, %gs: tensor<4x16x8xf32>) -> tensor<8x8xf32> {
  %batch = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x = shard.shard %xs to %batch : tensor<4x16x8xf32>
  %dy = shard.shard %gs to %batch : tensor<4x16x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c0, %acc = %zero, %xa = %x, %ga = %dy) : tensor<i32>, tensor<8x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %xi = stablehlo.dynamic_slice %xa, %i, %z, %z, sizes = [1, 16, 8] : (tensor<4x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    %x2 = stablehlo.reshape %xi : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
    %gi = stablehlo.dynamic_slice %ga, %i, %z, %z, sizes = [1, 16, 8] : (tensor<4x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    %g2 = stablehlo.reshape %gi : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
    %dw = stablehlo.dot_general %x2, %g2, contracting_dims = [0] x [0] : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %next = stablehlo.add %acc, %dw : tensor<8x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %next, %xa, %ga : tensor<i32>, tensor<8x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>
  }
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %out = shard.shard %r#1 to %rep annotate_for_users : tensor<8x8xf32>
  func.return %out : tensor<8x8xf32>
}
// The zero init is made partial on entry, the block arguments state the partial
// layout, the add keeps it, and only the result's user settles it.
// CHECK-LABEL: func.func @main(
// CHECK:         %[[P:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK:         %[[INIT:.+]] = shard.shard %zero to %[[P]] annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:    %r:4 = stablehlo.while(%i = %c0, %acc = %[[INIT]], %xa = %x, %ga = %dy)
// CHECK:         } do {
// CHECK-NEXT:      %{{.+}} = shard.shard %acc to %[[P]] : tensor<8x8xf32>
// CHECK:           %next = stablehlo.add
// CHECK-NEXT:      %[[NEXT:.+]] = shard.shard %next to %[[P]] : tensor<8x8xf32>
// CHECK:           stablehlo.return %i1, %[[NEXT]],
// CHECK:         %[[R:.+]] = shard.shard %r#1 to %[[P]] : tensor<8x8xf32>
// CHECK:         %out = shard.shard %[[R]] to %rep annotate_for_users : tensor<8x8xf32>

// -----

// with_sharding_constraint(h, P(P.UNCONSTRAINED, "model")), as import-sdy writes it:
// dim 0 is open and takes the rows' split from the tanh; dim 1 stays as written.
shard.grid @g(shape = 2x4)
func.func @open(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<8x16xf32>
  %t = stablehlo.tanh %x1 : tensor<8x16xf32>
  %c = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %h = shard.shard %t to %c annotate_for_users {xshard.open_dims = array<i64: 0>} : tensor<8x16xf32>
  %s = stablehlo.sine %h : tensor<8x16xf32>
  func.return %s : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @open(
// CHECK-NEXT:    %[[BOTH:.+]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK:         %h = shard.shard %{{.+}} to %[[BOTH]] annotate_for_users {xshard.open_dims = array<i64: 0>} : tensor<8x16xf32>

// -----

// The same constraint closed in dim 0 (P(None, "model")): the rows are gathered.
shard.grid @g(shape = 2x4)
func.func @closed(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<8x16xf32>
  %t = stablehlo.tanh %x1 : tensor<8x16xf32>
  %c = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %h = shard.shard %t to %c annotate_for_users : tensor<8x16xf32>
  %s = stablehlo.sine %h : tensor<8x16xf32>
  func.return %s : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @closed(
// CHECK:         %h = shard.shard %{{.+}} to %c annotate_for_users : tensor<8x16xf32>
