// Independent collectives of one kind over the same device groups share one bucket:
// operands flattened and concatenated, one collective, results cut back out. A
// collective that depends on another (through any chain of ops) goes in the next
// bucket; other grid axes, reductions or element types never share one.
// RUN: xshard-opt %s --split-input-file -p shard-combine-collectives | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// Three gradients: one all_reduce; the tanh of the first result waits for it.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.reshape %a : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT:    %1 = stablehlo.reshape %c : (tensor<2x4x2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %2 = stablehlo.concatenate %0, %b, %1, dim = 0 : (tensor<32xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<56xf32>
// CHECK-NEXT:    %3 = shard.all_reduce %2 on @g grid_axes = [1] : tensor<56xf32> -> tensor<56xf32>
// CHECK-NEXT:    %4 = stablehlo.slice %3 [0:32] : (tensor<56xf32>) -> tensor<32xf32>
// CHECK-NEXT:    %5 = stablehlo.reshape %4 : (tensor<32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %6 = stablehlo.slice %3 [32:40] : (tensor<56xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %7 = stablehlo.slice %3 [40:56] : (tensor<56xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %8 = stablehlo.reshape %7 : (tensor<16xf32>) -> tensor<2x4x2xf32>
// CHECK-NEXT:    %t = stablehlo.tanh %5 : tensor<4x8xf32>
// CHECK-NEXT:    func.return %t, %6, %8
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<2x4x2xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<2x4x2xf32>) {
  %0 = shard.all_reduce %a on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %t = stablehlo.tanh %0 : tensor<4x8xf32>
  %1 = shard.all_reduce %b on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %2 = shard.all_reduce %c on @g grid_axes = [1] : tensor<2x4x2xf32> -> tensor<2x4x2xf32>
  func.return %t, %1, %2 : tensor<4x8xf32>, tensor<8xf32>, tensor<2x4x2xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The second all_reduce reads the first one's result: two buckets.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-2: shard.all_reduce
// CHECK-NOT:     shard.all_reduce
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %a on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %1 = stablehlo.multiply %0, %b : tensor<8xf32>
  %2 = shard.all_reduce %1 on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  func.return %0, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// all_gathers along different dims: the bucket is gathered along dim 0, each piece
// is moved back to its own gather dim.
// CHECK-LABEL: func.func @main
// CHECK:         %[[G:.+]] = shard.all_gather %{{.+}} on @g grid_axes = [1] gather_axis = 0 : tensor<96xf32> -> tensor<384xf32>
// CHECK-NOT:     shard.all_gather
// CHECK:         stablehlo.transpose %{{.+}}, dims = [1, 0, 2, 3] : (tensor<4x2x4x8xf32>) -> tensor<2x4x4x8xf32>
func.func @main(%a: tensor<4x8xf32>, %c: tensor<2x4x8xf32>) -> (tensor<16x8xf32>, tensor<2x16x8xf32>) {
  %0 = shard.all_gather %a on @g grid_axes = [1] gather_axis = 0 : tensor<4x8xf32> -> tensor<16x8xf32>
  %1 = shard.all_gather %c on @g grid_axes = [1] gather_axis = 1 : tensor<2x4x8xf32> -> tensor<2x16x8xf32>
  func.return %0, %1 : tensor<16x8xf32>, tensor<2x16x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// reduce_scatters along different dims: each operand's chunks become rows, the rows
// are concatenated, and device k keeps row k of the bucket.
// CHECK-LABEL: func.func @main
// CHECK:         shard.reduce_scatter %{{.+}} on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<128xf32> -> tensor<16xf32>
// CHECK-NOT:     shard.reduce_scatter
func.func @main(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x1xf32>, tensor<1x8xf32>) {
  %0 = shard.reduce_scatter %a on @g grid_axes = [0, 1] scatter_axis = 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %1 = shard.reduce_scatter %b on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<8x8xf32> -> tensor<1x8xf32>
  func.return %0, %1 : tensor<8x1xf32>, tensor<1x8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Other grid axes, another reduction kind, another element type: nothing shared.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-4: shard.all_reduce
// CHECK-NOT:     stablehlo.concatenate
func.func @main(%a: tensor<8xf32>, %b: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>) {
  %0 = shard.all_reduce %a on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %a on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %2 = shard.all_reduce %a on @g grid_axes = [1] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %3 = shard.all_reduce %b on @g grid_axes = [1] : tensor<8xi32> -> tensor<8xi32>
  func.return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Two buckets that would each be fine alone would wait for each other (a1 -> b2 and
// b1 -> a2): the second pair is not formed.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-3: shard.all_
// CHECK-NOT:     shard.all_
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<32xf32>) {
  %a1 = shard.all_reduce %x on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %b1 = shard.all_gather %y on @g grid_axes = [1] gather_axis = 0 : tensor<8xf32> -> tensor<32xf32>
  %s = stablehlo.slice %b1 [0:8] : (tensor<32xf32>) -> tensor<8xf32>
  %a2 = shard.all_reduce %s on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %b2 = shard.all_gather %a1 on @g grid_axes = [1] gather_axis = 0 : tensor<8xf32> -> tensor<32xf32>
  %r = stablehlo.add %a2, %a1 : tensor<8xf32>
  func.return %r, %b2 : tensor<8xf32>, tensor<32xf32>
}

// -----

shard.grid @g(shape = 2x4)
// max-bytes bounds a bucket: 32 + 32 bytes fit in 64, the third starts a new one.
// RUN: xshard-opt %s --split-input-file -p 'shard-combine-collectives{max-bytes=64}' | filecheck %s --check-prefix=SMALL
// CHECK-LABEL: func.func @bounded
// SMALL-LABEL: func.func @bounded
// SMALL-COUNT-2: shard.all_reduce
// SMALL-NOT:     shard.all_reduce
func.func @bounded(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %a on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %b on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %2 = shard.all_reduce %c on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  func.return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
