// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Pretty forms that must be refused while parsing, with a message saying why.

func.func @f(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.subtract across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
// CHECK: error: expected the inner-op to be a commutative binary-op from stablehlo dialect, zero region, producing single result; got 'stablehlo.subtract'

// -----

func.func @f(%p: tensor<i1>, %a: tensor<4xf32>) {
  %0 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  func.return
}
// CHECK: error: expected functional type or list of two types

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.add %a, %a, %a : tensor<4xf32>
  func.return
}
// CHECK: error: 'stablehlo.add' expects 2 operands, got 3

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.add %a, %a : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: error: 2 operands present, but expected 1

// -----

"test.op"() {dot = #stablehlo.dot<lhs_batch_dims = [0]>} : () -> ()
// CHECK: error: unknown field 'lhs_batch_dims' in #stablehlo.dot, expected one of lhs_batching_dimensions, rhs_batching_dimensions, lhs_contracting_dimensions, rhs_contracting_dimensions

// -----

%0 = stablehlo.constant dense<0x1FF800000> : tensor<f32>
// CHECK: error: hexadecimal float literal does not fit in f32

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.compare GREATER, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}
// CHECK: error: Expected `EQ`, `NE`, `GE`, `GT`, `LE`, or `LT`

// -----

// Integers beyond int64 are refused at the number, as mlir-opt does (xDSL crashed).
func.func @f(%x: tensor<4x8xf32>) {
  %0 = stablehlo.transpose %x, dims = [1, 18446744073709551616] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: invalid_syntax.mlir:57:43: error: integer value too large

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %0 = stablehlo.slice %x [1:3, 0:9223372036854775808] : (tensor<4x8xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: invalid_syntax.mlir:65:35: error: integer value too large

// -----

func.func @f() {
  %i = stablehlo.iota dim = -9223372036854775809 : tensor<4x8xi32>
  func.return
}
// CHECK: invalid_syntax.mlir:73:29: error: integer value too large

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [99999999999999999999] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
// CHECK: invalid_syntax.mlir:81:81: error: integer value too large

// -----

// An operand named after a block argument of the op's own region was never declared.
func.func @f(%x: tensor<4x8xf32>) {
  %0 = stablehlo.reduce(%x init: %b) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
     %s = stablehlo.add %a, %b : tensor<f32>
     stablehlo.return %s : tensor<f32>
   }
  func.return
}
// CHECK: invalid_syntax.mlir:90:3: error: use of undeclared SSA value name

// -----

func.func @f(%a: tensor<4xf32>) {
  %0 = stablehlo.reduce_precision %a, format = f8 : tensor<4xf32>
  func.return
}
// CHECK: invalid_syntax.mlir:102:48: error: expected a format such as e5m10

// -----

func.func @f(%s: tensor<2xui64>) {
  %a, %b = stablehlo.rng_bit_generator %s, algorithm = MERSENNE : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  func.return
}
// CHECK: invalid_syntax.mlir:110:56: error: Expected `DEFAULT`, `THREE_FRY`, or `PHILOX`.

// -----

func.func @f(%x: tensor<4x16xf32>) {
  %0 = stablehlo.fft %x, type = DCT, length = [16] : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
  func.return
}
// CHECK: invalid_syntax.mlir:118:33: error: Expected `FFT`, `IFFT`, `RFFT`, or `IRFFT`.
