// RUN: xshard-opt %s -p convert-tcp-to-stablehlo | filecheck %s

// Broadcast, slice, reshapes, matmul and the keep-dims reductions. The index
// operands become static shapes, and their now-dead producers are removed.

// CHECK-LABEL: func.func @bias_add
// CHECK-NEXT: %e = stablehlo.reshape %b : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %e, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %1 = stablehlo.add %x, %0 : tensor<3x4xf32>
// CHECK-NEXT: func.return %1 : tensor<3x4xf32>
func.func @bias_add(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %c3 = arith.constant 3 : index
  %e = tensor.expand_shape %b [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %0 = tcp.broadcast %e, %c3 {axes = [0]} : tensor<1x4xf32>, index -> tensor<3x4xf32>
  %1 = tcp.add %x, %0 : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %0 = stablehlo.reshape %x : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %s : (tensor<f32>) -> tensor<1x1xf32>
func.func @reshapes(%x: tensor<2x1x3xf32>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<1x1xf32>) {
  %0 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x1x3xf32> into tensor<2x3xf32>
  %shape = arith.constant dense<1> : tensor<2xi64>
  %1 = tensor.reshape %s(%shape) : (tensor<f32>, tensor<2xi64>) -> tensor<1x1xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<1x1xf32>
}

// CHECK-LABEL: func.func @slice
// CHECK-NEXT: %0 = stablehlo.slice %x [1:3, 0:3:2] : (tensor<3x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: func.return %0
func.func @slice(%x: tensor<3x4xf32>) -> tensor<2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = tcp.slice %x starts(%c1, %c0) sizes(%c2, %c2) strides(%c1, %c2) : tensor<3x4xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %p, %q, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x3x8x16xf32>, tensor<2x3x16x4xf32>) -> tensor<2x3x8x4xf32>
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %p: tensor<2x3x8x16xf32>, %q: tensor<2x3x16x4xf32>) -> (tensor<8x4xf32>, tensor<2x3x8x4xf32>) {
  %0 = tcp.matmul %a, %b : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
  %1 = tcp.matmul %p, %q : tensor<2x3x8x16xf32>, tensor<2x3x16x4xf32> -> tensor<2x3x8x4xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<2x3x8x4xf32>
}

// StableHLO's reduce drops the reduced dims; a reshape restores them with size 1.
// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = stablehlo.reduce(%x init: %0) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<3xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %3 = stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT: %4 = stablehlo.reduce(%x init: %3) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %5 = stablehlo.reshape %4 : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT: %6 = stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT: %7 = stablehlo.reduce(%x init: %6) applies stablehlo.minimum
// CHECK-NEXT: %8 = stablehlo.reshape %7
// CHECK-NEXT: %9 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.reduce(%i init: %9) applies stablehlo.multiply across dimensions = [0] : (tensor<5xi32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %11 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %12 = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT: %13 = stablehlo.reduce(%i init: %12) applies stablehlo.maximum
// CHECK-NEXT: %14 = stablehlo.reshape %13
func.func @reductions(%x: tensor<3x4xf32>, %i: tensor<5xi32>) -> (tensor<3x1xf32>, tensor<1x1xf32>, tensor<3x1xf32>, tensor<1xi32>, tensor<1xi32>) {
  %0 = tcp.reduce_sum %x {axes = [1]} : tensor<3x4xf32> -> tensor<3x1xf32>
  %1 = tcp.reduce_max %x {axes = [0, 1]} : tensor<3x4xf32> -> tensor<1x1xf32>
  %2 = tcp.reduce_min %x {axes = [1]} : tensor<3x4xf32> -> tensor<3x1xf32>
  %3 = tcp.reduce_prod %i {axes = [0]} : tensor<5xi32> -> tensor<1xi32>
  %4 = tcp.reduce_max %i {axes = [0]} : tensor<5xi32> -> tensor<1xi32>
  return %0, %1, %2, %3, %4 : tensor<3x1xf32>, tensor<1x1xf32>, tensor<3x1xf32>, tensor<1xi32>, tensor<1xi32>
}
