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
