// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// The sdy forms JAX 0.10 prints for jax.jit with shardings round-trip, pretty and generic.

sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
sdy.mesh @ids = <["x"=2], device_ids=[0, 1]>
func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"model", ?}]> : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"model"}p1], replicated={"data"}> : tensor<8x16xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {}], unreduced={"data"}> : tensor<8x16xf32>
  %3 = stablehlo.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data":(1)2}, {}]>]>} : tensor<8x16xf32>
  func.return %3 : tensor<8x16xf32>
}
// CHECK:      sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @ids = <["x"=2], device_ids=[0, 1]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}]>}) {
// CHECK-NEXT:   %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"model", ?}]> : tensor<8x16xf32>
// CHECK-NEXT:   %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"model"}p1], replicated={"data"}> : tensor<8x16xf32>
// CHECK-NEXT:   %2 = sdy.sharding_constraint %1 <@mesh, [{}, {}], unreduced={"data"}> : tensor<8x16xf32>
// CHECK-NEXT:   %3 = stablehlo.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data":(1)2}, {}]>]>} : tensor<8x16xf32>
// CHECK-GENERIC: "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["data"=2, "model"=4]>}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
// CHECK-GENERIC: "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{}, {"model", ?}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>

// A rule as Shardy writes one: compound dims (`ij`), factor sizes, the special sets, the
// `custom` flag, and names past `z`.
func.func @rules(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<f32>) {
  stablehlo.custom_call @op(%a, %b) {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k], [k, l])->([ij, l]) {i=2, j=4, k=16, l=4} reduction={k} need_replication={l}>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  stablehlo.custom_call @op(%c) {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([]), custom>} : (tensor<f32>) -> tensor<f32>
  stablehlo.custom_call @op(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([z_1, z_2])->([z_1z_2]) {z_1=8, z_2=16} blocked_propagation={z_1} permutation={z_2}>} : (tensor<8x16xf32>) -> tensor<128xf32>
  func.return
}
// CHECK-LABEL: func.func @rules
// CHECK-NEXT:  %0 = stablehlo.custom_call @op(%a, %b) {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k], [k, l])->([ij, l]) {i=2, j=4, k=16, l=4} reduction={k} need_replication={l}>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %1 = stablehlo.custom_call @op(%c) {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([]), custom>} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %2 = stablehlo.custom_call @op(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([z_1, z_2])->([z_1z_2]) {z_1=8, z_2=16} blocked_propagation={z_1} permutation={z_2}>} : (tensor<8x16xf32>) -> tensor<128xf32>
