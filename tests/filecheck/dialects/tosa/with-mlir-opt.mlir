// REQUIRES: mlir-opt-22
// RUN: xshard-opt %S/ops.mlir | %mlir-opt | xshard-opt | filecheck %s

// The reference mlir-opt reads (and verifies) every op of ops.mlir as xshard
// writes it, and xshard reads back what it prints.

// CHECK-LABEL: func.func @unary
// CHECK-COUNT-12: = tosa.
// CHECK-LABEL: func.func @binary
// CHECK:         tosa.minimum {{.*}} {nan_mode = IGNORE}
// CHECK:         tosa.arithmetic_right_shift {{.*}} {round = true}
// CHECK:         tosa.select
// CHECK-LABEL: func.func @zero_points
// CHECK:         tosa.negate
// CHECK-NEXT:    tosa.matmul {{.*}} -> tensor<4x16x32xi32>
