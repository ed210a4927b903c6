// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// The CHLO ops legalized here that tests/filecheck/dialects/chlo/ops.mlir does not show,
// exactly as jax 0.10 prints them: the pretty forms of the elementwise ops, the generic
// form of ragged_dot (which has no other), and the generic forms read back.

func.func @elementwise(%x: tensor<4xf32>, %y: tensor<4xf32>, %u: tensor<4xui32>, %c: tensor<3x3xcomplex<f32>>) {
  %0 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.polygamma %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.zeta %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.bessel_i1e %x : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.mulhi %u, %u : tensor<4xui32>, tensor<4xui32> -> tensor<4xui32>
  %5 = chlo.conj %c : tensor<3x3xcomplex<f32>> -> tensor<3x3xcomplex<f32>>
  %6 = "chlo.next_after"(%x, %y) {note = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:  %0 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %1 = chlo.polygamma %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %2 = chlo.zeta %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %3 = chlo.bessel_i1e %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %4 = chlo.mulhi %u, %u : tensor<4xui32>, tensor<4xui32> -> tensor<4xui32>
// CHECK-NEXT:  %5 = chlo.conj %c : tensor<3x3xcomplex<f32>> -> tensor<3x3xcomplex<f32>>
// CHECK-NEXT:  %6 = chlo.next_after %x, %y {note = 1 : i64} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "elementwise"
// CHECK-GENERIC:       %0 = "chlo.next_after"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-GENERIC-NEXT:  %1 = "chlo.polygamma"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-GENERIC-NEXT:  %2 = "chlo.zeta"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-GENERIC-NEXT:  %3 = "chlo.bessel_i1e"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-GENERIC-NEXT:  %4 = "chlo.mulhi"(%u, %u) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK-GENERIC-NEXT:  %5 = "chlo.conj"(%c) : (tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>>
// CHECK-GENERIC-NEXT:  %6 = "chlo.next_after"(%x, %y) {note = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>

// -----

func.func @ragged_dot(%lhs: tensor<8x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi32>, %a: tensor<6x8xf32>, %b: tensor<8x5xf32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<3xi32>) -> tensor<8x5xf32>
  %1 = "chlo.ragged_dot"(%a, %b, %sizes) <{precision_config = [#chlo<precision HIGHEST>, #chlo<precision HIGH>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  %2 = "chlo.ragged_dot"(%a, %b, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK-LABEL: func.func @ragged_dot
// CHECK-NEXT:  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<3xi32>) -> tensor<8x5xf32>
// CHECK-NEXT:  %1 = "chlo.ragged_dot"(%a, %b, %sizes) <{precision_config = [#chlo<precision HIGHEST>, #chlo<precision HIGH>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
// CHECK-NEXT:  %2 = "chlo.ragged_dot"(%a, %b, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "ragged_dot"
// CHECK-GENERIC:       %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<3xi32>) -> tensor<8x5xf32>
