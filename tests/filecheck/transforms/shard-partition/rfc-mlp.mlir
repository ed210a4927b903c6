// The sharding RFC's (seed 003) 1-D weight-stationary MLP on a grid of 2, in the
// fully annotated form sharding-propagation leaves (`xshard-opt examples/mlp_1d.mlir
// -p sharding-propagation`). Partition must give the RFC's "after sharding partition"
// listing: per-device arguments, one all_gather of the input, local dot_generals on
// the 8x16 and 16x8 weight blocks, and one reduce_scatter (not an all_reduce) for the
// partial result its user wants split. No annotation survives.
// RUN: xshard-opt %s -p shard-partition | filecheck %s
// RUN: xshard-opt %S/../../../../examples/mlp_1d.mlir -p sharding-propagation,shard-partition | filecheck %s

shard.grid @grid0(shape = 2)
func.func @mlp(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %0 = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
  %arg2_1 = shard.shard %arg2 to %0 : tensor<32x8xf32>
  %1 = shard.sharding @grid0 split_axes = [[], [0]] : !shard.sharding
  %arg1_1 = shard.shard %arg1 to %1 : tensor<8x32xf32>
  %s_in = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %2 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %3 = shard.sharding @grid0 split_axes = [[]] : !shard.sharding
  %4 = shard.shard %2 to %3 annotate_for_users : tensor<2x4x8xf32>
  %5 = shard.sharding @grid0 split_axes = [[], [0]] : !shard.sharding
  %6 = shard.shard %arg1_1 to %5 annotate_for_users : tensor<8x32xf32>
  %7 = stablehlo.dot_general %4, %6, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %8 = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %9 = shard.shard %7 to %8 : tensor<2x4x32xf32>
  %10 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %11 = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %12 = shard.shard %10 to %11 : tensor<2x4x32xf32>
  %13 = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %14 = shard.shard %9 to %13 annotate_for_users : tensor<2x4x32xf32>
  %15 = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %16 = shard.shard %12 to %15 annotate_for_users : tensor<2x4x32xf32>
  %17 = stablehlo.maximum %14, %16 : tensor<2x4x32xf32>
  %18 = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %19 = shard.shard %17 to %18 : tensor<2x4x32xf32>
  %20 = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %21 = shard.shard %19 to %20 annotate_for_users : tensor<2x4x32xf32>
  %22 = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
  %23 = shard.shard %arg2_1 to %22 annotate_for_users : tensor<32x8xf32>
  %24 = stablehlo.dot_general %21, %23, contracting_dims = [2] x [0] : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_partial = shard.sharding @grid0 split_axes = [[], [], []] partial = sum [0] : !shard.sharding
  %25 = shard.shard %24 to %s_partial : tensor<2x4x8xf32>
  %s_out = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %26 = shard.shard %25 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %26 : tensor<2x4x8xf32>
}

// CHECK:      shard.grid @grid0(shape = 2)
// CHECK:      func.func @mlp(%arg0: tensor<2x4x4xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16x8xf32>) -> tensor<2x4x4xf32> {
// CHECK-NEXT:   %[[X:.*]] = shard.all_gather %arg0 on @grid0 grid_axes = [0] gather_axis = 2 : tensor<2x4x4xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:   %[[H:.*]] = stablehlo.dot_general %[[X]], %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2x4x16xf32>
// CHECK-NEXT:   %[[R:.*]] = stablehlo.maximum %[[H]], %[[Z]] : tensor<2x4x16xf32>
// CHECK-NEXT:   %[[P:.*]] = stablehlo.dot_general %[[R]], %arg2, contracting_dims = [2] x [0] : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:   %[[Y:.*]] = shard.reduce_scatter %[[P]] on @grid0 grid_axes = [0] scatter_axis = 2 : tensor<2x4x8xf32> -> tensor<2x4x4xf32>
// CHECK-NEXT:   func.return %[[Y]] : tensor<2x4x4xf32>
// CHECK-NEXT: }
