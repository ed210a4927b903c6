// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One verifier rule per chunk.

%a, %b, %zp = "test.op"() : () -> (tensor<2x4x8xf32>, tensor<2x6x3xf32>, tensor<1xf32>)
%0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x3xf32>
// CHECK: 'tosa.matmul' contracting dims differ: 8 and 6

// -----

%a, %b, %zp = "test.op"() : () -> (tensor<2x4x8xf32>, tensor<3x8x3xf32>, tensor<1xf32>)
%0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x8xf32>, tensor<3x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x4x3xf32>
// CHECK: 'tosa.matmul' batch sizes 2 and 3 do not broadcast

// -----

%a, %b, %zp = "test.op"() : () -> (tensor<1x4x8xf32>, tensor<2x8x3xf32>, tensor<1xf32>)
%0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<2x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
// CHECK: 'tosa.matmul' result shape (1, 4, 3) does not match (2, 4, 3)

// -----

%x, %y = "test.op"() : () -> (tensor<4x8xf32>, tensor<4x3xf32>)
%0 = tosa.pow %x, %y : (tensor<4x8xf32>, tensor<4x3xf32>) -> tensor<4x8xf32>
// CHECK: 'tosa.pow' operand and result shapes are not compatible

// -----

%x = "test.op"() : () -> tensor<4x8xf32>
%0 = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK: 'tosa.tanh' operands and result must have the same rank

// -----

// xDSL's tosa.const lacks these two checks of MLIR's.
%0 = "tosa.const"() <{values = dense<0.0> : tensor<0xf32>}> : () -> tensor<1xf32>
// CHECK: invalid.mlir:36:1: error: 'tosa.const' op failed to verify that all of {values, output} have same shape

// -----

%0 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xf32>
// CHECK: invalid.mlir:41:1: error: 'tosa.const' op expected same attr/result element types
