// StableHLO ops without a sharding model are an error at the op, naming it,
// never silently replicated; so is an op whose form its model cannot shard, and a
// collective or process id outside a shard_map body (it speaks per device).
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p sharding-propagation | filecheck %s

func.func @collective_permute(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: stablehlo-invalid.mlir:7:3: error: 'stablehlo.collective_permute' cannot be sharded: it speaks per device (it names devices), so it belongs in a shard_map body ('sdy.manual_computation'), not in the global program

// -----

func.func @custom_call(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @foo(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: stablehlo-invalid.mlir:15:3: error: 'stablehlo.custom_call' cannot be sharded: @foo is opaque to xshard (of custom calls it models JAX's host callbacks and linear algebra kernels only), so nothing says which dims it may split

// -----

func.func @partition_id() -> tensor<ui32> {
  %0 = stablehlo.partition_id : tensor<ui32>
  func.return %0 : tensor<ui32>
}
// CHECK: stablehlo-invalid.mlir:23:3: error: 'stablehlo.partition_id' cannot be sharded: it speaks per device (it names devices), so it belongs in a shard_map body ('sdy.manual_computation'), not in the global program

// -----

func.func @replica_id() -> tensor<ui32> {
  %0 = stablehlo.replica_id : tensor<ui32>
  func.return %0 : tensor<ui32>
}
// CHECK: stablehlo-invalid.mlir:31:3: error: 'stablehlo.replica_id' cannot be sharded: it speaks per device (it names devices), so it belongs in a shard_map body ('sdy.manual_computation'), not in the global program

// -----

func.func @all_gather(%x: tensor<2x4xf32>) -> tensor<2x8xf32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
  func.return %0 : tensor<2x8xf32>
}
// CHECK: stablehlo-invalid.mlir:39:3: error: 'stablehlo.all_gather' cannot be sharded: it speaks per device (it names devices), so it belongs in a shard_map body ('sdy.manual_computation'), not in the global program
