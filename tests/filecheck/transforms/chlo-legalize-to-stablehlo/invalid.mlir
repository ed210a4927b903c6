// What chlo-legalize-to-stablehlo cannot lower is a located error: complex arguments of
// the functions it decomposes for real ones only, and dynamic shapes.
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p chlo-legalize-to-stablehlo | filecheck %s

func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.asin %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: invalid.mlir:6:3: error: 'chlo.asin' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @complex_square(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.square %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: invalid.mlir:14:3: error: 'chlo.square' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = chlo.erf %x : tensor<?xf32> -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
// CHECK: invalid.mlir:22:3: error: chlo-legalize-to-stablehlo needs static shapes, got tensor<?xf32>

// -----

// JAX emits conj only for complex operands (triangular_solve with conjugate_a).
func.func @complex_conj(%x: tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>> {
  %0 = chlo.conj %x : tensor<3x3xcomplex<f32>> -> tensor<3x3xcomplex<f32>>
  func.return %0 : tensor<3x3xcomplex<f32>>
}
// CHECK: invalid.mlir:31:3: error: 'chlo.conj' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @complex_bessel(%x: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  %0 = chlo.bessel_i1e %x : tensor<4xcomplex<f64>> -> tensor<4xcomplex<f64>>
  func.return %0 : tensor<4xcomplex<f64>>
}
// CHECK: invalid.mlir:39:3: error: 'chlo.bessel_i1e' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @complex_ragged_dot(%lhs: tensor<8x4xcomplex<f32>>, %rhs: tensor<2x4x5xcomplex<f32>>, %sizes: tensor<2xi32>) -> tensor<8x5xcomplex<f32>> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xcomplex<f32>>, tensor<2x4x5xcomplex<f32>>, tensor<2xi32>) -> tensor<8x5xcomplex<f32>>
  func.return %0 : tensor<8x5xcomplex<f32>>
}
// CHECK: invalid.mlir:47:3: error: 'chlo.ragged_dot' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @dynamic_next_after(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = chlo.next_after %x, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
// CHECK: invalid.mlir:55:3: error: chlo-legalize-to-stablehlo needs static shapes, got tensor<?xf32>
