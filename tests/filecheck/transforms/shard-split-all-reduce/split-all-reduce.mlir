// An all_reduce over several grid axes is split into one per axis where each piece can
// ride along with an independent all_reduce over that axis (XLA's combiner then merges
// them): the pieces go in the order of their partners. Left alone: no partner over an
// axis, a partner that depends on the op, and a value too large for the cost model.
// RUN: xshard-opt %s --split-input-file -p shard-split-all-reduce | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// A loss partial over both axes, a vocabulary sum over [1], gradients over [0].
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %loss on @g grid_axes = [1] : tensor<f32> -> tensor<f32>
// CHECK-NEXT:    %2 = shard.all_reduce %1 on @g grid_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK-NEXT:    %3 = shard.all_reduce %grad on @g grid_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %0, %2, %3
func.func @main(%v: tensor<4x8xf32>, %loss: tensor<f32>, %grad: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>, tensor<8x8xf32>) {
  %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %loss on @g grid_axes = [0, 1] : tensor<f32> -> tensor<f32>
  %2 = shard.all_reduce %grad on @g grid_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
  func.return %0, %1, %2 : tensor<4x8xf32>, tensor<f32>, tensor<8x8xf32>
}

// -----

shard.grid @g(shape = 2x4)
// No all_reduce over axis 0 alone: nothing to ride along with.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %loss on @g grid_axes = [0, 1] : tensor<f32> -> tensor<f32>
func.func @main(%v: tensor<4x8xf32>, %loss: tensor<f32>) -> (tensor<4x8xf32>, tensor<f32>) {
  %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %loss on @g grid_axes = [0, 1] : tensor<f32> -> tensor<f32>
  func.return %0, %1 : tensor<4x8xf32>, tensor<f32>
}

// -----

shard.grid @g(shape = 2x4)
// The only all_reduce over axis 0 reads the op's result: merged, it would wait for it.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %loss on @g grid_axes = [0, 1] : tensor<f32> -> tensor<f32>
func.func @main(%v: tensor<4x8xf32>, %loss: tensor<f32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %loss on @g grid_axes = [0, 1] : tensor<f32> -> tensor<f32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %3 = shard.all_reduce %2 on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  func.return %0, %3 : tensor<4x8xf32>, tensor<4xf32>
}

// -----

shard.grid @g(shape = 2x4)
// 32 MiB per device: the pieces would move more bytes than the latency they save.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %big on @g grid_axes = [0, 1] : tensor<8192x1024xf32> -> tensor<8192x1024xf32>
func.func @main(%v: tensor<4x8xf32>, %big: tensor<8192x1024xf32>, %grad: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8192x1024xf32>, tensor<8x8xf32>) {
  %0 = shard.all_reduce %v on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %big on @g grid_axes = [0, 1] : tensor<8192x1024xf32> -> tensor<8192x1024xf32>
  %2 = shard.all_reduce %grad on @g grid_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
  func.return %0, %1, %2 : tensor<4x8xf32>, tensor<8192x1024xf32>, tensor<8x8xf32>
}
