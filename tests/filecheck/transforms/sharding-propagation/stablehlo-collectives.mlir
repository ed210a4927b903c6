// Collectives inside a partially manual body (a shard_map over "model", "data" left
// automatic) act within groups of devices that agree on "data": a split over "data"
// passes through them on every dim they do not move, and stops at a dim they gather.
// Outside a shard_map body a collective is refused (stablehlo-invalid.mlir).
// RUN: xshard-opt %s -p 'import-sdy,sharding-propagation{strategy=aggressive}' | filecheck %s
// RUN: xshard-opt %s -p 'import-sdy,sharding-propagation{strategy=aggressive},shard-partition' | filecheck %s --check-prefix=PART

sdy.mesh @mesh = <["data"=2, "model"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{?}, {"model", ?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"model"} (%x: tensor<8x4xf32>) {
    %1 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<8x8xf32>
    %3 = "stablehlo.all_gather"(%2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<8x8xf32>) -> tensor<16x8xf32>
    sdy.return %3 : tensor<16x8xf32>
  } : (tensor<8x8xf32>) -> tensor<16x8xf32>
  func.return %0 : tensor<16x8xf32>
}
// The body argument is split over "data" (the operand keeps its "data" split), which
// passes through the all_reduce and the all_gather of dim 1; the all_gather of dim 0
// takes its operand whole.
// CHECK:       %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{?}, {"model", ?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"model"} (%x: tensor<8x4xf32>) {
// CHECK-NEXT:    %3 = shard.sharding @mesh split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:    %4 = shard.sharding @mesh split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:    %5 = shard.shard %x to %3 : tensor<8x4xf32>
// CHECK-NEXT:    %6 = "stablehlo.all_reduce"(%5)
// CHECK:         %7 = shard.shard %6 to %3 : tensor<8x4xf32>
// CHECK-NEXT:    %8 = "stablehlo.all_gather"(%7) <{all_gather_dim = 1 : i64
// CHECK-NEXT:    %9 = shard.shard %8 to %3 : tensor<8x8xf32>
// CHECK-NEXT:    %10 = shard.shard %9 to %4 annotate_for_users : tensor<8x8xf32>
// CHECK-NEXT:    %11 = "stablehlo.all_gather"(%10) <{all_gather_dim = 0 : i64

// The body is inlined on local types: the collectives keep their groups; the "data"
// split is gathered (a shard collective) before the all_gather of dim 0.
// PART:       func.func @main(%a: tensor<4x4xf32>) -> tensor<16x8xf32> {
// PART-NEXT:    %0 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// PART:         }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PART-NEXT:    %1 = "stablehlo.all_gather"(%0) {{.*}} : (tensor<4x4xf32>) -> tensor<4x8xf32>
// PART-NEXT:    %2 = shard.all_gather %1 on @mesh grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// PART-NEXT:    %3 = "stablehlo.all_gather"(%2) {{.*}} : (tensor<8x8xf32>) -> tensor<16x8xf32>
// PART-NEXT:    func.return %3 : tensor<16x8xf32>
