// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p chlo-legalize-to-stablehlo | filecheck %s

// Verifier failures of the CHLO ops JAX 0.10 emits that tests/filecheck/dialects/chlo/
// invalid.mlir does not cover, one per chunk: reported before the pass runs.

func.func @f(%x: tensor<4xi32>) {
  %0 = chlo.next_after %x, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  func.return
}
// CHECK: 'chlo.next_after' op operand element type must be float, got i32

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = chlo.mulhi %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  func.return
}
// CHECK: 'chlo.mulhi' op operand element type must be integer, got f32

// -----

func.func @f(%x: tensor<4xf32>, %q: tensor<4xf64>) {
  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf64> -> tensor<4xf32>
  func.return
}
// CHECK: 'chlo.zeta' op operands and result must have one type, got tensor<4xf32>, tensor<4xf64>, tensor<4xf32>

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  %0 = chlo.polygamma %x, %x : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return
}
// CHECK: 'chlo.polygamma' op operand element type must be float, got complex<f32>

// -----

func.func @f(%lhs: tensor<8x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0, 1], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<3xi32>) -> tensor<8x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op there must be exactly one ragged dimension in the lhs

// -----

func.func @f(%lhs: tensor<8x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<3xi32>) -> tensor<8x3x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op there must be exactly one rhs group dimension when the ragged dimension is non-contracting

// -----

func.func @f(%lhs: tensor<8x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<2xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<2xi32>) -> tensor<8x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op rhs group dimension must have size 2, got 3

// -----

func.func @f(%lhs: tensor<2x8x4xf32>, %rhs: tensor<3x2x4x5xf32>, %sizes: tensor<8x3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<2x8x4xf32>, tensor<3x2x4x5xf32>, tensor<8x3xi32>) -> tensor<2x8x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op group_sizes must have shape [2, 3] or [3], got [8, 3]

// -----

func.func @f(%lhs: tensor<8x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xf32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<3x4x5xf32>, tensor<3xf32>) -> tensor<8x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op group_sizes must be a tensor of integers of rank at least 1, got tensor<3xf32>

// -----

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<8x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<6x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op result shape must be [3, 6, 5], got [6, 5]

// -----

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<8x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op rhs batching, contracting and group dimensions must be disjoint, got [0, 0]

// -----

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<7x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<7x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op contracting dimension sizes differ: lhs dimension 1 has 8, rhs dimension 0 has 7

// -----

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<8x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision HIGHEST>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK: 'chlo.ragged_dot' op precision_config must have 0 or 2 entries, got 1
