// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// The tosa ops xshard adds to xDSL's, in the text mlir-opt 22.1.8 prints (up
// to SSA names); each survives a pass through the generic form unchanged.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %c: tensor<4x8xi1>) -> tensor<4x8xf32> {
  // CHECK-NEXT: %0 = tosa.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-GENERIC: "tosa.sigmoid"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = tosa.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %2 = tosa.abs %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.abs %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %3 = tosa.exp %2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.exp %2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %4 = tosa.log %3 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = tosa.log %3 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %5 = tosa.rsqrt %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = tosa.rsqrt %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %6 = tosa.floor %5 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = tosa.floor %5 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %7 = tosa.ceil %6 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = tosa.ceil %6 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %8 = tosa.erf %7 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = tosa.erf %7 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %9 = tosa.clz %i : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %9 = tosa.clz %i : (tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %10 = tosa.bitwise_not %9 : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %10 = tosa.bitwise_not %9 : (tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %11 = tosa.logical_not %c : (tensor<4x8xi1>) -> tensor<4x8xi1>
  %11 = tosa.logical_not %c : (tensor<4x8xi1>) -> tensor<4x8xi1>
  return %8 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>, %i: tensor<4x8xi32>, %c: tensor<4x8xi1>) -> tensor<4x8xi1> {
  // CHECK-NEXT: %0 = tosa.pow %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %0 = tosa.pow %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %1 = tosa.maximum %0, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // CHECK-GENERIC: "tosa.maximum"(%0, %y) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.maximum %0, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %2 = tosa.minimum %1, %x {nan_mode = IGNORE} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-GENERIC: "tosa.minimum"(%1, %x) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.minimum %1, %x {nan_mode = IGNORE} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %3 = tosa.intdiv %i, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %3 = tosa.intdiv %i, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %4 = tosa.bitwise_and %3, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %4 = tosa.bitwise_and %3, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %5 = tosa.bitwise_or %4, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %5 = tosa.bitwise_or %4, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %6 = tosa.bitwise_xor %5, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %6 = tosa.bitwise_xor %5, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %7 = tosa.logical_left_shift %6, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %7 = tosa.logical_left_shift %6, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %8 = tosa.logical_right_shift %7, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %8 = tosa.logical_right_shift %7, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %9 = tosa.arithmetic_right_shift %8, %i {round = true} : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-GENERIC: "tosa.arithmetic_right_shift"(%8, %i) <{round = true}>
  %9 = tosa.arithmetic_right_shift %8, %i {round = true} : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %10 = tosa.logical_and %c, %c : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %10 = tosa.logical_and %c, %c : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  // CHECK-NEXT: %11 = tosa.logical_or %10, %c : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %11 = tosa.logical_or %10, %c : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  // CHECK-NEXT: %12 = tosa.logical_xor %11, %c : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %12 = tosa.logical_xor %11, %c : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  // CHECK-NEXT: %13 = tosa.equal %x, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %13 = tosa.equal %x, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK-NEXT: %14 = tosa.greater %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xi1>
  %14 = tosa.greater %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xi1>
  // CHECK-NEXT: %15 = tosa.greater_equal %i, %9 : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  %15 = tosa.greater_equal %i, %9 : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  // CHECK-NEXT: %16 = tosa.select %15, %x, %2 : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %16 = tosa.select %15, %x, %2 : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %13 : tensor<4x8xi1>
}

// negate and matmul take zero points; matmul takes any batch, and a batch of 1 broadcasts.
// CHECK-LABEL: func.func @zero_points
func.func @zero_points(%a: tensor<1x16x8xi8>, %b: tensor<4x8x32xi8>, %x: tensor<4x8xf32>) -> tensor<4x16x32xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: %0 = tosa.negate %x, %fzp, %fzp : (tensor<4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  // CHECK-GENERIC: "tosa.negate"(%x, %fzp, %fzp) : (tensor<4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  %0 = tosa.negate %x, %fzp, %fzp : (tensor<4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %1 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x8xi8>, tensor<4x8x32xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x16x32xi32>
  // CHECK-GENERIC: "tosa.matmul"(%a, %b, %zp, %zp) : (tensor<1x16x8xi8>, tensor<4x8x32xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x16x32xi32>
  %1 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x8xi8>, tensor<4x8x32xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x16x32xi32>
  return %1 : tensor<4x16x32xi32>
}
