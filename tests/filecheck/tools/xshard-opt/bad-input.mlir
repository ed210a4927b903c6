// Input xDSL's parser used to crash on, or silently change, is a located error
// (messages as mlir-opt 22's where it has them). Every chunk's error is reported and
// the run exits 1.
// RUN: not xshard-opt %s --split-input-file 2>&1 | filecheck %s

func.func @int_out_of_range() -> tensor<2xi16> {
  %0 = arith.constant dense<[1, 99999]> : tensor<2xi16>
  return %0 : tensor<2xi16>
}
// CHECK: bad-input.mlir:7:33: error: integer constant out of range for type

// -----

func.func @int_too_large_for_float() -> tensor<f32> {
  %0 = arith.constant dense<100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000> : tensor<f32>
  return %0 : tensor<f32>
}
// CHECK: bad-input.mlir:15:29: error: unexpected decimal integer literal for a floating point value

// -----

func.func @scalar_int_too_large_for_float() -> f32 {
  %0 = arith.constant 100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 : f32
  return %0 : f32
}
// CHECK: bad-input.mlir:23:23: error: unexpected decimal integer literal for a floating point value

// -----

func.func @dimension_beyond_int64(%x: tensor<9223372036854775808xf32>) {
  return
}
// CHECK: bad-input.mlir:30:46: error: invalid dimension

// -----

func.func @huge_splat() -> tensor<65536x65536xf32> {
  %0 = arith.constant dense<0.0> : tensor<65536x65536xf32>
  return %0 : tensor<65536x65536xf32>
}
// CHECK: bad-input.mlir:38:36: error: dense literal of 4294967296 elements: xshard reads at most 67108864 (2**26)

// -----

func.func @matmul_missing_operand(%a: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a : tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// CHECK: bad-input.mlir:46:22: error: custom op 'linalg.matmul' has too few operands for its region

// -----

func.func @reduce_dimension_out_of_range(%a: tensor<4x4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce ins(%a : tensor<4x4xf32>) outs(%c : tensor<4xf32>) dimensions = [7]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<4xf32>
}
// CHECK: bad-input.mlir:54:3: error: 'linalg.reduce' op dimensions for reduction should be in the range [0, 1].

// -----

func.func @f() {
  return
}
func.func @f() {
  return
}
// CHECK: bad-input.mlir:68:1: error: redefinition of symbol named 'f'

// -----

func.func @index_out_of_range() -> index {
  %0 = arith.constant -9223372036854775809 : index
  return %0 : index
}
// CHECK: bad-input.mlir:76:23: error: integer constant out of range for attribute

// -----

func.func @permutation_beyond_int64(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 18446744073709551616]
  return %0 : tensor<8x4xf32>
}
// CHECK: bad-input.mlir:84:25: error: integer value too large

// -----

func.func @use_before_def(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %1, %x : tensor<4xf32>
  %1 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: bad-input.mlir:92:3: error: operand #0 does not dominate this use

// -----

func.func @permutation_not_one(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [-1, 0]
  return %0 : tensor<8x4xf32>
}
// CHECK: bad-input.mlir:101:3: error: 'linalg.transpose' op permutation is not valid

// -----

func.func @product_of_dimensions(%a: index) -> index {
  %0 = affine.apply affine_map<(d0, d1) -> (d0 * d1)>(%a, %a)
  return %0 : index
}
// CHECK: bad-input.mlir:109:48: error: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic

// -----

func.func @scalar_for_complex() -> tensor<2xcomplex<f32>> {
  %0 = arith.constant dense<0.0> : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
// CHECK: bad-input.mlir:[[# @LINE - 3]]:29: error: parsed 1 elements, but type ('complex<f32>') expected 2 elements

// -----

func.func @switch_case_beyond_64_bits(%i: index) {
  scf.index_switch %i
  case -9223372036854775809 {
    scf.yield
  }
  default {
  }
  return
}
// CHECK: bad-input.mlir:[[# @LINE - 8]]:{{[0-9]+}}: error: integer value too large

// -----

// xDSL's lexer took 2**n steps on a quote never closed on its line.
%0 = "test.op"() {a = " 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28} : () -> ()
// CHECK: bad-input.mlir:[[# @LINE - 1]]:23: error: End of file reached before closing string literal.

// -----

// An op of xDSL's whose custom parser stores what it read unchecked.
func.func @insert_beyond_64_bits(%a: i32) {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, f64)>
  %1 = llvm.insertvalue %a, %0[18446744073709551616] : !llvm.struct<(i32, f64)>
  return
}
// CHECK: bad-input.mlir:[[# @LINE - 3]]:3: error: malformed operation: cannot fit 'int' into an index-sized integer

// -----

// An op of xDSL's whose custom parser raises on an unknown keyword.
func.func @unknown_iterator(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["paralel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: bad-input.mlir:[[# @LINE - 6]]:3: error: malformed operation: 'paralel' is not a valid IteratorType

// -----

// An op of xDSL's whose verifier raises a bare Exception.
func.func @load_short_of_indices(%m: memref<4x4xf32>, %i: index) -> f32 {
  %0 = memref.load %m[%i] : memref<4x4xf32>
  return %0 : f32
}
// CHECK: bad-input.mlir:[[# @LINE - 3]]:3: error: 'memref.load' op is invalid: expected an index for each dimension
