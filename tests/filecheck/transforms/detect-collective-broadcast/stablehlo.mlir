// detect-collective-broadcast at the StableHLO level, on what JAX emits inside
// shard_map for `psum(where(axis_index(a) == r, x, 0), a)` (the body of its
// manual computation, with jnp.where's private function inlined): with target=gpu
// the all_reduce becomes a collective_broadcast over the same groups, each
// starting with its source. With target=cpu (the default) nothing changes:
// XLA:CPU cannot run collective_broadcast.
// RUN: xshard-opt %s --split-input-file -p 'detect-collective-broadcast{target=gpu}' | filecheck %s
// RUN: xshard-opt %s --split-input-file -p detect-collective-broadcast | filecheck %s --check-prefix=CPU

// CPU-NOT: stablehlo.collective_broadcast

// JAX's jnp.where form on a 2x4 mesh, axis "y" (size 4), root 2.
// CHECK-LABEL: func.func public @jax_where
// CHECK:         %[[B:.*]] = "stablehlo.collective_broadcast"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[2, 0, 1, 3], [6, 4, 5, 7]]> : tensor<2x4xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[B]]
module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @jax_where(%arg1: tensor<8xf32>) -> tensor<8xf32> {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %1 = stablehlo.partition_id : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %5 = stablehlo.compare EQ, %4, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %w0 = stablehlo.convert %cst : tensor<f32>
    %w1 = stablehlo.broadcast_in_dim %w0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.select %5, %arg1, %w1 : tensor<i1>, tensor<8xf32>
    %7 = "stablehlo.all_reduce"(%6) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %8 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %7 : tensor<8xf32>
  }
}

// -----

// JAX's one-hot form, `psum(x * (axis_index("y") == 1), "y")`.
// CHECK-LABEL: func.func public @jax_one_hot
// CHECK:         "stablehlo.collective_broadcast"(%arg1) <{{{.*}}replica_groups = dense<{{\[}}[1, 0, 2, 3], [5, 4, 6, 7]]> : tensor<2x4xi64>}>
module @jit_body2 attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @jax_one_hot(%arg1: tensor<8xf32>) -> tensor<8xf32> {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %1 = stablehlo.partition_id : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %5 = stablehlo.compare EQ, %4, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %5 : (tensor<i1>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.multiply %arg1, %7 : tensor<8xf32>
    %9 = "stablehlo.all_reduce"(%8) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %10 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %10 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %9 : tensor<8xf32>
  }
}

// -----

// Over both mesh axes, root 5: JAX's linearised axis_index(("x", "y")).
// CHECK-LABEL: func.func public @jax_both_axes
// CHECK:         "stablehlo.collective_broadcast"(%arg1) <{{{.*}}replica_groups = dense<{{\[}}[5, 0, 1, 2, 3, 4, 6, 7]]> : tensor<1x8xi64>}>
module @jit_body3 attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @jax_both_axes(%arg1: tensor<8xf32>) -> tensor<8xf32> {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %1 = stablehlo.partition_id : tensor<ui32>
    %2 = stablehlo.divide %1, %c : tensor<ui32>
    %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
    %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %5 = stablehlo.multiply %4, %c_1 : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.add %c_2, %5 : tensor<i32>
    %c_3 = stablehlo.constant dense<4> : tensor<ui32>
    %c_4 = stablehlo.constant dense<2> : tensor<ui32>
    %7 = stablehlo.partition_id : tensor<ui32>
    %8 = stablehlo.divide %7, %c_3 : tensor<ui32>
    %9 = stablehlo.remainder %8, %c_4 : tensor<ui32>
    %10 = stablehlo.convert %9 : (tensor<ui32>) -> tensor<i32>
    %c_5 = stablehlo.constant dense<4> : tensor<i32>
    %11 = stablehlo.multiply %10, %c_5 : tensor<i32>
    %12 = stablehlo.add %6, %11 : tensor<i32>
    %c_6 = stablehlo.constant dense<5> : tensor<i32>
    %13 = stablehlo.compare EQ, %12, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
    %14 = stablehlo.select %13, %arg1, %cst : tensor<i1>, tensor<8xf32>
    %15 = "stablehlo.all_reduce"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %16 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %16 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %15 : tensor<8xf32>
  }
}

// -----

// Each group may have its own source: collective_broadcast takes any group order.
// This is a CPU stand-in with a table of sources read at partition_id, for sources
// 3 and 6, turned back into the broadcast it stands for.
// CHECK-LABEL: func.func @fallback_table
// CHECK:         %[[B:.*]] = "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[3, 0, 1, 2], [6, 4, 5, 7]]> : tensor<2x4xi64>}>
// CHECK-NEXT:    func.return %[[B]]
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @fallback_table(%x: tensor<2xf32>) -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %index = stablehlo.convert %pid : (tensor<ui32>) -> tensor<i32>
    %sources = stablehlo.constant dense<[false, false, false, true, false, false, true, false]> : tensor<8xi1>
    %slot = stablehlo.dynamic_slice %sources, %index, sizes = [1] : (tensor<8xi1>, tensor<i32>) -> tensor<1xi1>
    %is_source = stablehlo.reshape %slot : (tensor<1xi1>) -> tensor<i1>
    %zeros = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
    %masked = stablehlo.select %is_source, %x, %zeros : tensor<i1>, tensor<2xf32>
    %b = "stablehlo.all_reduce"(%masked) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %b : tensor<2xf32>
  }
}

// -----

// Negative cases: the all_reduce stays.
// CHECK-LABEL: func.func @max_body
// CHECK-NOT:     stablehlo.collective_broadcast
// CHECK:         "stablehlo.all_reduce"
// CHECK-LABEL: func.func @nonzero_false_branch
// CHECK-NOT:     stablehlo.collective_broadcast
// CHECK:         "stablehlo.all_reduce"
// CHECK-LABEL: func.func @mask_across_groups
// CHECK-NOT:     stablehlo.collective_broadcast
// CHECK:         "stablehlo.all_reduce"
// CHECK-LABEL: func.func @root_from_argument
// CHECK-NOT:     stablehlo.collective_broadcast
// CHECK:         "stablehlo.all_reduce"
// CHECK-LABEL: func.func @replica_ids
// CHECK-NOT:     stablehlo.collective_broadcast
// CHECK:         "stablehlo.all_reduce"
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  // max(select(root, x, 0)) over the group is max(x, 0) on the root's value.
  func.func @max_body(%x: tensor<2xf32>) -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %two = stablehlo.constant dense<2> : tensor<ui32>
    %p = stablehlo.compare EQ, %pid, %two, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %z = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
    %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<2xf32>
    %b = "stablehlo.all_reduce"(%m) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.maximum %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %b : tensor<2xf32>
  }
  // The others contribute ones.
  func.func @nonzero_false_branch(%x: tensor<2xf32>) -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %two = stablehlo.constant dense<2> : tensor<ui32>
    %p = stablehlo.compare EQ, %pid, %two, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %z = stablehlo.constant dense<1.000000e+00> : tensor<2xf32>
    %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<2xf32>
    %b = "stablehlo.all_reduce"(%m) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %b : tensor<2xf32>
  }
  // Device 2 is the only source, but the groups are the columns: the other three
  // columns have none (they would sum to zeros, which is no broadcast).
  func.func @mask_across_groups(%x: tensor<2xf32>) -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %two = stablehlo.constant dense<2> : tensor<ui32>
    %p = stablehlo.compare EQ, %pid, %two, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %z = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
    %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<2xf32>
    %b = "stablehlo.all_reduce"(%m) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %b : tensor<2xf32>
  }
  // The root is an argument.
  func.func @root_from_argument(%x: tensor<2xf32>, %root: tensor<ui32>) -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %p = stablehlo.compare EQ, %pid, %root, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %z = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
    %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<2xf32>
    %b = "stablehlo.all_reduce"(%m) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %b : tensor<2xf32>
  }
  // Without a channel the groups hold replica ids, not the partition ids the
  // mask reads.
  func.func @replica_ids(%x: tensor<2xf32>) -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %two = stablehlo.constant dense<0> : tensor<ui32>
    %p = stablehlo.compare EQ, %pid, %two, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %z = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
    %m = stablehlo.select %p, %x, %z : tensor<i1>, tensor<2xf32>
    %b = "stablehlo.all_reduce"(%m) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %b : tensor<2xf32>
  }
}
