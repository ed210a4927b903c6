// A partially manual shard_map (manual over axis "model", "data" left automatic), as
// JAX lowers it: the body is per-device code over "model" with its own psum; it is
// inlined into the program each device runs. Without propagation the body's values are
// whole over "data" (each operand is resharded to its manual layout alone); with it,
// the batch split on "data" stays split inside the body.
// RUN: xshard-opt %s -p import-sdy,shard-partition | filecheck %s
// RUN: xshard-opt %s -p 'import-sdy,sharding-propagation{strategy=aggressive},shard-partition' | filecheck %s --check-prefix=PROP
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{?}, {"model", ?}]>, <@mesh, [{"model", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"model"} (%a: tensor<8x4xf32>, %b: tensor<4x8xf32>) {
    %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:   %0 = shard.all_slice %x on @mesh grid_axes = [1] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x4xf32>
// CHECK-NEXT:   %1 = shard.all_gather %0 on @mesh grid_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:   %2 = shard.all_slice %w on @mesh grid_axes = [1] slice_axis = 0 : tensor<16x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:   %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT:   ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT:     %r = stablehlo.add %p, %q : tensor<f32>
// CHECK-NEXT:     stablehlo.return %r : tensor<f32>
// CHECK-NEXT:   }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   func.return %4 : tensor<8x8xf32>
// CHECK-NEXT: }

// PROP-LABEL: func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
// PROP-NEXT:   %0 = shard.all_slice %x on @mesh grid_axes = [1] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x4xf32>
// PROP-NEXT:   %1 = shard.all_slice %w on @mesh grid_axes = [1] slice_axis = 0 : tensor<16x8xf32> -> tensor<4x8xf32>
// PROP-NEXT:   %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// PROP-NEXT:   %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// PROP-NEXT:   ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// PROP-NEXT:     %r = stablehlo.add %p, %q : tensor<f32>
// PROP-NEXT:     stablehlo.return %r : tensor<f32>
// PROP-NEXT:   }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// PROP-NEXT:   func.return %3 : tensor<4x8xf32>
// PROP-NEXT: }
