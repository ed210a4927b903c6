// xshard-spmd runs sharding-propagation, shard-partition and convert-shard-to-stablehlo:
// a global Megatron-style MLP on 2 devices becomes the per-device StableHLO with one
// all_reduce. With arguments=global the weights arrive whole and each device slices
// its block (partition_id arithmetic and a dynamic_slice).
// RUN: xshard-opt %s -p xshard-spmd | filecheck %s
// RUN: xshard-opt %s -p 'xshard-spmd{arguments=global target=cpu traversal=backward}' | filecheck %s --check-prefix=GLOBAL

shard.grid @tp(shape = 2)

func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %w1_s = shard.shard %w1 to %col : tensor<8x16xf32>
  %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %w2_s = shard.shard %w2 to %row : tensor<16x8xf32>
  %h = stablehlo.dot_general %x, %w1_s, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = stablehlo.tanh %h : tensor<4x16xf32>
  %y = stablehlo.dot_general %a, %w2_s, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %rep = shard.sharding @tp split_axes = [[]] : !shard.sharding
  %y_s = shard.shard %y to %rep annotate_for_users : tensor<4x8xf32>
  func.return %y_s : tensor<4x8xf32>
}

// CHECK:      builtin.module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   func.func @main(%x: tensor<4x8xf32> {mhlo.sharding = "{manual}"}, %w1: tensor<8x8xf32> {mhlo.sharding = "{manual}"}, %w2: tensor<8x8xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x8xf32> {mhlo.sharding = "{manual}"}) {
// CHECK-NEXT:     %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %1 = stablehlo.tanh %0 : tensor<4x8xf32>
// CHECK-NEXT:     %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
// CHECK:          }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     func.return %3 : tensor<4x8xf32>
// CHECK-NOT:    shard.

// GLOBAL:      func.func @main(%x: tensor<4x8xf32> {mhlo.sharding = "{manual}"}, %w1: tensor<8x16xf32> {mhlo.sharding = "{manual}"}, %w2: tensor<16x8xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x8xf32> {mhlo.sharding = "{manual}"}) {
// GLOBAL-NEXT:   %0 = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// GLOBAL:        stablehlo.dynamic_slice %w1, {{.*}} sizes = [8, 8] : (tensor<8x16xf32>, tensor<i64>, tensor<i64>) -> tensor<8x8xf32>
// GLOBAL:        stablehlo.dynamic_slice %w2, {{.*}} sizes = [8, 8] : (tensor<16x8xf32>, tensor<i64>, tensor<i64>) -> tensor<8x8xf32>
// GLOBAL:        "stablehlo.all_reduce"
// GLOBAL-NOT:    "stablehlo.all_reduce"
