// RUN: xshard-opt %s -p convert-tcp-to-stablehlo | filecheck %s

// Integer division, clamp bounds and casts, where TCP says more than StableHLO's
// signless-means-signed integers: the lowering spells the difference out.

// CHECK-LABEL: func.func @divsi_trunc
// CHECK-NEXT: %0 = stablehlo.divide %a, %b : tensor<4xi32>
// CHECK-NEXT: func.return %0
func.func @divsi_trunc(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @divsi_floor
// CHECK-NEXT: %0 = stablehlo.divide %a, %b : tensor<4xi32>
// CHECK-NEXT: %1 = stablehlo.remainder %a, %b : tensor<4xi32>
// CHECK-NEXT: %2 = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %3 = stablehlo.constant dense<1> : tensor<4xi32>
// CHECK-NEXT: %4 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %5 = stablehlo.compare LT, %1, %2, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %6 = stablehlo.compare LT, %b, %2, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %7 = stablehlo.compare NE, %5, %6, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %8 = stablehlo.and %4, %7 : tensor<4xi1>
// CHECK-NEXT: %9 = stablehlo.subtract %0, %3 : tensor<4xi32>
// CHECK-NEXT: %10 = stablehlo.select %8, %9, %0 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT: func.return %10
func.func @divsi_floor(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @divsi_ceil
// CHECK:      %[[SAME:.*]] = stablehlo.compare EQ, %{{.*}}, %{{.*}}, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %[[ADJ:.*]] = stablehlo.and %{{.*}}, %[[SAME]] : tensor<4xi1>
// CHECK-NEXT: %[[UP:.*]] = stablehlo.add %0, %{{.*}} : tensor<4xi32>
// CHECK-NEXT: %{{.*}} = stablehlo.select %[[ADJ]], %[[UP]], %0 : tensor<4xi1>, tensor<4xi32>
func.func @divsi_ceil(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Unsigned division runs on ui32; floor is truncation there.
// CHECK-LABEL: func.func @divui_floor
// CHECK-NEXT: %0 = stablehlo.convert %a : (tensor<4xi32>) -> tensor<4xui32>
// CHECK-NEXT: %1 = stablehlo.convert %b : (tensor<4xi32>) -> tensor<4xui32>
// CHECK-NEXT: %2 = stablehlo.divide %0, %1 : tensor<4xui32>
// CHECK-NEXT: %3 = stablehlo.convert %2 : (tensor<4xui32>) -> tensor<4xi32>
// CHECK-NEXT: func.return %3
func.func @divui_floor(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @divui_ceil
// CHECK:      %[[R:.*]] = stablehlo.remainder %0, %1 : tensor<4xui32>
// CHECK:      %[[NZ:.*]] = stablehlo.compare NE, %[[R]], %{{.*}}, UNSIGNED
// CHECK-NEXT: %[[UP:.*]] = stablehlo.add %2, %{{.*}} : tensor<4xui32>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.select %[[NZ]], %[[UP]], %2 : tensor<4xi1>, tensor<4xui32>
// CHECK-NEXT: %{{.*}} = stablehlo.convert %[[Q]] : (tensor<4xui32>) -> tensor<4xi32>
func.func @divui_ceil(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// A missing clamp bound is the element type's extreme.
// CHECK-LABEL: func.func @clamp
// CHECK-NEXT: %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT: %2 = stablehlo.clamp %0, %f, %1 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.constant dense<5> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.clamp %3, %i, %4 : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT: %6 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
// CHECK-NEXT: %7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %8 = stablehlo.clamp %6, %f, %7
// i64 bounds beyond the element type saturate to it.
// CHECK-NEXT: %9 = stablehlo.constant dense<-128> : tensor<i8>
// CHECK-NEXT: %10 = stablehlo.constant dense<100> : tensor<i8>
// CHECK-NEXT: %11 = stablehlo.clamp %9, %b, %10
func.func @clamp(%f: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi8>) {
  %0 = tcp.clamp %f {min_float = 0.0 : f32} : tensor<4xf32> -> tensor<4xf32>
  %1 = tcp.clamp %i {max_int = 5 : i64} : tensor<4xi32> -> tensor<4xi32>
  %2 = tcp.clamp %f {min_float = -1.0 : f32, max_float = 1.0 : f32} : tensor<4xf32> -> tensor<4xf32>
  %3 = tcp.clamp %b {min_int = -1000 : i64, max_int = 100 : i64} : tensor<4xi8> -> tensor<4xi8>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi8>
}

// CHECK-LABEL: func.func @const
// CHECK-NEXT: %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
func.func @const() -> tensor<3xi32> {
  %0 = tcp.const {value = dense<[1, 2, 3]> : tensor<3xi32>} : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// CHECK-LABEL: func.func @cast
// CHECK-NEXT: %0 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<4xui32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xui8>
// CHECK-NEXT: %4 = stablehlo.convert %3 : (tensor<4xui8>) -> tensor<4xi8>
// CHECK-NEXT: %5 = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xf16>
func.func @cast(%i: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xf16>) {
  %0 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
  %1 = tcp.cast %i {in_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi32> -> tensor<4xf32>
  %2 = tcp.cast %f {out_int_signedness = #tcp<signedness Unsigned>} : tensor<4xf32> -> tensor<4xi8>
  %3 = tcp.cast %f : tensor<4xf32> -> tensor<4xf16>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xf16>
}
