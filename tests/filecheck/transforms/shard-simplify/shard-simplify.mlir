// shard-simplify: the rewrites of shard-fold-all-reduce, shard-reassociate-all-reduce,
// shard-reassociate-reduce-scatter, shard-move-all-gather-down,
// shard-cancel-inverse-pairs and shard-fuse-reduce-scatter to a fixed point, plus
// grid_shape folding and the removal of collectives over a single device.
// RUN: xshard-opt %s --split-input-file -p shard-simplify | filecheck %s

// numerics
shard.grid @g(shape = 2x4)
// The gather moves below the narrowing convert, then meets the slice and both go.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = stablehlo.convert %x : (tensor<4x2xf32>) -> tensor<4x2xf16>
// CHECK-NEXT:    func.return %0 : tensor<4x2xf16>
func.func @main(%x: tensor<4x2xf32>) -> tensor<4x2xf16> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %1 = stablehlo.convert %0 : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %2 = shard.all_slice %1 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf16> -> tensor<4x2xf16>
  func.return %2 : tensor<4x2xf16>
}

// -----

// numerics
shard.grid @g(shape = 2x4)
// Two all-reduces meet at an add (reassociated into one), whose result is sliced:
// one reduce_scatter.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %x, %y : tensor<8x4xf32>
// CHECK-NEXT:    %[[RS:.*]] = shard.reduce_scatter %[[A]] on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<8x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT:    func.return %[[RS]]
func.func @main(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<1x4xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0, 1] : tensor<8x4xf32> -> tensor<8x4xf32>
  %1 = shard.all_reduce %y on @g grid_axes = [0, 1] : tensor<8x4xf32> -> tensor<8x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x4xf32>
  %3 = shard.all_slice %2 on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8x4xf32> -> tensor<1x4xf32>
  func.return %3 : tensor<1x4xf32>
}

// -----

// numerics
shard.grid @g(shape = 1x8)
// Collectives over one device (axis 0 has size 1, or no axes) are their input.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    func.return %x : tensor<8x4xf32>
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %1 = shard.all_gather %0 on @g grid_axes = [0] gather_axis = 1 : tensor<8x4xf32> -> tensor<8x4xf32>
  %2 = shard.all_to_all %1 on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x4xf32> -> tensor<8x4xf32>
  %3 = shard.all_slice %2 on @g slice_axis = 0 : tensor<8x4xf32> -> tensor<8x4xf32>
  func.return %3 : tensor<8x4xf32>
}

// -----

shard.grid @g(shape = 1x8)
// Negative: an all_reduce over one device that changes the element type converts.
// CHECK-LABEL: func.func @accumulate
// CHECK-NEXT:    %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf64>
func.func @accumulate(%x: tensor<8xf32>) -> tensor<8xf64> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf64>
  func.return %0 : tensor<8xf64>
}

// -----

shard.grid @g(shape = 2x4)
shard.grid @d(shape = 2x?x4)
// grid_shape of static axes folds to constants; dynamic axes are still queried.
// CHECK-LABEL: func.func @grid_shape
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[D:.*]] = shard.grid_shape @d axes = [1] : index
// CHECK-NEXT:    %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C2B:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[D2:.*]] = shard.grid_shape @d axes = [1] : index
// CHECK-NEXT:    func.return %[[C2]], %[[C4]], %[[D]], %[[C4B]], %[[C2B]], %[[D2]]
func.func @grid_shape() -> (index, index, index, index, index, index) {
  %0:2 = shard.grid_shape @g : index, index
  %1:3 = shard.grid_shape @d axes = [1, 2, 0] : index, index, index
  %2 = shard.grid_shape @d axes = [1] : index
  func.return %0#0, %0#1, %1#0, %1#1, %1#2, %2 : index, index, index, index, index, index
}

// -----

shard.grid @g(shape = 2x4)
// Negative: nothing to simplify (the argument is not replicated, the all_reduce has
// two uses, the max does not distribute over sum).
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:    %0 = shard.all_slice %x
// CHECK-NEXT:    %1 = shard.all_gather %0
// CHECK-NEXT:    %2 = shard.all_reduce %1
// CHECK-NEXT:    %3 = stablehlo.maximum %2, %2
// CHECK-NEXT:    %4 = shard.all_slice %3
func.func @unchanged(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %1 = shard.all_gather %0 on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %2 = shard.all_reduce %1 on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = stablehlo.maximum %2, %2 : tensor<4x8xf32>
  %4 = shard.all_slice %3 on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  func.return %4 : tensor<4x2xf32>
}

// -----

shard.grid @g(shape = 2x4)
// bucket-bytes bounds shard-combine-collectives' buckets: 32 + 32 bytes fit in 64,
// the third reduce_scatter starts a new bucket (xshard-spmd passes 1/32 of
// auto-sharding's memory-limit).
// RUN: xshard-opt %s --split-input-file -p 'shard-simplify{bucket-bytes=64}' | filecheck %s --check-prefix=BUCKET
// CHECK-LABEL: func.func @bounded_buckets
// BUCKET-LABEL: func.func @bounded_buckets
// BUCKET-COUNT-2: shard.reduce_scatter
// BUCKET-NOT:     shard.reduce_scatter
func.func @bounded_buckets(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = shard.reduce_scatter %a on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %1 = shard.reduce_scatter %b on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %2 = shard.reduce_scatter %c on @g grid_axes = [1] scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  func.return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
