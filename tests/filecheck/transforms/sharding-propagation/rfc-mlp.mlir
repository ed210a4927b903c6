// The sharding RFC's (seed 003) 1-D weight-stationary MLP, on a 1-D grid of 2 and of 8,
// with the annotations on tensors, then with the sharding option on the second
// dot_general instead of its partial result annotation. Every variant must complete
// to the RFC's "after annotation completion" listing: first dot_general split on
// its last dim, weights [[], [0]] and [[0]], second dot_general partial over axis 0.
// RUN: xshard-opt %s --split-input-file -p sharding-propagation | filecheck %s
shard.grid @grid2(shape = 2)

func.func @mlp_1d_weight_stationary(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s_in = shard.sharding @grid2 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %3 = stablehlo.maximum %1, %2 : tensor<2x4x32xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [2] x [0] : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_partial = shard.sharding @grid2 split_axes = [[], [], []] partial = sum [0] : !shard.sharding
  %5 = shard.shard %4 to %s_partial : tensor<2x4x8xf32>
  %s_out = shard.sharding @grid2 split_axes = [[], [], [0]] : !shard.sharding
  %6 = shard.shard %5 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %6 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func.func @mlp_1d_weight_stationary(
// CHECK-SAME:    %[[IN:.*]]: tensor<2x4x8xf32>, %[[W1:.*]]: tensor<8x32xf32>, %[[W2:.*]]: tensor<32x8xf32>
// The weights: W1 split on its last dim, W2 on its first.
// CHECK-DAG:   %[[S_W1:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-DAG:   %[[W1A:.*]] = shard.shard %[[W1]] to %[[S_W1]] : tensor<8x32xf32>
// CHECK-DAG:   %[[S_W2:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-DAG:   %[[W2A:.*]] = shard.shard %[[W2]] to %[[S_W2]] : tensor<32x8xf32>
// The first dot_general: input gathered, W1 as is, result split on its last dim.
// CHECK:       %[[S_X:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S_X]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[S_W1U:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:  %[[W1U:.*]] = shard.shard %[[W1A]] to %[[S_W1U]] annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:  %[[DOT1:.*]] = stablehlo.dot_general %[[X]], %[[W1U]]
// CHECK-NEXT:  %[[S_H:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[DOT1]] to %[[S_H]] : tensor<2x4x32xf32>
// The maximum stays split like its input.
// CHECK:       %[[MAX:.*]] = stablehlo.maximum
// CHECK-NEXT:  %[[S_M:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[MAX]] to %[[S_M]] : tensor<2x4x32xf32>
// The second dot_general: W2 as is, result partial over axis 0 (no all-reduce yet).
// CHECK:       %[[S_W2U:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[W2U:.*]] = shard.shard %[[W2A]] to %[[S_W2U]] annotate_for_users : tensor<32x8xf32>
// CHECK-NEXT:  %[[DOT2:.*]] = stablehlo.dot_general %{{.*}}, %[[W2U]]
// CHECK-NEXT:  %[[S_P:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], []] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[P:.*]] = shard.shard %[[DOT2]] to %[[S_P]] : tensor<2x4x8xf32>
// Its users want it split again: a reduce-scatter for the partitioner.
// CHECK-NEXT:  %[[S_OUT:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %[[OUT:.*]] = shard.shard %[[P]] to %[[S_OUT]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  func.return %[[OUT]] : tensor<2x4x8xf32>

// -----

shard.grid @grid8(shape = 8)

func.func @mlp_1d_weight_stationary(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s_in = shard.sharding @grid8 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %3 = stablehlo.maximum %1, %2 : tensor<2x4x32xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [2] x [0] : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_partial = shard.sharding @grid8 split_axes = [[], [], []] partial = sum [0] : !shard.sharding
  %5 = shard.shard %4 to %s_partial : tensor<2x4x8xf32>
  %s_out = shard.sharding @grid8 split_axes = [[], [], [0]] : !shard.sharding
  %6 = shard.shard %5 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %6 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func.func @mlp_1d_weight_stationary(
// CHECK-SAME:    %[[IN:.*]]: tensor<2x4x8xf32>, %[[W1:.*]]: tensor<8x32xf32>, %[[W2:.*]]: tensor<32x8xf32>
// The weights: W1 split on its last dim, W2 on its first.
// CHECK-DAG:   %[[S_W1:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-DAG:   %[[W1A:.*]] = shard.shard %[[W1]] to %[[S_W1]] : tensor<8x32xf32>
// CHECK-DAG:   %[[S_W2:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-DAG:   %[[W2A:.*]] = shard.shard %[[W2]] to %[[S_W2]] : tensor<32x8xf32>
// The first dot_general: input gathered, W1 as is, result split on its last dim.
// CHECK:       %[[S_X:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S_X]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[S_W1U:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:  %[[W1U:.*]] = shard.shard %[[W1A]] to %[[S_W1U]] annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:  %[[DOT1:.*]] = stablehlo.dot_general %[[X]], %[[W1U]]
// CHECK-NEXT:  %[[S_H:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[DOT1]] to %[[S_H]] : tensor<2x4x32xf32>
// The maximum stays split like its input.
// CHECK:       %[[MAX:.*]] = stablehlo.maximum
// CHECK-NEXT:  %[[S_M:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[MAX]] to %[[S_M]] : tensor<2x4x32xf32>
// The second dot_general: W2 as is, result partial over axis 0 (no all-reduce yet).
// CHECK:       %[[S_W2U:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[W2U:.*]] = shard.shard %[[W2A]] to %[[S_W2U]] annotate_for_users : tensor<32x8xf32>
// CHECK-NEXT:  %[[DOT2:.*]] = stablehlo.dot_general %{{.*}}, %[[W2U]]
// CHECK-NEXT:  %[[S_P:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], []] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[P:.*]] = shard.shard %[[DOT2]] to %[[S_P]] : tensor<2x4x8xf32>
// Its users want it split again: a reduce-scatter for the partitioner.
// CHECK-NEXT:  %[[S_OUT:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %[[OUT:.*]] = shard.shard %[[P]] to %[[S_OUT]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  func.return %[[OUT]] : tensor<2x4x8xf32>

// -----

shard.grid @grid2(shape = 2)

func.func @mlp_1d_weight_stationary_with_sharding_option(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s_in = shard.sharding @grid2 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %3 = stablehlo.maximum %1, %2 : tensor<2x4x32xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [2] x [0] {shard.sharding_option = {grid = @grid2, loops = #shard<axisarray[[], [], [], [0]]>}} : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_out = shard.sharding @grid2 split_axes = [[], [], [0]] : !shard.sharding
  %6 = shard.shard %4 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %6 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func.func @mlp_1d_weight_stationary_with_sharding_option(
// CHECK-SAME:    %[[IN:.*]]: tensor<2x4x8xf32>, %[[W1:.*]]: tensor<8x32xf32>, %[[W2:.*]]: tensor<32x8xf32>
// The weights: W1 split on its last dim, W2 on its first.
// CHECK-DAG:   %[[S_W1:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-DAG:   %[[W1A:.*]] = shard.shard %[[W1]] to %[[S_W1]] : tensor<8x32xf32>
// CHECK-DAG:   %[[S_W2:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-DAG:   %[[W2A:.*]] = shard.shard %[[W2]] to %[[S_W2]] : tensor<32x8xf32>
// The first dot_general: input gathered, W1 as is, result split on its last dim.
// CHECK:       %[[S_X:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S_X]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[S_W1U:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:  %[[W1U:.*]] = shard.shard %[[W1A]] to %[[S_W1U]] annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:  %[[DOT1:.*]] = stablehlo.dot_general %[[X]], %[[W1U]]
// CHECK-NEXT:  %[[S_H:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[DOT1]] to %[[S_H]] : tensor<2x4x32xf32>
// The maximum stays split like its input.
// CHECK:       %[[MAX:.*]] = stablehlo.maximum
// CHECK-NEXT:  %[[S_M:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[MAX]] to %[[S_M]] : tensor<2x4x32xf32>
// The second dot_general: W2 as is, result partial over axis 0 (no all-reduce yet).
// CHECK:       %[[S_W2U:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[W2U:.*]] = shard.shard %[[W2A]] to %[[S_W2U]] annotate_for_users : tensor<32x8xf32>
// CHECK-NEXT:  %[[DOT2:.*]] = stablehlo.dot_general %{{.*}}, %[[W2U]]
// CHECK-NEXT:  %[[S_P:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[P:.*]] = shard.shard %[[DOT2]] to %[[S_P]] : tensor<2x4x8xf32>
// Its users want it split again: a reduce-scatter for the partitioner.
// CHECK-NEXT:  %[[S_OUT:.*]] = shard.sharding @grid2 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %[[OUT:.*]] = shard.shard %[[P]] to %[[S_OUT]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  func.return %[[OUT]] : tensor<2x4x8xf32>

// -----

shard.grid @grid8(shape = 8)

func.func @mlp_1d_weight_stationary_with_sharding_option(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s_in = shard.sharding @grid8 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %3 = stablehlo.maximum %1, %2 : tensor<2x4x32xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [2] x [0] {shard.sharding_option = {grid = @grid8, loops = #shard<axisarray[[], [], [], [0]]>}} : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_out = shard.sharding @grid8 split_axes = [[], [], [0]] : !shard.sharding
  %6 = shard.shard %4 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %6 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func.func @mlp_1d_weight_stationary_with_sharding_option(
// CHECK-SAME:    %[[IN:.*]]: tensor<2x4x8xf32>, %[[W1:.*]]: tensor<8x32xf32>, %[[W2:.*]]: tensor<32x8xf32>
// The weights: W1 split on its last dim, W2 on its first.
// CHECK-DAG:   %[[S_W1:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-DAG:   %[[W1A:.*]] = shard.shard %[[W1]] to %[[S_W1]] : tensor<8x32xf32>
// CHECK-DAG:   %[[S_W2:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-DAG:   %[[W2A:.*]] = shard.shard %[[W2]] to %[[S_W2]] : tensor<32x8xf32>
// The first dot_general: input gathered, W1 as is, result split on its last dim.
// CHECK:       %[[S_X:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:  %[[X:.*]] = shard.shard %{{.*}} to %[[S_X]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[S_W1U:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-NEXT:  %[[W1U:.*]] = shard.shard %[[W1A]] to %[[S_W1U]] annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:  %[[DOT1:.*]] = stablehlo.dot_general %[[X]], %[[W1U]]
// CHECK-NEXT:  %[[S_H:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[DOT1]] to %[[S_H]] : tensor<2x4x32xf32>
// The maximum stays split like its input.
// CHECK:       %[[MAX:.*]] = stablehlo.maximum
// CHECK-NEXT:  %[[S_M:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %{{.*}} = shard.shard %[[MAX]] to %[[S_M]] : tensor<2x4x32xf32>
// The second dot_general: W2 as is, result partial over axis 0 (no all-reduce yet).
// CHECK:       %[[S_W2U:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:  %[[W2U:.*]] = shard.shard %[[W2A]] to %[[S_W2U]] annotate_for_users : tensor<32x8xf32>
// CHECK-NEXT:  %[[DOT2:.*]] = stablehlo.dot_general %{{.*}}, %[[W2U]]
// CHECK-NEXT:  %[[S_P:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}]] partial = sum [0] : !shard.sharding
// CHECK-NEXT:  %[[P:.*]] = shard.shard %[[DOT2]] to %[[S_P]] : tensor<2x4x8xf32>
// Its users want it split again: a reduce-scatter for the partitioner.
// CHECK-NEXT:  %[[S_OUT:.*]] = shard.sharding @grid8 split_axes = {{\[\[}}], [], [0]] : !shard.sharding
// CHECK-NEXT:  %[[OUT:.*]] = shard.shard %[[P]] to %[[S_OUT]] annotate_for_users : tensor<2x4x8xf32>
// CHECK-NEXT:  func.return %[[OUT]] : tensor<2x4x8xf32>
