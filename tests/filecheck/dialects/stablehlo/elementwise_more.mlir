// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// The elementwise ops and bitcast_convert JAX emits beyond ops.mlir's (jnp.isfinite and
// logsumexp, jnp.tan, jnp.cbrt, jnp.round, jax.random's bit arithmetic, remat under a
// policy's reduce_precision, rotary embeddings in complex numbers).

func.func @more(%x: tensor<4xf32>, %n: tensor<4xui32>) {
  %0 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.tan %x : tensor<4xf32>
  %2 = stablehlo.cbrt %x : tensor<4xf32>
  %3 = stablehlo.round_nearest_even %x : tensor<4xf32>
  %4 = stablehlo.round_nearest_afz %x : tensor<4xf32>
  %5 = stablehlo.shift_left %n, %n : tensor<4xui32>
  %6 = stablehlo.shift_right_logical %n, %n : tensor<4xui32>
  %7 = stablehlo.shift_right_arithmetic %n, %n : tensor<4xui32>
  %8 = stablehlo.bitcast_convert %n : (tensor<4xui32>) -> tensor<4xf32>
  %9 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xbf16>
  %10 = stablehlo.bitcast_convert %9 : (tensor<4x2xbf16>) -> tensor<4xi32>
  %11 = stablehlo.reduce_precision %x, format = e8m23 : tensor<4xf32>
  %12 = stablehlo.reduce_precision %x, format = e5m2 {tag = 1 : i32} : tensor<4xf32>
  %13 = stablehlo.complex %x, %x : tensor<4xcomplex<f32>>
  %14 = stablehlo.real %13 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %15 = stablehlo.imag %13 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %16 = stablehlo.real %x : tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @more
// CHECK-NEXT:  %0 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %1 = stablehlo.tan %x : tensor<4xf32>
// CHECK-NEXT:  %2 = stablehlo.cbrt %x : tensor<4xf32>
// CHECK-NEXT:  %3 = stablehlo.round_nearest_even %x : tensor<4xf32>
// CHECK-NEXT:  %4 = stablehlo.round_nearest_afz %x : tensor<4xf32>
// CHECK-NEXT:  %5 = stablehlo.shift_left %n, %n : tensor<4xui32>
// CHECK-NEXT:  %6 = stablehlo.shift_right_logical %n, %n : tensor<4xui32>
// CHECK-NEXT:  %7 = stablehlo.shift_right_arithmetic %n, %n : tensor<4xui32>
// CHECK-NEXT:  %8 = stablehlo.bitcast_convert %n : (tensor<4xui32>) -> tensor<4xf32>
// CHECK-NEXT:  %9 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xbf16>
// CHECK-NEXT:  %10 = stablehlo.bitcast_convert %9 : (tensor<4x2xbf16>) -> tensor<4xi32>
// CHECK-NEXT:  %11 = stablehlo.reduce_precision %x, format = e8m23 : tensor<4xf32>
// CHECK-NEXT:  %12 = stablehlo.reduce_precision %x, format = e5m2 {tag = 1 : i32} : tensor<4xf32>
// CHECK-NEXT:  %13 = stablehlo.complex %x, %x : tensor<4xcomplex<f32>>
// CHECK-NEXT:  %14 = stablehlo.real %13 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK-NEXT:  %15 = stablehlo.imag %13 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK-NEXT:  %16 = stablehlo.real %x : tensor<4xf32>
// CHECK-GENERIC: "stablehlo.is_finite"(%x) : (tensor<4xf32>) -> tensor<4xi1>
// CHECK-GENERIC: "stablehlo.shift_right_logical"(%n, %n) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK-GENERIC: "stablehlo.bitcast_convert"(%x) : (tensor<4xf32>) -> tensor<4x2xbf16>
// CHECK-GENERIC: "stablehlo.reduce_precision"(%x) <{exponent_bits = 5 : i32, mantissa_bits = 2 : i32}> {tag = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-GENERIC: "stablehlo.complex"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
