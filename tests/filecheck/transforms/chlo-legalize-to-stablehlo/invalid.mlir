// What chlo-legalize-to-stablehlo cannot lower is a located error: complex arguments of
// the functions it decomposes for real ones only, and dynamic shapes.
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p chlo-legalize-to-stablehlo | filecheck %s

func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.asin %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: invalid.mlir:6:3: error: 'chlo.asin' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @complex_square(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.square %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: invalid.mlir:14:3: error: 'chlo.square' on complex numbers is not supported by chlo-legalize-to-stablehlo

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = chlo.erf %x : tensor<?xf32> -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
// CHECK: invalid.mlir:22:3: error: chlo-legalize-to-stablehlo needs static shapes, got tensor<?xf32>
