// Independent all_gathers over the same groups and dim, whatever their element
// types: one variadic all_gather, no buffer between. The tanh waits for it.
// RUN: xshard-opt %s --split-input-file -p stablehlo-combine-collectives | filecheck %s
// RUN: xshard-opt %s --split-input-file -p 'stablehlo-combine-collectives{all-reduce=true}' | filecheck %s --check-prefix=AR
// RUN: xshard-opt %s --split-input-file -p 'stablehlo-combine-collectives{max-bytes=64}' | filecheck %s --check-prefix=SMALL

// numerics
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0:3 = "stablehlo.all_gather"(%a, %b, %c) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<2x2xi32>) -> (tensor<16x8xf32>, tensor<32xf32>, tensor<8x2xi32>)
// CHECK-NEXT:    %t = stablehlo.tanh %0#0 : tensor<16x8xf32>
// CHECK-NEXT:    func.return %t, %0#1, %0#2
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%a: tensor<4x8xf32> {mhlo.sharding = "{manual}"}, %b: tensor<8xf32> {mhlo.sharding = "{manual}"}, %c: tensor<2x2xi32> {mhlo.sharding = "{manual}"}) -> (tensor<16x8xf32> {mhlo.sharding = "{manual}"}, tensor<32xf32> {mhlo.sharding = "{manual}"}, tensor<8x2xi32> {mhlo.sharding = "{manual}"}) {
    %0 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %t = stablehlo.tanh %0 : tensor<16x8xf32>
    %1 = "stablehlo.all_gather"(%b) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8xf32>) -> tensor<32xf32>
    %2 = "stablehlo.all_gather"(%c) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2x2xi32>) -> tensor<8x2xi32>
    func.return %t, %1, %2 : tensor<16x8xf32>, tensor<32xf32>, tensor<8x2xi32>
  }
}

// -----

// numerics
// What stays apart: an all_gather of another's result, another gather dim, other
// groups.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-4: = "stablehlo.all_gather"(%{{[a-z0-9]+}}) <{
// CHECK-NOT:     stablehlo.all_gather
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%a: tensor<4x8xf32> {mhlo.sharding = "{manual}"}) -> (tensor<64x8xf32> {mhlo.sharding = "{manual}"}, tensor<4x32xf32> {mhlo.sharding = "{manual}"}, tensor<32x8xf32> {mhlo.sharding = "{manual}"}) {
    %0 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<16x8xf32>) -> tensor<64x8xf32>
    %2 = "stablehlo.all_gather"(%a) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<4x32xf32>
    %3 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<32x8xf32>
    func.return %1, %2, %3 : tensor<64x8xf32>, tensor<4x32xf32>, tensor<32x8xf32>
  }
}

// -----

// Two gradients' all_reduces: one variadic all_reduce with `all-reduce=true`, the
// reducer once (StableHLO applies it to every operand); by default they stay, since
// XLA's SPMD partitioner refuses a variadic all_reduce (and combines them itself).
// CHECK-LABEL: func.func @gradients
// CHECK-COUNT-2: "stablehlo.all_reduce"(%{{[a-z0-9]+}}) <{
// AR-LABEL:    func.func @gradients
// AR-NEXT:       %0:2 = "stablehlo.all_reduce"(%gw, %gb) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// AR-NEXT:       ^bb0(%l: tensor<f32>, %r: tensor<f32>):
// AR-NEXT:         %s = stablehlo.add %l, %r : tensor<f32>
// AR-NEXT:         stablehlo.return %s : tensor<f32>
// AR-NEXT:       }) : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>)
// AR-NEXT:       func.return %0#0, %0#1
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @gradients(%gw: tensor<8x4xf32>, %gb: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>) {
    %0 = "stablehlo.all_reduce"(%gw) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = "stablehlo.all_reduce"(%gb) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %0, %1 : tensor<8x4xf32>, tensor<4xf32>
  }
}

// -----

// All_reduces that stay apart even with `all-reduce=true`: other groups, another
// reducer, another element type, one that reads another's result.
// AR-LABEL:    func.func @apart
// AR-COUNT-5:    = "stablehlo.all_reduce"(%{{[a-z0-9]+}}) <{
// AR-NOT:        stablehlo.all_reduce
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @apart(%a: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>) {
    %0 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.maximum %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %3 = "stablehlo.all_reduce"(%i) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<i32>, %r: tensor<i32>):
      %s = stablehlo.add %l, %r : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<8xi32>) -> tensor<8xi32>
    %m = stablehlo.multiply %0, %a : tensor<8xf32>
    %4 = "stablehlo.all_reduce"(%m) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>
  }
}

// -----

// numerics
// In a while body the body's all_gathers share one; the one outside the loop, of the
// same groups, is in another block and stays on its own.
// CHECK-LABEL: func.func @main
// CHECK:         "stablehlo.all_gather"(%x) <{
// CHECK:         stablehlo.while
// CHECK:         } do {
// CHECK-NEXT:      %g, %h = "stablehlo.all_gather"(%p, %q) <{
// CHECK-NOT:       stablehlo.all_gather
// CHECK:         func.return
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<2xf32> {mhlo.sharding = "{manual}"}, %y: tensor<4xf32> {mhlo.sharding = "{manual}"}) -> (tensor<8xf32> {mhlo.sharding = "{manual}"}, tensor<2xf32> {mhlo.sharding = "{manual}"}, tensor<4xf32> {mhlo.sharding = "{manual}"}) {
    %z = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%k = %c, %p = %x, %q = %y) : tensor<i32>, tensor<2xf32>, tensor<4xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %k, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %g = "stablehlo.all_gather"(%p) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      %gs = stablehlo.slice %g [2:4] : (tensor<8xf32>) -> tensor<2xf32>
      %gt = stablehlo.tanh %gs : tensor<2xf32>
      %h = "stablehlo.all_gather"(%q) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<16xf32>
      %hs = stablehlo.slice %h [4:8] : (tensor<16xf32>) -> tensor<4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %k1 = stablehlo.add %k, %one : tensor<i32>
      stablehlo.return %k1, %gt, %hs : tensor<i32>, tensor<2xf32>, tensor<4xf32>
    }
    func.return %z, %0#1, %0#2 : tensor<8xf32>, tensor<2xf32>, tensor<4xf32>
  }
}

// -----

// Each case branch is a block of its own: one variadic all_gather in each.
// CHECK-LABEL: func.func @branches
// CHECK:         "stablehlo.case"(%i) ({
// CHECK-NEXT:      %a, %b = "stablehlo.all_gather"(%x, %y) <{
// CHECK:         }, {
// CHECK-NEXT:      %a_1, %b_1 = "stablehlo.all_gather"(%y, %x) <{
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @branches(%i: tensor<i32>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0:2 = "stablehlo.case"(%i) ({
      %a = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      %b = "stablehlo.all_gather"(%y) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      stablehlo.return %a, %b : tensor<8xf32>, tensor<8xf32>
    }, {
      %a = "stablehlo.all_gather"(%y) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      %b = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      stablehlo.return %a, %b : tensor<8xf32>, tensor<8xf32>
    }) : (tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>)
    func.return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
  }
}

// -----

// max-bytes bounds a bucket (operand bytes, per device): 32 + 32 bytes fit in 64, the
// third starts a new one.
// SMALL-LABEL: func.func @bounded
// SMALL-NEXT:    %0:2 = "stablehlo.all_gather"(%a, %b)
// SMALL-NEXT:    %1 = "stablehlo.all_gather"(%c)
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @bounded(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) {
    %0 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8xf32>) -> tensor<32xf32>
    %1 = "stablehlo.all_gather"(%b) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8xf32>) -> tensor<32xf32>
    %2 = "stablehlo.all_gather"(%c) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8xf32>) -> tensor<32xf32>
    func.return %0, %1, %2 : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  }
}
