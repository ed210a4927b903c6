// Independent all_gathers (reduce_scatters) over the same device groups share one
// bucket: operands flattened (cut into one row per device) and concatenated, one
// collective, results cut back out. A collective that depends on another (through any
// chain of ops) goes in the next bucket; other grid axes, reductions or element types
// never share one. All_reduces are left apart: XLA combines them itself, with no bucket
// to copy.
// RUN: xshard-opt %s --split-input-file -p shard-combine-collectives | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// Three reduce_scatters along different dims: one reduce_scatter; device k keeps row
// k of the bucket. The tanh of the first result waits for it.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.reshape %a : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
// CHECK-NEXT:    %1 = stablehlo.transpose %0, dims = [1, 0, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
// CHECK-NEXT:    %2 = stablehlo.reshape %1 : (tensor<8x8x1xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %3 = stablehlo.reshape %b : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
// CHECK-NEXT:    %4 = stablehlo.reshape %3 : (tensor<8x1x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %5 = stablehlo.reshape %c : (tensor<16xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %6 = stablehlo.concatenate %2, %4, %5, dim = 1 : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x2xf32>) -> tensor<8x18xf32>
// CHECK-NEXT:    %7 = stablehlo.reshape %6 : (tensor<8x18xf32>) -> tensor<144xf32>
// CHECK-NEXT:    %8 = shard.reduce_scatter %7 on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<144xf32> -> tensor<18xf32>
// CHECK-NEXT:    %9 = stablehlo.slice %8 [0:8] : (tensor<18xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %10 = stablehlo.reshape %9 : (tensor<8xf32>) -> tensor<8x1xf32>
// CHECK-NEXT:    %11 = stablehlo.slice %8 [8:16] : (tensor<18xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %12 = stablehlo.reshape %11 : (tensor<8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %13 = stablehlo.slice %8 [16:18] : (tensor<18xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %t = stablehlo.tanh %10 : tensor<8x1xf32>
// CHECK-NEXT:    func.return %t, %12, %13
func.func @main(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<16xf32>) -> (tensor<8x1xf32>, tensor<1x8xf32>, tensor<2xf32>) {
  %0 = shard.reduce_scatter %a on @g grid_axes = [0, 1] scatter_axis = 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %t = stablehlo.tanh %0 : tensor<8x1xf32>
  %1 = shard.reduce_scatter %b on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<8x8xf32> -> tensor<1x8xf32>
  %2 = shard.reduce_scatter %c on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<16xf32> -> tensor<2xf32>
  func.return %t, %1, %2 : tensor<8x1xf32>, tensor<1x8xf32>, tensor<2xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// The second reduce_scatter reads the first one's result: two buckets.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-2: shard.reduce_scatter
// CHECK-NOT:     shard.reduce_scatter
func.func @main(%a: tensor<16xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  %0 = shard.reduce_scatter %a on @g grid_axes = [1] scatter_axis = 0 : tensor<16xf32> -> tensor<4xf32>
  %1 = stablehlo.multiply %0, %b : tensor<4xf32>
  %2 = shard.reduce_scatter %1 on @g grid_axes = [1] scatter_axis = 0 : tensor<4xf32> -> tensor<1xf32>
  func.return %0, %2 : tensor<4xf32>, tensor<1xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Other grid axes, another reduction kind, another element type: nothing shared.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-4: shard.reduce_scatter
// CHECK-NOT:     stablehlo.concatenate
func.func @main(%a: tensor<8xf32>, %b: tensor<8xi32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xi32>) {
  %0 = shard.reduce_scatter %a on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %1 = shard.reduce_scatter %a on @g grid_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %2 = shard.reduce_scatter %a on @g grid_axes = [1] reduction = max scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %3 = shard.reduce_scatter %b on @g grid_axes = [1] scatter_axis = 0 : tensor<8xi32> -> tensor<2xi32>
  func.return %0, %1, %2, %3 : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xi32>
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
// All_reduces stay as they are: XLA's all-reduce combiner makes one tuple all-reduce.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    shard.all_reduce %a
// CHECK-NEXT:    shard.all_reduce %b
// CHECK-NEXT:    func.return
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_reduce %a on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %b on @g grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  func.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Two buckets that would each be fine alone would wait for each other (a1 -> b2 and
// b1 -> a2): the second pair is not formed.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-3: shard.{{all_gather|reduce_scatter}}
// CHECK-NOT:     shard.{{all_gather|reduce_scatter}}
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<32xf32>) {
  %a1 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %b1 = shard.all_gather %y on @g grid_axes = [1] gather_axis = 0 : tensor<8xf32> -> tensor<32xf32>
  %s = stablehlo.slice %b1 [0:8] : (tensor<32xf32>) -> tensor<8xf32>
  %a2 = shard.reduce_scatter %s on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %b2 = shard.all_gather %a1 on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  %r = stablehlo.add %a2, %a1 : tensor<2xf32>
  %t = stablehlo.concatenate %r, %r, %r, %r, dim = 0 : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<8xf32>
  %u = stablehlo.add %t, %b2 : tensor<8xf32>
  func.return %u, %b1 : tensor<8xf32>, tensor<32xf32>
}

// -----

shard.grid @g(shape = 2x4)
// max-bytes bounds a bucket: 32 + 32 bytes fit in 64, the third starts a new one.
// RUN: xshard-opt %s --split-input-file -p 'shard-combine-collectives{max-bytes=64}' | filecheck %s --check-prefix=SMALL
// CHECK-LABEL: func.func @bounded
// SMALL-LABEL: func.func @bounded
// SMALL-COUNT-2: shard.reduce_scatter
// SMALL-NOT:     shard.reduce_scatter
func.func @bounded(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = shard.reduce_scatter %a on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %1 = shard.reduce_scatter %b on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %2 = shard.reduce_scatter %c on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  func.return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

shard.grid @g(shape = 2x4)
// An all_gather counts its result against max-bytes, which the bucket holds whole:
// 32 + 32 bytes fit in 64 (their inputs, 8 bytes each, would all fit), the third
// starts a new bucket.
// CHECK-LABEL: func.func @bounded_gathers
// SMALL-LABEL: func.func @bounded_gathers
// SMALL-COUNT-2: shard.all_gather
// SMALL-NOT:     shard.all_gather
func.func @bounded_gathers(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = shard.all_gather %a on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  %1 = shard.all_gather %b on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  %2 = shard.all_gather %c on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  func.return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
