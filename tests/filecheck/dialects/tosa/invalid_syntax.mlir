// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Pretty forms that must be refused while parsing, with a message saying why.

%x = "test.op"() : () -> tensor<4x8xf32>
%0 = tosa.maximum %x, %x {nan_mode = SOMETIMES} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: invalid_syntax.mlir:6:47: error: expected a nan_mode (PROPAGATE or IGNORE), got SOMETIMES

// -----

%x = "test.op"() : () -> tensor<4x8xf32>
%0 = tosa.maximum %x, %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: invalid_syntax.mlir:12:19: error: 'tosa.maximum' expects 2 operands, got 3
