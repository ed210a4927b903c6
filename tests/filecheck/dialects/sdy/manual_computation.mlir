// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// sdy.manual_computation (shard_map) as JAX 0.10.2 prints it round-trips, pretty and
// generic: fully manual, partially manual (axis_names={'model'}), several results,
// and none at all.

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data", "model"} (%arg1: tensor<4x4xf32>) {
    %1 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = stablehlo.concatenate %arg1, %1, dim = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x16xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// CHECK:      %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data", "model"} (%arg1: tensor<4x4xf32>) {
// CHECK-NEXT:   %1 = "stablehlo.collective_permute"(%arg1)
// CHECK-NEXT:   %2 = stablehlo.concatenate %arg1, %1, dim = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   sdy.return %2 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x8xf32>
// CHECK-GENERIC:      %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}> ({
// CHECK-GENERIC-NEXT: ^bb0(%arg1: tensor<4x4xf32>):
// CHECK-GENERIC:        "sdy.return"(%2) : (tensor<4x8xf32>) -> ()
// CHECK-GENERIC-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x8xf32>

// -----

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{?}, {"model", ?}]>, <@mesh, [{"model", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"model"} (%arg2: tensor<8x4xf32>, %arg3: tensor<4x8xf32>) {
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %4 = stablehlo.add %arg4, %arg5 : tensor<f32>
      %5 = sdy.sharding_constraint %4 <@mesh, []> : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %3 : tensor<8x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// CHECK:      %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{?}, {"model", ?}]>, <@mesh, [{"model", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"model"} (%arg2: tensor<8x4xf32>, %arg3: tensor<4x8xf32>) {
// CHECK:        sdy.return %3 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-GENERIC: %0 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {"model", ?}]>, <@mesh, [{"model", ?}, {?}]>]>, manual_axes = #sdy<manual_axes{"model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>}> ({

// -----

// Several results, an attribute dict, a sub-axis, an inline mesh, and no values at all.
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<2xf32>) {
  %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data", ?}, {"model":(1)2}]>] out_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}]>] manual_axes={"data"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.constant dense<1.000000e+00> : tensor<1xf32>
    sdy.return %arg1, %1 : tensor<4x16xf32>, tensor<1xf32>
  } {xshard.note = 1 : i64} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<2xf32>)
  %2 = sdy.manual_computation(%arg0) in_shardings=[<mesh<["x"=4]>, [{"x"}, {}]>] out_shardings=[<mesh<["x"=4]>, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x16xf32>) {
    sdy.return %arg1 : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    sdy.return
  } : () -> ()
  func.return %0#0, %0#1 : tensor<8x16xf32>, tensor<2xf32>
}
// CHECK:      %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data", ?}, {"model":(1)2}]>] out_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}]>] manual_axes={"data"} (%arg1: tensor<4x16xf32>) {
// CHECK-NEXT:   %1 = stablehlo.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT:   sdy.return %arg1, %1 : tensor<4x16xf32>, tensor<1xf32>
// CHECK-NEXT: } {xshard.note = 1 : i64} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<2xf32>)
// CHECK-NEXT: %1 = sdy.manual_computation(%arg0) in_shardings=[<mesh<["x"=4]>, [{"x"}, {}]>] out_shardings=[<mesh<["x"=4]>, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x16xf32>) {
// CHECK-NEXT:   sdy.return %arg1 : tensor<2x16xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
// CHECK-NEXT:   sdy.return
// CHECK-NEXT: } : () -> ()
// CHECK-GENERIC: "sdy.manual_computation"() <{in_shardings = #sdy.sharding_per_value<[]>, manual_axes = #sdy<manual_axes{}>, out_shardings = #sdy.sharding_per_value<[]>}> ({
// CHECK-GENERIC-NEXT: "sdy.return"() : () -> ()

// -----

// The generic form JAX's MLIR prints with print_generic_op_form parses.
"sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> : () -> ()
func.func @g(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {"model", ?}]>]>, manual_axes = #sdy<manual_axes{"model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {"model", ?}]>]>}> ({
  ^bb0(%arg1: tensor<8x4xf32>):
    "sdy.return"(%arg1) : (tensor<8x4xf32>) -> ()
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK:      %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {"model", ?}]>] out_shardings=[<@mesh, [{?}, {"model", ?}]>] manual_axes={"model"} (%arg1: tensor<8x4xf32>) {
// CHECK-NEXT:   sdy.return %arg1 : tensor<8x4xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-GENERIC: manual_axes = #sdy<manual_axes{"model"}>

// -----

// A sub-axis of a manual axis divides by its own size; a dynamic dim stays dynamic.
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @f(%arg0: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"model"}, {"model":(1)2, "data"}]>] out_shardings=[<@mesh, [{"model"}, {"model":(1)2}]>] manual_axes={"model"} (%arg1: tensor<?x8xf32>) {
    sdy.return %arg1 : tensor<?x8xf32>
  } : (tensor<?x16xf32>) -> tensor<?x16xf32>
  func.return %0 : tensor<?x16xf32>
}
// CHECK: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"model"}, {"model":(1)2, "data"}]>] out_shardings=[<@mesh, [{"model"}, {"model":(1)2}]>] manual_axes={"model"} (%arg1: tensor<?x8xf32>) {
