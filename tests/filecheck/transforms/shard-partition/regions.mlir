// while, case and optimization_barrier are partitioned in place (region_flow): a loop
// carry keeps the layout its block arguments' annotations state on entry, inside and
// after the loop (the body's yield is resharded to it); a case result keeps the one
// its annotation states, which every branch yields; a barrier keeps each operand's.
// The ops inside run on local types, their collectives inside the regions.
// RUN: xshard-opt %s --split-input-file -p shard-partition | filecheck %s

// A scan over 3 stacked weights split on their columns: the weights stay split in the
// loop; the carry is split by rows; the dot contracts whole rows, so each trip's
// activation is split both ways and gathered back to rows at the yield.
shard.grid @g(shape = 2x4)
func.func @scan(%W: tensor<3x16x16xf32>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %cols = shard.sharding @g split_axes = [[], [], [1]] : !shard.sharding
  %W1 = shard.shard %W to %cols : tensor<3x16x16xf32>
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<8x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%w = %W1, %i = %c0, %h = %x1) : tensor<3x16x16xf32>, tensor<i32>, tensor<8x16xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %w1 = shard.shard %w to %cols : tensor<3x16x16xf32>
    %h1 = shard.shard %h to %rows : tensor<8x16xf32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %w1, %i, %z, %z, sizes = [1, 16, 16] : (tensor<3x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>
    %l = stablehlo.reshape %s : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %d = stablehlo.dot_general %h1, %l, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %t = stablehlo.tanh %d : tensor<8x16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %w1, %i1, %t : tensor<3x16x16xf32>, tensor<i32>, tensor<8x16xf32>
  }
  %out = shard.shard %r#2 to %rows : tensor<8x16xf32>
  func.return %out : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @scan(%W: tensor<3x16x4xf32>, %x: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %c0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:   %0:3 = stablehlo.while(%w = %W, %i = %c0, %h = %x) : tensor<3x16x4xf32>, tensor<i32>, tensor<4x16xf32>
// CHECK-NEXT:   cond {
// CHECK-NEXT:     %n = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:     %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:     stablehlo.return %lt : tensor<i1>
// CHECK-NEXT:   } do {
// CHECK-NEXT:     %z = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %1 = stablehlo.dynamic_slice %w, %i, %z, %z, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
// CHECK-NEXT:     %2 = stablehlo.reshape %1 : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:     %3 = stablehlo.dot_general %h, %2, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:     %4 = stablehlo.tanh %3 : tensor<4x4xf32>
// CHECK-NEXT:     %one = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:     %i1 = stablehlo.add %i, %one : tensor<i32>
// CHECK-NEXT:     %5 = shard.all_gather %4 on @g grid_axes = [1] gather_axis = 1 : tensor<4x4xf32> -> tensor<4x16xf32>
// CHECK-NEXT:     stablehlo.return %w, %i1, %5 : tensor<3x16x4xf32>, tensor<i32>, tensor<4x16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %0#2 : tensor<4x16xf32>
// CHECK-NEXT: }

// -----

// lax.cond's branches read split values from above; the result is annotated split by
// rows, so each branch yields its rows.
shard.grid @g(shape = 8)
func.func @cond(%x: tensor<16x4xf32>, %p: tensor<i32>) -> tensor<16x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<16x4xf32>
  %r = "stablehlo.case"(%p) ({
    %e = stablehlo.exponential %x1 : tensor<16x4xf32>
    stablehlo.return %e : tensor<16x4xf32>
  }, {
    stablehlo.return %x1 : tensor<16x4xf32>
  }) : (tensor<i32>) -> tensor<16x4xf32>
  %r1 = shard.shard %r to %rows : tensor<16x4xf32>
  func.return %r1 : tensor<16x4xf32>
}
// CHECK-LABEL: func.func @cond(%x: tensor<2x4xf32>, %p: tensor<i32>) -> tensor<2x4xf32> {
// CHECK-NEXT:   %0 = "stablehlo.case"(%p) ({
// CHECK-NEXT:     %1 = stablehlo.exponential %x : tensor<2x4xf32>
// CHECK-NEXT:     stablehlo.return %1 : tensor<2x4xf32>
// CHECK-NEXT:   }, {
// CHECK-NEXT:     stablehlo.return %x : tensor<2x4xf32>
// CHECK-NEXT:   }) : (tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:   func.return %0 : tensor<2x4xf32>
// CHECK-NEXT: }

// -----

// A remat barrier over a weight split on axis 1 and activations split on axis 0: each
// keeps its own layout.
shard.grid @g(shape = 2x4)
func.func @barrier(%w: tensor<16x16xf32>, %x: tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<8x16xf32>) {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %w1 = shard.shard %w to %cols : tensor<16x16xf32>
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<8x16xf32>
  %b:2 = stablehlo.optimization_barrier %w1, %x1 : tensor<16x16xf32>, tensor<8x16xf32>
  %b0 = shard.shard %b#0 to %cols : tensor<16x16xf32>
  %b1 = shard.shard %b#1 to %rows : tensor<8x16xf32>
  func.return %b0, %b1 : tensor<16x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @barrier(%w: tensor<16x4xf32>, %x: tensor<4x16xf32>) -> (tensor<16x4xf32>, tensor<4x16xf32>) {
// CHECK-NEXT:   %0:2 = stablehlo.optimization_barrier %w, %x : tensor<16x4xf32>, tensor<4x16xf32>
// CHECK-NEXT:   func.return %0#0, %0#1 : tensor<16x4xf32>, tensor<4x16xf32>
// CHECK-NEXT: }

// -----

// optax.MultiSteps' accumulating branch: it adds a gradient that is partial (a sum over
// the batch) to the accumulator as a partial term, settled once after the add. The
// gradient, read from above only partial, enters the branch partial: settled before
// the case, it would be made partial again inside and settled a second time.
shard.grid @g(shape = 8)
func.func @accumulate(%g: tensor<4x4xf32>, %acc: tensor<4x4xf32>, %p: tensor<i32>) -> tensor<4x4xf32> {
  %partial = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %whole = shard.sharding @g split_axes = [[]] : !shard.sharding
  %g1 = shard.shard %g to %partial : tensor<4x4xf32>
  %r = "stablehlo.case"(%p) ({
    %a = shard.shard %acc to %partial annotate_for_users : tensor<4x4xf32>
    %s = stablehlo.add %g1, %a : tensor<4x4xf32>
    %s1 = shard.shard %s to %partial : tensor<4x4xf32>
    %s2 = shard.shard %s1 to %whole annotate_for_users : tensor<4x4xf32>
    stablehlo.return %s2 : tensor<4x4xf32>
  }, {
    stablehlo.return %acc : tensor<4x4xf32>
  }) : (tensor<i32>) -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @accumulate(
// CHECK-NOT:     shard.all_reduce
// CHECK:         "stablehlo.case"(%p) ({
// CHECK:           %[[S:.+]] = stablehlo.add %g, %{{.+}} : tensor<4x4xf32>
// CHECK-NEXT:      %[[SUM:.+]] = shard.all_reduce %[[S]] on @g grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT:      stablehlo.return %[[SUM]] : tensor<4x4xf32>
// CHECK-NOT:     shard.all_reduce
