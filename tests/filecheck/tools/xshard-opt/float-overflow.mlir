// A float literal beyond its type's range is infinity, as in mlir-opt 22 (xDSL
// raised OverflowError packing it).
// RUN: xshard-opt %s | filecheck %s

func.func @f() -> (f32, tensor<2xf32>, tensor<f16>) {
  %0 = arith.constant 1.0e39 : f32
  %1 = arith.constant dense<[1.0, -1.0e39]> : tensor<2xf32>
  %2 = arith.constant dense<70000.0> : tensor<f16>
  return %0, %1, %2 : f32, tensor<2xf32>, tensor<f16>
}
// CHECK:      arith.constant 0x7f800000 : f32
// CHECK-NEXT: arith.constant dense<[1.000000e+00, 0xff800000]> : tensor<2xf32>
// CHECK-NEXT: arith.constant dense<0x7c00> : tensor<f16>
