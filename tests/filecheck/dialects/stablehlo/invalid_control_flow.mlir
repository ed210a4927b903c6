// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier failures of while, case, sort, optimization_barrier and the other ops added
// with them (is_finite, bitcast_convert, shifts), one per chunk.

func.func @f(%x: tensor<4xf32>) {
  %0 = stablehlo.while(%a = %x) : tensor<4xf32>
  cond {
    stablehlo.return %a : tensor<4xf32>
  } do {
    stablehlo.return %a : tensor<4xf32>
  }
  func.return
}
// CHECK: 'stablehlo.while' op cond must return one tensor<i1>, got (tensor<4xf32>)

// -----

func.func @f(%x: tensor<4xf32>, %p: tensor<i1>) {
  %0 = stablehlo.while(%a = %x) : tensor<4xf32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %h = stablehlo.constant dense<1.0> : tensor<2xf32>
    stablehlo.return %h : tensor<2xf32>
  }
  func.return
}
// CHECK: 'stablehlo.while' op body must return the loop state (tensor<4xf32>), got (tensor<2xf32>)

// -----

func.func @f(%x: tensor<4xf32>, %p: tensor<i1>) {
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<2xf32>):
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.while' op body must take the loop state (tensor<4xf32>), got (tensor<2xf32>)

// -----

func.func @f(%x: tensor<4xf32>, %i: tensor<i64>) {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i64>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.case' op index must be a rank-0 tensor of 32-bit integers, got tensor<i64>

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<2xf32>, %i: tensor<i32>) {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %y : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.case' op branch 1 returns (tensor<2xf32>), but the results are (tensor<4xf32>)

// -----

func.func @f(%x: tensor<4xf32>, %i: tensor<i32>) {
  %0 = "stablehlo.case"(%i) ({
    %e = stablehlo.exponential %x : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return
}
// CHECK: Operation stablehlo.exponential terminates block in single-block region but is not a terminator

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 2 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.sort' op dimension 2 is out of range [-2, 2)

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  func.return
}
// CHECK: 'stablehlo.sort' op comparator must take (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>), got (tensor<f32>, tensor<f32>)

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<4x7xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<4x7xi32>) -> (tensor<4x8xf32>, tensor<4x7xi32>)
  func.return
}
// CHECK: 'stablehlo.sort' op all inputs must have the same shape, input 1 is tensor<4x7xi32>

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.sort' op comparator must return one tensor<i1>, got (tensor<f32>)

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = "stablehlo.optimization_barrier"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  func.return
}
// CHECK: 'stablehlo.optimization_barrier' op result types (tensor<4xi32>) must be the operand types (tensor<4xf32>)

// -----

func.func @f(%x: tensor<4xi32>) {
  %0 = stablehlo.is_finite %x : (tensor<4xi32>) -> tensor<4xi1>
  func.return
}
// CHECK: 'stablehlo.is_finite' op operand element type must be float, got i32

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.is_finite' op result element type must be i1, got f32

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = stablehlo.shift_left %x, %x : tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.shift_left' op operand element type must be integer, got f32

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x4xbf16>
  func.return
}
// CHECK: 'stablehlo.bitcast_convert' op result shape must be [4, 2], got [4, 4]

// -----

func.func @f(%x: tensor<4x3xbf16>) {
  %0 = stablehlo.bitcast_convert %x : (tensor<4x3xbf16>) -> tensor<4xf32>
  func.return
}
// CHECK: 'stablehlo.bitcast_convert' op the operand's minor dim times 16 bits must be 32 bits, got tensor<4x3xbf16>

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return
}
// CHECK: 'stablehlo.bitcast_convert' op cannot bitcast between complex and non-complex element types, got f32 and complex<f32>
