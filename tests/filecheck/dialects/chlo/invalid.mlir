// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier failures of the chlo ops, one per chunk.

func.func @f(%x: tensor<4xi32>) {
  %0 = chlo.erf %x : tensor<4xi32> -> tensor<4xi32>
  func.return
}
// CHECK: 'chlo.erf' op operand element type must be float, got i32

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  %0 = chlo.lgamma %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return
}
// CHECK: 'chlo.lgamma' op operand element type must be float, got complex<f32>

// -----

func.func @f(%x: tensor<4xi32>) {
  %0 = chlo.square %x : tensor<4xi32> -> tensor<4xi32>
  func.return
}
// CHECK: 'chlo.square' op operand element type must be float or complex, got i32

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = chlo.erf_inv %x : tensor<4xf32> -> tensor<8xf32>
  func.return
}
// CHECK: 'chlo.erf_inv' op result type must be tensor<4xf32>, got tensor<8xf32>

// -----

func.func @f(%x: tensor<4xf32>) {
  %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xf32>
  func.return
}
// CHECK: 'chlo.is_inf' op result type must be tensor<4xi1>, got tensor<4xf32>

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %v, %i = chlo.top_k(%x, k = 9) : tensor<4x8xf32> -> (tensor<4x9xf32>, tensor<4x9xi32>)
  func.return
}
// CHECK: 'chlo.top_k' op operand's last dimension must be at least 9

// -----

func.func @f(%x: tensor<f32>) {
  %v, %i = chlo.top_k(%x, k = 1) : tensor<f32> -> (tensor<1xf32>, tensor<1xi32>)
  func.return
}
// CHECK: 'chlo.top_k' op operand's rank must be at least 1

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %v, %i = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi64>)
  func.return
}
// CHECK: 'chlo.top_k' op indices must be tensor<4x2xi32>, got tensor<4x2xi64>

// -----

func.func @f(%x: tensor<4x8xf32>) {
  %v, %i = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x3xf32>, tensor<4x2xi32>)
  func.return
}
// CHECK: 'chlo.top_k' op values must be tensor<4x2xf32>, got tensor<4x3xf32>
