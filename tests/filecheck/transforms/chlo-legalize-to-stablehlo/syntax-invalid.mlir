// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Parse errors in ragged_dot's attributes, one per chunk.

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<8x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_ragged_dimension = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK: unknown field 'lhs_ragged_dimension' in #chlo.ragged_dot, expected one of lhs_batching_dimensions, rhs_batching_dimensions, lhs_contracting_dimensions, rhs_contracting_dimensions, lhs_ragged_dimensions, rhs_group_dimensions

// -----

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<8x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_ragged_dimensions = [1], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK: duplicate field 'lhs_ragged_dimensions' in #chlo.ragged_dot

// -----

func.func @f(%lhs: tensor<6x8xf32>, %rhs: tensor<8x5xf32>, %sizes: tensor<3xi32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision LOW>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<3xi32>) -> tensor<3x6x5xf32>
  func.return
}
// CHECK: Expected `DEFAULT`, `HIGH`, or `HIGHEST`

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = chlo.next_after %x : tensor<4xf32> -> tensor<4xf32>
  func.return
}
// CHECK: syntax-invalid.mlir:30:27: error: Expected ','
