// RUN: xshard-opt %s -p convert-tcp-to-stablehlo --split-input-file --verify-diagnostics | filecheck %s

// What cannot be lowered is reported at the op, with the reason.

func.func @gather(%x: tensor<4x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = tcp.gather %x, %i {dim = 0 : index} : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// CHECK: invalid.mlir:6:3: error: cannot lower 'tcp.gather' to StableHLO: xshard's StableHLO subset has no stablehlo.gather

// -----

func.func @dynamic_slice_start(%x: tensor<8xf32>, %s: index) -> tensor<2xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = tcp.slice %x starts(%s) sizes(%c2) strides(%c1) : tensor<8xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK: invalid.mlir:16:3: error: cannot lower 'tcp.slice' to StableHLO: starts, sizes and strides must be arith.constant values

// -----

func.func @slice_size_contradicts_type(%x: tensor<8xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %0 = tcp.slice %x starts(%c0) sizes(%c3) strides(%c1) : tensor<8xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK: error: cannot lower 'tcp.slice' to StableHLO: sizes [3] contradict the result type tensor<2xf32>

// -----

func.func @dynamic_broadcast(%x: tensor<1x4xf32>, %n: index) -> tensor<?x4xf32> {
  %0 = tcp.broadcast %x, %n {axes = [0]} : tensor<1x4xf32>, index -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
// CHECK: error: cannot lower 'tcp.broadcast' to StableHLO: tensor<?x4xf32> does not have a static shape

// -----

func.func @broadcast_size_contradicts_type(%x: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %c5 = arith.constant 5 : index
  %0 = tcp.broadcast %x, %c5 {axes = [0]} : tensor<1x4xf32>, index -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// CHECK: error: cannot lower 'tcp.broadcast' to StableHLO: new size 5 of dimension 0 contradicts the result type tensor<3x4xf32>

// -----

func.func @dynamic_reduction(%x: tensor<?x4xf32>) -> tensor<?x1xf32> {
  %0 = tcp.reduce_sum %x {axes = [1]} : tensor<?x4xf32> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}
// CHECK: error: cannot lower 'tcp.reduce_sum' to StableHLO: tensor<?x1xf32> does not have a static shape

// -----

func.func @dynamic_expand_shape(%x: tensor<?xf32>, %d: index) -> tensor<1x?xf32> {
  %0 = tensor.expand_shape %x [[0, 1]] output_shape [1, %d] : tensor<?xf32> into tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}
// CHECK: error: cannot lower 'tensor.expand_shape' to StableHLO: tensor<1x?xf32> does not have a static shape

// -----

func.func @boolean_add(%p: tensor<4xi1>) -> tensor<4xi1> {
  %0 = tcp.add %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// CHECK: error: cannot lower 'tcp.add' on i1 to StableHLO: StableHLO computes on booleans as logic (add is or), not as integers modulo 2

// -----

func.func @boolean_reduction(%p: tensor<4xi1>) -> tensor<1xi1> {
  %0 = tcp.reduce_sum %p {axes = [0]} : tensor<4xi1> -> tensor<1xi1>
  return %0 : tensor<1xi1>
}
// CHECK: error: cannot lower 'tcp.reduce_sum' on i1 to StableHLO

// -----

func.func @slice_out_of_bounds(%x: tensor<8xf32>) -> tensor<4xf32> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = tcp.slice %x starts(%c2) sizes(%c4) strides(%c2) : tensor<8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: error: cannot lower 'tcp.slice' to StableHLO: starts [2], sizes [4], strides [2] do not select inside tensor<8xf32> with positive strides
