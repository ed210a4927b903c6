// RUN: xshard-opt %s --split-input-file -p guard-host-callbacks | filecheck %s

// Host callbacks JAX runs on one device (xshard.on_one_device). A pure one runs on
// every partition. A side-effecting one runs on partition 0: a case on partition_id
// calls it there and gives zeros elsewhere, and a collective_broadcast from partition 0
// hands its results to all.

shard.grid @g(shape = 4)
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> tensor<4xf32>
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%1) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> ()
  func.return %1 : tensor<4xf32>
}

// CHECK:      %[[PID:.*]] = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT: %[[L:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %[[P:.*]] = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[I:.*]] = stablehlo.convert %[[L]] : (tensor<i64>) -> tensor<i32>
// CHECK-NEXT: %[[R:.*]] = "stablehlo.case"(%[[I]]) ({
// CHECK-NEXT:   %[[C:.*]] = stablehlo.custom_call @xla_ffi_python_cpu_callback(%[[P]]) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   stablehlo.return %[[C]] : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:   stablehlo.return %[[Z]] : tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<4xf32>
// CHECK-NEXT: %[[B:.*]] = "stablehlo.collective_broadcast"(%[[R]]) <{{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[J:.*]] = stablehlo.convert %[[L]] : (tensor<i64>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.case"(%[[J]]) ({
// CHECK-NEXT:   stablehlo.custom_call @xla_ffi_python_cpu_callback(%[[B]]) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}} : (tensor<4xf32>) -> ()
// CHECK-NEXT:   stablehlo.return
// CHECK-NEXT: }, {
// CHECK-NEXT:   stablehlo.return
// CHECK-NEXT: }) : (tensor<i32>) -> ()
// CHECK-NEXT: func.return %[[B]] : tensor<4xf32>

// -----

// Without a grid the module runs on one device: the mark goes, the call stays.
// CHECK-LABEL: @one_device
func.func @one_device(%a: tensor<4xf32>) {
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, xshard.on_one_device} : (tensor<4xf32>) -> ()
  func.return
}
// CHECK-NEXT: stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<4xf32>) -> ()
// CHECK-NEXT: func.return
