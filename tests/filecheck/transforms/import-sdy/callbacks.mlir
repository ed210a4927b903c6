// RUN: xshard-opt %s --split-input-file -p import-sdy | filecheck %s

// JAX runs a host callback of the global program on one device (a mesh of one device):
// the sharding goes and the call is marked for guard-host-callbacks. One inside a
// shard_map (the placeholder mesh) runs on every device: it is not marked.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @empty_mesh = <[]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @main(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<4xf32>) -> ()
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    stablehlo.custom_call @xla_ffi_python_cpu_callback(%b) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}, sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh, []>]>} : (tensor<2xf32>) -> ()
    sdy.return %b : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK:      stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:      stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> ()
// CHECK:      sdy.manual_computation
// CHECK-NEXT:   stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}} : (tensor<2xf32>) -> ()

// -----

// The same in GSPMD form: `{maximal device=0}` marks it; `{manual}` (a shard_map body)
// does not.
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%a: tensor<4xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<4xf32> {
    stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, mhlo.sharding = "{maximal device=0}"} : (tensor<4xf32>) -> ()
    stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}, mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> ()
    return %a : tensor<4xf32>
  }
}
// CHECK:      stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> ()
// CHECK-NEXT: stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}} : (tensor<4xf32>) -> ()
