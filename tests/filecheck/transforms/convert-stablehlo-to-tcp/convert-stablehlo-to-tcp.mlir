// RUN: xshard-opt %s -p convert-stablehlo-to-tcp --split-input-file | filecheck %s

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: %0 = tcp.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %1 = tcp.sub %0, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %2 = tcp.mul %1, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %3 = tcp.divf %2, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %4 = tcp.max %3, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %5 = tcp.min %4, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %6 = tcp.tanh %5 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %7 = tcp.sigmoid %6 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %8 = tcp.exp %7 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %9 = tcp.log %8 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %10 = tcp.neg %9 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %11 = tcp.abs %10 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %12 = tcp.sqrt %11 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %13 = tcp.floor %12 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %14 = tcp.ceil %13 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %15 = tcp.cos %14 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %16 = tcp.sin %15 : tensor<4xf32> -> tensor<4xf32>
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.subtract %0, %b : tensor<4xf32>
  %2 = stablehlo.multiply %1, %b : tensor<4xf32>
  %3 = stablehlo.divide %2, %b : tensor<4xf32>
  %4 = stablehlo.maximum %3, %b : tensor<4xf32>
  %5 = stablehlo.minimum %4, %b : tensor<4xf32>
  %6 = stablehlo.tanh %5 : tensor<4xf32>
  %7 = stablehlo.logistic %6 : tensor<4xf32>
  %8 = stablehlo.exponential %7 : tensor<4xf32>
  %9 = stablehlo.log %8 : tensor<4xf32>
  %10 = stablehlo.negate %9 : tensor<4xf32>
  %11 = stablehlo.abs %10 : tensor<4xf32>
  %12 = stablehlo.sqrt %11 : tensor<4xf32>
  %13 = stablehlo.floor %12 : tensor<4xf32>
  %14 = stablehlo.ceil %13 : tensor<4xf32>
  %15 = stablehlo.cosine %14 : tensor<4xf32>
  %16 = stablehlo.sine %15 : tensor<4xf32>
  return %16 : tensor<4xf32>
}

// -----

// Integers: divide truncates (tcp.divsi Trunc); convert reads them as signed.
// Ops with no TCP twin for their types stay StableHLO: tcp.neg takes floats
// only, and booleans (i1) add as `or` in StableHLO but wrap in TCP.

// CHECK-LABEL: func.func @integers
// CHECK-NEXT: %0 = tcp.divsi %i, %j {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %1 = tcp.cast %0 {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
// CHECK-NEXT: %2 = tcp.cast %1 {out_int_signedness = #tcp<signedness Signed>} : tensor<4xf32> -> tensor<4xi8>
// CHECK-NEXT: %3 = tcp.cast %p {in_int_signedness = #tcp<signedness Signless>} : tensor<4xi1> -> tensor<4xf32>
// CHECK-NEXT: %4 = stablehlo.negate %i : tensor<4xi32>
// CHECK-NEXT: %5 = stablehlo.add %p, %p : tensor<4xi1>
func.func @integers(%i: tensor<4xi32>, %j: tensor<4xi32>, %p: tensor<4xi1>) -> tensor<4xi8> {
  %0 = stablehlo.divide %i, %j : tensor<4xi32>
  %1 = stablehlo.convert %0 : (tensor<4xi32>) -> tensor<4xf32>
  %2 = stablehlo.convert %1 : (tensor<4xf32>) -> tensor<4xi8>
  %3 = stablehlo.convert %p : (tensor<4xi1>) -> tensor<4xf32>
  %4 = stablehlo.negate %i : tensor<4xi32>
  %5 = stablehlo.add %p, %p : tensor<4xi1>
  return %2 : tensor<4xi8>
}

// -----

// broadcast_in_dim = rank expansion (expand_shape; reshape from rank 0, which
// xDSL's expand_shape rejects) + size-1 broadcasting (tcp.broadcast).

// CHECK-LABEL: func.func @broadcasts
// CHECK-NEXT: %0 = tensor.expand_shape %v [[0 : i64, 1 : i64]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK-NEXT: %1 = arith.constant 3 : index
// CHECK-NEXT: %2 = tcp.broadcast %0, %1 {axes = [0 : i64]} : tensor<1x4xf32>, index -> tensor<3x4xf32>
// CHECK-NEXT: %3 = tensor.expand_shape %c [[0 : i64, 1 : i64]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK-NEXT: %4 = arith.constant 4 : index
// CHECK-NEXT: %5 = tcp.broadcast %3, %4 {axes = [1 : i64]} : tensor<3x1xf32>, index -> tensor<3x4xf32>
// CHECK-NEXT: %6 = arith.constant dense<1> : tensor<2xi64>
// CHECK-NEXT: %7 = tensor.reshape %s(%6) : (tensor<f32>, tensor<2xi64>) -> tensor<1x1xf32>
// CHECK-NEXT: %8 = arith.constant 3 : index
// CHECK-NEXT: %9 = arith.constant 4 : index
// CHECK-NEXT: %10 = tcp.broadcast %7, %8, %9 {axes = [0 : i64, 1 : i64]} : tensor<1x1xf32>, index, index -> tensor<3x4xf32>
// CHECK-NEXT: %11 = arith.constant 5 : index
// CHECK-NEXT: %12 = tcp.broadcast %u, %11 {axes = [1 : i64]} : tensor<3x1xf32>, index -> tensor<3x5xf32>
// CHECK-NEXT: %13 = tensor.expand_shape %v [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 1, 4] : tensor<4xf32> into tensor<1x1x4xf32>
// Not size-1 broadcasting: a transposing dimension map stays StableHLO.
// CHECK-NEXT: %14 = stablehlo.broadcast_in_dim %m, dims = [1, 0]
func.func @broadcasts(%v: tensor<4xf32>, %c: tensor<3xf32>, %s: tensor<f32>, %u: tensor<3x1xf32>, %m: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
  %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
  %3 = stablehlo.broadcast_in_dim %u, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x5xf32>
  %4 = stablehlo.broadcast_in_dim %v, dims = [2] : (tensor<4xf32>) -> tensor<1x1x4xf32>
  %5 = stablehlo.broadcast_in_dim %m, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @matmuls
// CHECK-NEXT: %0 = tcp.matmul %a, %b : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %1 = tcp.matmul %p, %q : tensor<2x8x16xf32>, tensor<2x16x4xf32> -> tensor<2x8x4xf32>
// Contracting the lhs rows is not a matmul: left as it is.
// CHECK-NEXT: %2 = stablehlo.dot_general %b, %b2
func.func @matmuls(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %p: tensor<2x8x16xf32>, %q: tensor<2x16x4xf32>, %b2: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x16xf32>, tensor<2x16x4xf32>) -> tensor<2x8x4xf32>
  %2 = stablehlo.dot_general %b, %b2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A reduce with a recognised body and identity init becomes a keep-dims TCP
// reduction, then collapse_shape drops the dims as StableHLO does.

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %0 = tcp.reduce_sum %x {axes = [1 : i64]} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %1 = tensor.collapse_shape %0 {{\[}}[0 : i64, 1 : i64]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK-NEXT: %2 = tcp.reduce_max %x {axes = [0 : i64, 1 : i64]} : tensor<3x4xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %3 = tensor.collapse_shape %2 [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT: %4 = tcp.reduce_min %i {axes = [0 : i64]} : tensor<5xi32> -> tensor<1xi32>
// CHECK-NEXT: %5 = tensor.collapse_shape %4 [] : tensor<1xi32> into tensor<i32>
// A non-identity init value changes the result: left as it is.
// CHECK-NEXT: %one = tcp.const {value = dense<1.000000e+00> : tensor<f32>} : tensor<f32>
// CHECK-NEXT: %6 = stablehlo.reduce(%x init: %one) applies stablehlo.add
func.func @reductions(%x: tensor<3x4xf32>, %i: tensor<5xi32>) -> tensor<3xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
  %imax = stablehlo.constant dense<2147483647> : tensor<i32>
  %2 = stablehlo.reduce(%i init: %imax) applies stablehlo.minimum across dimensions = [0] : (tensor<5xi32>, tensor<i32>) -> tensor<i32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %3 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_and_constant
// CHECK-NEXT: %c = tcp.const {value = dense<[1, 2]> : tensor<2xi32>} : tensor<2xi32>
// CHECK-NEXT: %0 = arith.constant 1 : index
// CHECK-NEXT: %1 = arith.constant 0 : index
// CHECK-NEXT: %2 = arith.constant 2 : index
// CHECK-NEXT: %3 = tcp.slice %x starts(%0, %1) sizes(%2, %2) strides(%0, %2) : tensor<3x5xf32> -> tensor<2x2xf32>
func.func @slice_and_constant(%x: tensor<3x5xf32>) -> tensor<2x2xf32> {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.slice %x [1:3, 0:4:2] : (tensor<3x5xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
