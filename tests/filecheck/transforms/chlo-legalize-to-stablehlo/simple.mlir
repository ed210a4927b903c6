// square is x * x, tan is stablehlo.tan, the infinity tests compare (the absolute value)
// with a broadcast infinity, conj of a real is the real.
// RUN: xshard-opt %s -p chlo-legalize-to-stablehlo | filecheck %s

func.func @simple(%x: tensor<4xf32>, %c: tensor<4xcomplex<f32>>) -> (tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.tan %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %2 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %3 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  %4 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  func.return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}
// CHECK-LABEL: func.func @simple
// CHECK-NEXT:  %0 = stablehlo.multiply %x, %x : tensor<4xf32>
// CHECK-NEXT:  %1 = stablehlo.tan %c : tensor<4xcomplex<f32>>
// CHECK-NEXT:  %2 = stablehlo.abs %x : tensor<4xf32>
// CHECK-NEXT:  %3 = stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT:  %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %5 = stablehlo.compare EQ, %2, %4, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %6 = stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT:  %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %8 = stablehlo.compare EQ, %x, %7, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %9 = stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT:  %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %11 = stablehlo.compare EQ, %x, %10, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  func.return %0, %1, %5, %8, %11

func.func @conj(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.conj %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @conj
// CHECK-NEXT:  func.return %x : tensor<4xf32>
