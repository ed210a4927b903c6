// erf, erfc, erf_inv, lgamma, digamma, bessel_i1e, zeta, polygamma and the hyperbolic and
// inverse trigonometric functions become StableHLO arithmetic; f16 and bf16 arguments of
// the special functions are computed in f32 and converted back (both operands of zeta and
// polygamma), f64 ones with the double-precision formulas.
// (Their numerics are checked against jax in tests/test_chlo_legalize_numerics.py.)
// RUN: xshard-opt %s -p chlo-legalize-to-stablehlo | filecheck %s

func.func @erf_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// Eigen's rational approximation on the argument clamped to [-4, 4], clamped to [-1, 1].
// CHECK-LABEL: func.func @erf_f32
// CHECK:       %[[X:.*]] = stablehlo.clamp %{{.*}}, %x, %{{.*}} : tensor<4xf32>
// CHECK-NEXT:  %{{.*}} = stablehlo.multiply %[[X]], %[[X]] : tensor<4xf32>
// CHECK:       %[[Q:.*]] = stablehlo.divide %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK:       %[[R:.*]] = stablehlo.clamp %{{.*}}, %[[Q]], %{{.*}} : tensor<4xf32>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xf32>

func.func @erf_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = chlo.erf %x : tensor<4xbf16> -> tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}
// CHECK-LABEL: func.func @erf_bf16
// CHECK-NEXT:  %0 = stablehlo.convert %x : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:       %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xbf16>

func.func @erf_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.erf %x : tensor<4xf64> -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}
// Cephes: x T(x²) / U(x²) below |x| = 1, 1 - erfc(x) above.
// CHECK-LABEL: func.func @erf_f64
// CHECK-NOT:   stablehlo.clamp
// CHECK:       stablehlo.exponential
// CHECK:       stablehlo.abs %x : tensor<4xf64>
// CHECK:       stablehlo.compare LT, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
// CHECK:       stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf64>
// CHECK:       func.return %{{.*}} : tensor<4xf64>

func.func @others(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  %5 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
  %6 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  %7 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
  %8 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
  %9 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
  %10 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
  %11 = chlo.atanh %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @others
// CHECK-NOT:   chlo.
// CHECK:       stablehlo.log_plus_one
// CHECK:       stablehlo.sine
// CHECK:       stablehlo.cosine
// CHECK:       stablehlo.exponential_minus_one
// CHECK:       stablehlo.atan2
// CHECK:       stablehlo.sign
// CHECK-NOT:   chlo.
// CHECK:       func.return

func.func @bessel_i1e(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.bessel_i1e %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// Cephes: |x| times a Chebyshev series in |x|/2 - 2 up to 8, a series in 32/|x| - 2 over
// sqrt|x| above, with the sign of x.
// CHECK-LABEL: func.func @bessel_i1e
// CHECK-NEXT:  %[[Z:.*]] = stablehlo.abs %x : tensor<4xf32>
// CHECK:       %[[T:.*]] = stablehlo.multiply %{{.*}}, %[[Z]] : tensor<4xf32>
// CHECK-NEXT:  %{{.*}} = stablehlo.subtract %[[T]], %{{.*}} : tensor<4xf32>
// CHECK:       %[[ROOT:.*]] = stablehlo.sqrt %[[Z]] : tensor<4xf32>
// CHECK-NEXT:  %[[FAR:.*]] = stablehlo.divide %{{.*}}, %[[ROOT]] : tensor<4xf32>
// CHECK:       %[[LE8:.*]] = stablehlo.compare LE, %[[Z]], %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.sign %x : tensor<4xf32>
// CHECK-NEXT:  %[[SEL:.*]] = stablehlo.select %[[LE8]], %{{.*}}, %[[FAR]] : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:  %[[R:.*]] = stablehlo.multiply %[[S]], %[[SEL]] : tensor<4xf32>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xf32>

func.func @zeta_f16(%x: tensor<4xf16>, %q: tensor<4xf16>) -> tensor<4xf16> {
  %0 = chlo.zeta %x, %q : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}
// Both operands in f32; the series' first ten terms, (q + k)^-x, an eleventh for the
// Euler-Maclaurin tail; inf at x = 1 last.
// CHECK-LABEL: func.func @zeta_f16
// CHECK-NEXT:  %[[X:.*]] = stablehlo.convert %x : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:  %[[Q:.*]] = stablehlo.convert %q : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:       %[[NX:.*]] = stablehlo.negate %[[X]] : tensor<4xf32>
// CHECK-NEXT:  %{{.*}} = stablehlo.power %[[Q]], %[[NX]] : tensor<4xf32>
// CHECK-COUNT-10: stablehlo.power %{{.*}}, %[[NX]] : tensor<4xf32>
// CHECK-NOT:   stablehlo.power
// CHECK:       stablehlo.remainder
// CHECK:       %[[ONE:.*]] = stablehlo.compare EQ, %[[X]], %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %[[Z:.*]] = stablehlo.select %[[ONE]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:  %[[R:.*]] = stablehlo.convert %[[Z]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xf16>

func.func @polygamma_f64(%n: tensor<4xf64>, %x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.polygamma %n, %x : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}
// (-1)^(n+1) exp(lgamma(n + 1)) zeta(n + 1, x), digamma(x) at n = 0, NaN unless n is a
// natural number; f64 stays f64.
// CHECK-LABEL: func.func @polygamma_f64
// CHECK-NOT:   stablehlo.convert
// CHECK:       stablehlo.remainder %n, %{{.*}} : tensor<4xf64>
// CHECK:       stablehlo.exponential
// CHECK:       stablehlo.power
// CHECK:       %[[N0:.*]] = stablehlo.compare EQ, %n, %{{.*}}, FLOAT : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
// CHECK:       stablehlo.floor %n : tensor<4xf64>
// CHECK:       %[[R:.*]] = stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf64>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xf64>
