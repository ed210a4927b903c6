// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// Every CHLO op xshard reads, in upstream's pretty form (what JAX prints).

func.func @unary(%x: tensor<4xf32>, %c: tensor<4xcomplex<f32>>) {
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.tan %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %2 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  %5 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  %6 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
  %7 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %8 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  %9 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  %10 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  %11 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
  %12 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  %13 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
  %14 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
  %15 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
  %16 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
  %17 = chlo.atanh %x {note = 1 : i64} : tensor<4xf32> -> tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @unary
// CHECK-NEXT:  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %1 = chlo.tan %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
// CHECK-NEXT:  %2 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %3 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %4 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %5 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %6 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %7 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:  %8 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:  %9 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:  %10 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %11 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %12 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %13 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %14 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %15 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %16 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %17 = chlo.atanh %x {note = 1 : i64} : tensor<4xf32> -> tensor<4xf32>
// CHECK-GENERIC: "chlo.square"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-GENERIC: "chlo.is_inf"(%x) : (tensor<4xf32>) -> tensor<4xi1>

func.func @top_k(%x: tensor<4x16xf32>, %n: tensor<8xi32>) {
  %values, %indices = chlo.top_k(%x, k = 3) : tensor<4x16xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
  %v, %i = chlo.top_k(%n, k = 8, is_stable = false) : tensor<8xi32> -> (tensor<8xi32>, tensor<8xi32>)
  func.return
}
// CHECK-LABEL: func.func @top_k
// CHECK-NEXT:  %values, %indices = chlo.top_k(%x, k = 3) : tensor<4x16xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
// CHECK-NEXT:  %v, %i = chlo.top_k(%n, k = 8, is_stable = false) : tensor<8xi32> -> (tensor<8xi32>, tensor<8xi32>)
// CHECK-GENERIC: "chlo.top_k"(%x) <{k = 3 : i64}> : (tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
// CHECK-GENERIC: "chlo.top_k"(%n) <{k = 8 : i64, is_stable = false}> : (tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
