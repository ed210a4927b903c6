// Each collective on a 2x4 grid over axis 0, axis 1 and both: replica_groups are the
// device groups of grid_axes (same coordinates off the axes, ordered by grid_axes[0]
// first), every op has channel handle 1, and all_reduce / all_gather /
// reduce_scatter use global device ids (partition mode, jax-xla.md §3).
// RUN: xshard-opt %s -p convert-shard-to-stablehlo | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK:      builtin.module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NOT:  shard.grid

// CHECK-LABEL: func.func @all_reduce
func.func @all_reduce(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK:      %[[A0:.*]] = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
  // CHECK-NEXT: ^{{.*}}(%[[L:.*]]: tensor<f32>, %[[R:.*]]: tensor<f32>):
  // CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[L]], %[[R]] : tensor<f32>
  // CHECK-NEXT:   stablehlo.return %[[S]] : tensor<f32>
  // CHECK-NEXT: }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK:      %[[A1:.*]] = "stablehlo.all_reduce"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
  // CHECK:        stablehlo.maximum
  %1 = shard.all_reduce %x on @g grid_axes = [1] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK:      %[[A2:.*]] = "stablehlo.all_reduce"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
  // CHECK:        stablehlo.minimum
  %2 = shard.all_reduce %x on @g grid_axes = [0, 1] reduction = min : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK:      func.return %[[A0]], %[[A1]], %[[A2]]
  func.return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// grid_axes = [1, 0]: axis 1 is the outer one, so the group runs down each column in
// turn: (0,0), (1,0), (0,1), (1,1), ...
// CHECK-LABEL: func.func @all_reduce_axes_reversed
func.func @all_reduce_axes_reversed(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: replica_groups = dense<{{\[}}[0, 4, 1, 5, 2, 6, 3, 7]]> : tensor<1x8xi64>
  // CHECK: stablehlo.multiply
  %0 = shard.all_reduce %x on @g grid_axes = [1, 0] reduction = product : tensor<4xi32> -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// The accumulation type of all_reduce may differ from the operand's: convert first.
// average is a sum divided by the group size.
// CHECK-LABEL: func.func @all_reduce_types
func.func @all_reduce_types(%x: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK:      %[[C:.*]] = stablehlo.convert %x : (tensor<4xbf16>) -> tensor<4xf32>
  // CHECK-NEXT: "stablehlo.all_reduce"(%[[C]])
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4xbf16> -> tensor<4xf32>
  // CHECK:      %[[SUM:.*]] = "stablehlo.all_reduce"
  // CHECK:      %[[N:.*]] = stablehlo.constant dense<4.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: %{{.*}} = stablehlo.divide %[[SUM]], %[[N]] : tensor<4xf32>
  %1 = shard.all_reduce %x on @g grid_axes = [1] reduction = average : tensor<4xbf16> -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// XLA's all_reduce / reduce_scatter take sum, product, min and max bodies only (and
// `and` / `or` on i1): other bitwise kinds gather the group's values on a new leading
// dim and reduce them locally.
// CHECK-LABEL: func.func @bitwise
func.func @bitwise(%y: tensor<4xi8>, %b: tensor<4xi1>, %z: tensor<8xui32>) -> (tensor<4xi8>, tensor<4xi1>, tensor<2xui32>) {
  // CHECK:      %[[Y1:.*]] = stablehlo.reshape %y : (tensor<4xi8>) -> tensor<1x4xi8>
  // CHECK-NEXT: %[[YS:.*]] = "stablehlo.all_gather"(%[[Y1]]) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<1x4xi8>) -> tensor<2x4xi8>
  // CHECK-NEXT: %[[I0:.*]] = stablehlo.constant dense<0> : tensor<i8>
  // CHECK-NEXT: %[[X:.*]] = stablehlo.reduce(%[[YS]] init: %[[I0]]) applies stablehlo.xor across dimensions = [0] : (tensor<2x4xi8>, tensor<i8>) -> tensor<4xi8>
  %0 = shard.all_reduce %y on @g grid_axes = [0] reduction = bitwise_xor : tensor<4xi8> -> tensor<4xi8>
  // CHECK:      %[[O:.*]] = "stablehlo.all_reduce"(%b)
  // CHECK:        stablehlo.or
  %1 = shard.all_reduce %b on @g grid_axes = [0] reduction = bitwise_or : tensor<4xi1> -> tensor<4xi1>
  // reduce_scatter: the same, then this device's block.
  // CHECK:      "stablehlo.all_gather"({{.*}} : (tensor<1x8xui32>) -> tensor<4x8xui32>
  // CHECK-NEXT: %[[ONES:.*]] = stablehlo.constant dense<4294967295> : tensor<ui32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.reduce(%{{.*}} init: %[[ONES]]) applies stablehlo.and across dimensions = [0]
  // CHECK:      %[[S:.*]] = stablehlo.dynamic_slice %[[A]], %{{.*}}, sizes = [2] : (tensor<8xui32>, tensor<i64>) -> tensor<2xui32>
  %2 = shard.reduce_scatter %z on @g grid_axes = [1] reduction = bitwise_and scatter_axis = 0 : tensor<8xui32> -> tensor<2xui32>
  // CHECK:      func.return %[[X]], %[[O]], %[[S]]
  func.return %0, %1, %2 : tensor<4xi8>, tensor<4xi1>, tensor<2xui32>
}

// CHECK-LABEL: func.func @all_gather
func.func @all_gather(%x: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<2x12xf32>, tensor<16x3xf32>) {
  // CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<2x3xf32>) -> tensor<4x3xf32>
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
  // CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2x3xf32>) -> tensor<2x12xf32>
  %1 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<2x3xf32> -> tensor<2x12xf32>
  // Two axes on one dim gather over the combined group.
  // CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<2x3xf32>) -> tensor<16x3xf32>
  %2 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<2x3xf32> -> tensor<16x3xf32>
  func.return %0, %1, %2 : tensor<4x3xf32>, tensor<2x12xf32>, tensor<16x3xf32>
}

// CHECK-LABEL: func.func @reduce_scatter
func.func @reduce_scatter(%x: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8x2xf32>, tensor<1x8xf32>) {
  // CHECK: "stablehlo.reduce_scatter"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  // CHECK:   stablehlo.add
  // CHECK: }) : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %0 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<8x8xf32> -> tensor<4x8xf32>
  // CHECK: "stablehlo.reduce_scatter"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
  // CHECK:   stablehlo.maximum
  // CHECK: }) : (tensor<8x8xf32>) -> tensor<8x2xf32>
  %1 = shard.reduce_scatter %x on @g grid_axes = [1] reduction = max scatter_axis = 1 : tensor<8x8xf32> -> tensor<8x2xf32>
  // CHECK: "stablehlo.reduce_scatter"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  %2 = shard.reduce_scatter %x on @g grid_axes = [0, 1] scatter_axis = 0 : tensor<8x8xf32> -> tensor<1x8xf32>
  func.return %0, %1, %2 : tensor<4x8xf32>, tensor<8x2xf32>, tensor<1x8xf32>
}

// all_to_all has no use_global_device_ids (its groups are partition ids already).
// CHECK-LABEL: func.func @all_to_all
func.func @all_to_all(%x: tensor<8x8xf32>) -> (tensor<4x16xf32>, tensor<32x2xf32>, tensor<1x64xf32>) {
  // CHECK: "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<8x8xf32>) -> tensor<4x16xf32>
  %0 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x8xf32> -> tensor<4x16xf32>
  // CHECK: "stablehlo.all_to_all"(%x) <{{{.*}}concat_dimension = 0 : i64, replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<8x8xf32>) -> tensor<32x2xf32>
  %1 = shard.all_to_all %x on @g grid_axes = [1] split_axis = 1 concat_axis = 0 : tensor<8x8xf32> -> tensor<32x2xf32>
  // CHECK: "stablehlo.all_to_all"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, split_count = 8 : i64, split_dimension = 0 : i64}> : (tensor<8x8xf32>) -> tensor<1x64xf32>
  %2 = shard.all_to_all %x on @g grid_axes = [0, 1] split_axis = 0 concat_axis = 1 : tensor<8x8xf32> -> tensor<1x64xf32>
  func.return %0, %1, %2 : tensor<4x16xf32>, tensor<32x2xf32>, tensor<1x64xf32>
}

// The rooted reduce and gather define their result on the root only: the all-device
// forms compute it there (and everywhere else).
// CHECK-LABEL: func.func @rooted
func.func @rooted(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x12xf32>) {
  // CHECK: "stablehlo.all_reduce"(%x) <{{{.*}}replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]>
  // CHECK:   stablehlo.maximum
  %0 = shard.reduce %x on @g grid_axes = [0] reduction = max root = [1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]>
  %1 = shard.gather %x on @g grid_axes = [1] gather_axis = 1 root = [2] : (tensor<2x3xf32>) -> tensor<2x12xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<2x12xf32>
}

// CHECK-NOT: shard.
