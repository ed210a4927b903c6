// RUN: xshard-opt %s | filecheck %s
// RUN: xshard-opt %s | xshard-opt | xshard-opt --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC

// Regression: xDSL 0.74 reads a hex float element of a dense literal as an integer
// (`dense<0xFF800000> : tensor<f32>`, i.e. -inf, became 4.28657869e+09), which silently
// breaks every max-reduction JAX emits. `xshard.xdsl_compat.hex_float_elements` keeps the bits.

// The init value of softmax's max-reduction, as JAX prints it.
%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %ninf = stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK-GENERIC: "stablehlo.constant"() <{value = dense<0xff800000> : tensor<f32>}> : () -> tensor<f32>

// Inside a list, mixed with decimal elements; +inf and NaN.
%list = stablehlo.constant dense<[0xff800000, 1.000000e+00, 0x7F800000, 0x7FC00000]> : tensor<4xf32>
// CHECK: %list = stablehlo.constant dense<[0xff800000, 1.000000e+00, 0x7f800000, 0x7fc00000]> : tensor<4xf32>
// CHECK-GENERIC: dense<[0xff800000, 1.000000e+00, 0x7f800000, 0x7fc00000]> : tensor<4xf32>

// Other float widths.
%b = stablehlo.constant dense<0xFF80> : tensor<bf16>
%d = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
// CHECK: %b = stablehlo.constant dense<0xff80> : tensor<bf16>
// CHECK: %d = stablehlo.constant dense<0xfff0000000000000> : tensor<f64>

// Hex elements of integer tensors are still integers, and xDSL's own dialects get the fix too.
%i = stablehlo.constant dense<[0x10, 3]> : tensor<2xi32>
%a = arith.constant dense<0xFF800000> : tensor<2xf32>
// CHECK: %i = stablehlo.constant dense<[16, 3]> : tensor<2xi32>
// CHECK: %a = arith.constant dense<0xff800000> : tensor<2xf32>
// CHECK-NOT: e+09
