// shard.broadcast: on GPUs `stablehlo.collective_broadcast`, whose source is the first
// id of each group, so each group starts with the root's device; XLA:CPU has no such
// op (jax-xla.md §5), so target=cpu (the default) selects the root's value or zeros
// and sums over the group. scatter is that broadcast and a slice; shift a
// collective_permute.
// RUN: xshard-opt %s -p convert-shard-to-stablehlo | filecheck %s --check-prefixes=CHECK,CPU
// RUN: xshard-opt %s -p 'convert-shard-to-stablehlo{target=cpu}' | filecheck %s --check-prefixes=CHECK,CPU
// RUN: xshard-opt %s -p 'convert-shard-to-stablehlo{target=gpu}' | filecheck %s --check-prefixes=CHECK,GPU

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @broadcast_axis_1
// GPU-NOT:  stablehlo.partition_id
// GPU:      %[[B:.*]] = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[2, 0, 1, 3], [6, 4, 5, 7]]> : tensor<2x4xi64>}> : (tensor<3xf32>) -> tensor<3xf32>
// GPU-NEXT: func.return %[[B]]
// CPU:      %[[ID:.*]] = stablehlo.convert
// CPU:      %[[ROOT:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CPU:      %[[COL:.*]] = stablehlo.remainder %[[ID]], %{{.*}} : tensor<i64>
// CPU-NEXT: %[[IS:.*]] = stablehlo.compare EQ, %[[COL]], %[[ROOT]], SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CPU-NEXT: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
// CPU-NEXT: %[[M:.*]] = stablehlo.select %[[IS]], %x, %[[Z]] : tensor<i1>, tensor<3xf32>
// CPU-NEXT: %[[B:.*]] = "stablehlo.all_reduce"(%[[M]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CPU:        stablehlo.add
// CPU:      func.return %[[B]]
func.func @broadcast_axis_1(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = shard.broadcast %x on @g grid_axes = [1] root = [2] : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @broadcast_axis_0
// GPU: "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[4, 0], [5, 1], [6, 2], [7, 3]]> : tensor<4x2xi64>}>
// CPU: %[[ROOT:.*]] = stablehlo.constant dense<1> : tensor<i64>
// CPU: %[[ROW:.*]] = stablehlo.divide
// CPU: stablehlo.compare EQ, %[[ROW]], %[[ROOT]]
// CPU: "stablehlo.all_reduce"({{.*}}replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>
// Booleans combine with `or`.
// CPU:   stablehlo.or
func.func @broadcast_axis_0(%x: tensor<3xi1>) -> tensor<3xi1> {
  %0 = shard.broadcast %x on @g grid_axes = [0] root = [1] : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// Root (1, 2) of the whole grid is device 6.
// CHECK-LABEL: func.func @broadcast_both_axes
// GPU: "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[6, 0, 1, 2, 3, 4, 5, 7]]> : tensor<1x8xi64>}>
// CPU: %[[ID:.*]] = stablehlo.convert
// CPU: %[[ROOT:.*]] = stablehlo.constant dense<6> : tensor<i64>
// CPU: stablehlo.compare EQ, %[[ID]], %[[ROOT]]
// CPU: "stablehlo.all_reduce"({{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>
func.func @broadcast_both_axes(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = shard.broadcast %x on @g grid_axes = [0, 1] root = [1, 2] : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// The root's tensor reaches every device of its group, which keeps its own block.
// CHECK-LABEL: func.func @scatter
// GPU:      %[[B:.*]] = "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[3, 0, 1, 2], [7, 4, 5, 6]]> : tensor<2x4xi64>}>
// CPU:      %[[B:.*]] = "stablehlo.all_reduce"
// CHECK:    %[[COL:.*]] = stablehlo.remainder
// CHECK:    %[[OFF:.*]] = stablehlo.multiply %[[COL]], %{{.*}} : tensor<i64>
// CHECK:    stablehlo.dynamic_slice %[[B]], %[[OFF]], sizes = [2] : (tensor<8xf32>, tensor<i64>) -> tensor<2xf32>
func.func @scatter(%x: tensor<8xf32>) -> tensor<2xf32> {
  %0 = shard.scatter %x on @g grid_axes = [1] scatter_axis = 0 root = [3] : (tensor<8xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// shift: device (i, j) sends to (i, j + offset); without `rotate` the pairs that
// leave the grid are dropped (their targets get zeros, undefined in the shard dialect).
// CHECK-LABEL: func.func @shift
// CHECK:      "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[}}[0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7]]> : tensor<6x2xi64>}> : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:      "stablehlo.collective_permute"(%x) <{{{.*}}source_target_pairs = dense<{{\[}}[0, 2], [1, 3], [2, 0], [3, 1], [4, 6], [5, 7], [6, 4], [7, 5]]> : tensor<8x2xi64>}>
// CHECK:      "stablehlo.collective_permute"(%x) <{{{.*}}source_target_pairs = dense<{{\[}}[4, 0], [5, 1], [6, 2], [7, 3]]> : tensor<4x2xi64>}>
// Other grid axes of the group do not move: only shift_axis changes.
// CHECK:      "stablehlo.collective_permute"(%x) <{{{.*}}source_target_pairs = dense<{{\[}}[0, 3], [1, 0], [2, 1], [3, 2], [4, 7], [5, 4], [6, 5], [7, 6]]> : tensor<8x2xi64>}>
func.func @shift(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = shard.shift %x on @g grid_axes = [1] shift_axis = 1 offset = 1 : tensor<3xf32> -> tensor<3xf32>
  %1 = shard.shift %x on @g grid_axes = [1] shift_axis = 1 offset = 2 rotate : tensor<3xf32> -> tensor<3xf32>
  %2 = shard.shift %x on @g grid_axes = [0] shift_axis = 0 offset = -1 : tensor<3xf32> -> tensor<3xf32>
  %3 = shard.shift %x on @g grid_axes = [0, 1] shift_axis = 1 offset = -1 rotate : tensor<3xf32> -> tensor<3xf32>
  func.return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-NOT: shard.
