// strategy=aggressive: where a partial sum is settled, and which reshards readers
// share. A partial sum is not carried through an op by making a whole operand partial
// that waits on another settle (the two settles would then run one after the other),
// unless the sum shrinks before it is settled and settling it now would cost more than
// a latency; a reshard another reader makes anyway costs a conflicted op nothing.
// RUN: xshard-opt %s --split-input-file -p 'sharding-propagation{strategy=aggressive}' | filecheck %s

// A batch norm's statistics over the split batch, var = E[x^2] - E[x]^2: E[x^2] is
// settled before the subtract, beside E[x], rather than the subtract making E[x]^2
// partial, which would wait on E[x]'s settle.
shard.grid @g(shape = 2x4)
func.func @stats(%arg: tensor<16x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x = shard.shard %arg to %batch : tensor<16x4xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %n = stablehlo.constant dense<1.600000e+01> : tensor<4xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
  %mean = stablehlo.divide %s, %n : tensor<4xf32>
  %sq = stablehlo.multiply %x, %x : tensor<16x4xf32>
  %s2 = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
  %m2 = stablehlo.divide %s2, %n : tensor<4xf32>
  %mm = stablehlo.multiply %mean, %mean : tensor<4xf32>
  %var = stablehlo.subtract %m2, %mm : tensor<4xf32>
  func.return %mean, %var : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @stats(
// CHECK-DAG:     %[[P:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-DAG:     %[[R:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK:         %m2 = stablehlo.divide
// CHECK-NEXT:    %[[M2:.+]] = shard.shard %m2 to %[[P]] : tensor<4xf32>
// CHECK:         %mm = stablehlo.multiply
// CHECK-NEXT:    %[[SETTLED:.+]] = shard.shard %[[M2]] to %[[R]] annotate_for_users : tensor<4xf32>
// CHECK-NEXT:    %var = stablehlo.subtract %[[SETTLED]], %mm : tensor<4xf32>
// CHECK-NOT:     shard.shard %var
// CHECK:         func.return %{{.+}}, %var

// -----

// A loss over a vocabulary split on `model`: lse - picked, then summed. The log-sum-exp
// waits on the settle of its sum, the picked logit does not. The difference shrinks
// before it is settled (to one scalar), but carrying it there would pay a latency of
// its own where the 8 picked logits, settled now beside the sum, cost only their bytes.
shard.grid @g(shape = 2x4)
func.func @loss(%arg: tensor<8x16xf32>, %onehot: tensor<8x16xf32>) -> tensor<f32> {
  %vocab = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x = shard.shard %arg to %vocab : tensor<8x16xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<8x16xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %lse = stablehlo.log %s : tensor<8xf32>
  %xo = stablehlo.multiply %x, %onehot : tensor<8x16xf32>
  %picked = stablehlo.reduce(%xo init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %d = stablehlo.subtract %lse, %picked : tensor<8xf32>
  %l = stablehlo.reduce(%d init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  func.return %l : tensor<f32>
}
// CHECK-LABEL: func.func @loss(
// CHECK-DAG:     %[[P:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [1] : !shard.sharding
// CHECK-DAG:     %[[R:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK:         %[[PICKED:.+]] = shard.shard %picked to %[[P]] : tensor<8xf32>
// CHECK-NEXT:    %[[SETTLED:.+]] = shard.shard %[[PICKED]] to %[[R]] annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    %d = stablehlo.subtract %lse, %[[SETTLED]] : tensor<8xf32>

// -----

// The same shape of program where the partial operand is 8 MiB per device: settling it
// now costs more than a latency, so the difference is carried partial (the whole
// operand made partial) and one scalar is settled after the sum.
shard.grid @g(shape = 2x4)
func.func @shrink(%a: tensor<2048x512xf32>, %b: tensor<512x1024xf32>) -> tensor<f32> {
  %k = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %a1 = shard.shard %a to %k : tensor<2048x512xf32>
  %rows = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %b1 = shard.shard %b to %rows : tensor<512x1024xf32>
  %p = stablehlo.dot_general %a1, %b1, contracting_dims = [1] x [0] : (tensor<2048x512xf32>, tensor<512x1024xf32>) -> tensor<2048x1024xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %sq = stablehlo.multiply %a1, %a1 : tensor<2048x512xf32>
  %s = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2048x512xf32>, tensor<f32>) -> tensor<f32>
  %n = stablehlo.sqrt %s : tensor<f32>
  %nb = stablehlo.broadcast_in_dim %n, dims = [] : (tensor<f32>) -> tensor<2048x1024xf32>
  %d = stablehlo.subtract %p, %nb : tensor<2048x1024xf32>
  %l = stablehlo.reduce(%d init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2048x1024xf32>, tensor<f32>) -> tensor<f32>
  func.return %l : tensor<f32>
}
// CHECK-LABEL: func.func @shrink(
// CHECK-DAG:     %[[P:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [1] : !shard.sharding
// CHECK-DAG:     %[[R:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK:         %[[NB:.+]] = shard.shard %nb to %[[P]] annotate_for_users : tensor<2048x1024xf32>
// CHECK-NEXT:    %d = stablehlo.subtract %{{.+}}, %[[NB]] : tensor<2048x1024xf32>
// CHECK-NEXT:    %{{.+}} = shard.shard %d to %[[P]] : tensor<2048x1024xf32>
// CHECK:         %[[L:.+]] = shard.shard %l to %[[P]] : tensor<f32>
// CHECK-NEXT:    %{{.+}} = shard.shard %[[L]] to %[[R]] annotate_for_users : tensor<f32>

// -----

// A bias waits on no settle: the dot's partial sum is carried through its add (the bias
// made partial) and settled once, as it leaves.
shard.grid @g(shape = 2x4)
func.func @bias(%arg: tensor<8x16xf32>, %w: tensor<16x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x = shard.shard %arg to %rows : tensor<8x16xf32>
  %cols = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %w1 = shard.shard %w to %cols : tensor<16x8xf32>
  %y = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %z = stablehlo.add %y, %b : tensor<8x8xf32>
  func.return %z : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @bias(
// CHECK:         %[[P:.+]] = shard.sharding @g split_axes = {{\[\[}}]] partial = sum [1] : !shard.sharding
// CHECK:         %[[B:.+]] = shard.shard %b to %[[P]] annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:    %z = stablehlo.add %{{.+}}, %[[B]] : tensor<8x8xf32>
// CHECK-NEXT:    %[[Z:.+]] = shard.shard %z to %[[P]] : tensor<8x8xf32>

// -----

// A forward dot and the backward one of its second weight both read the hidden
// activation %h, split by columns. The forward dot reads it gathered (the weight split
// by columns keeps its layout); the backward dot then reads that same gather rather
// than gathering the gradient, so the weight's gradient comes out split by columns, as
// the weight is.
shard.grid @g(shape = 2x4)
func.func @shared(%x: tensor<8x32xf32>, %w1: tensor<32x64xf32>, %w2: tensor<64x16xf32>, %dy: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<64x16xf32>) {
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %a = shard.shard %w1 to %cols : tensor<32x64xf32>
  %b = shard.shard %w2 to %cols : tensor<64x16xf32>
  %g = shard.shard %dy to %cols : tensor<8x16xf32>
  %h = stablehlo.dot_general %x, %a, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %y = stablehlo.dot_general %h, %b, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %dw = stablehlo.dot_general %h, %g, contracting_dims = [0] x [0] : (tensor<8x64xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
  func.return %y, %dw : tensor<8x16xf32>, tensor<64x16xf32>
}
// CHECK-LABEL: func.func @shared(
// CHECK-DAG:     %[[C:.+]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-DAG:     %[[R:.+]] = shard.sharding @g split_axes = {{\[\[}}]] : !shard.sharding
// CHECK:         %[[H:.+]] = shard.shard %h to %[[C]] : tensor<8x64xf32>
// CHECK-NEXT:    %[[H1:.+]] = shard.shard %[[H]] to %[[R]] annotate_for_users : tensor<8x64xf32>
// CHECK-NEXT:    %y = stablehlo.dot_general %[[H1]], %b
// CHECK:         %[[H2:.+]] = shard.shard %[[H]] to %[[R]] annotate_for_users : tensor<8x64xf32>
// CHECK-NEXT:    %dw = stablehlo.dot_general %[[H2]], %g,
// CHECK-NEXT:    %{{.+}} = shard.shard %dw to %[[C]] : tensor<64x16xf32>
