// REQUIRES: mlir-opt-22
// RUN: xshard-opt %s --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | xshard-opt | filecheck %s

// xshard's generic tcp text goes through the reference mlir-opt (which does not
// know tcp) and comes back: properties, the upstream enum spelling and MLIR's
// untyped `[0, 2]` arrays are all read back.

func.func @through_mlir(%x: tensor<1x4x1xf32>, %i: tensor<4xi32>, %m: index, %n: index) -> tensor<?x4x?xf32> {
  %0 = tcp.broadcast %x, %m, %n {axes = [0, 2]} : tensor<1x4x1xf32>, index, index -> tensor<?x4x?xf32>
  %1 = tcp.divsi %i, %i {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = tcp.cast %1 {in_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi32> -> tensor<4xf32>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<4xf32> -> tensor<4xf32>
  %4 = tcp.const {value = dense<2.5> : tensor<f32>} : tensor<f32>
  %5 = tcp.isolated_group %3 {
  ^bb0(%p: tensor<4xf32>):
    %e = tcp.exp %p : tensor<4xf32> -> tensor<4xf32>
    tcp.yield %e : tensor<4xf32>
  } : tensor<4xf32> -> tensor<4xf32>
  %6 = tcp.reduce_sum %5 {axes = [0]} : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<?x4x?xf32>
}

// CHECK:      %0 = tcp.broadcast %arg0, %arg2, %arg3 {axes = [0 : i64, 2 : i64]} : tensor<1x4x1xf32>, index, index -> tensor<?x4x?xf32>
// CHECK-NEXT: %1 = tcp.divsi %arg1, %arg1 {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %2 = tcp.cast %1 {in_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi32> -> tensor<4xf32>
// CHECK-NEXT: %3 = tcp.clamp %2 {min_float = 0.000000e+00 : f32} : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %4 = tcp.const {value = dense<2.500000e+00> : tensor<f32>} : tensor<f32>
// CHECK-NEXT: %5 = tcp.isolated_group %3 {
// CHECK-NEXT: ^bb0(%arg4: tensor<4xf32>):
// CHECK-NEXT:   %6 = tcp.exp %arg4 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:   tcp.yield %6 : tensor<4xf32>
// CHECK-NEXT: } : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %6 = tcp.reduce_sum %5 {axes = [0 : i64]} : tensor<4xf32> -> tensor<1xf32>
