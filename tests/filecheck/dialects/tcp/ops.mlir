// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// Every tcp op in its pretty (upstream TcpOps.td) syntax; each must survive a pass
// through the generic form unchanged.

// CHECK-LABEL: func.func @unary_float
func.func @unary_float(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcp.tanh %x : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %0 = tcp.tanh %x : tensor<?x4xf32> -> tensor<?x4xf32>
  %1 = tcp.sigmoid %0 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %1 = tcp.sigmoid %0 : tensor<?x4xf32> -> tensor<?x4xf32>
  %2 = tcp.sqrt %1 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %2 = tcp.sqrt %1 : tensor<?x4xf32> -> tensor<?x4xf32>
  %3 = tcp.ceil %2 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %3 = tcp.ceil %2 : tensor<?x4xf32> -> tensor<?x4xf32>
  %4 = tcp.floor %3 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %4 = tcp.floor %3 : tensor<?x4xf32> -> tensor<?x4xf32>
  %5 = tcp.round %4 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %5 = tcp.round %4 : tensor<?x4xf32> -> tensor<?x4xf32>
  %6 = tcp.round_even %5 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %6 = tcp.round_even %5 : tensor<?x4xf32> -> tensor<?x4xf32>
  %7 = tcp.cos %6 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %7 = tcp.cos %6 : tensor<?x4xf32> -> tensor<?x4xf32>
  %8 = tcp.sin %7 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %8 = tcp.sin %7 : tensor<?x4xf32> -> tensor<?x4xf32>
  %9 = tcp.log %8 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %9 = tcp.log %8 : tensor<?x4xf32> -> tensor<?x4xf32>
  %10 = tcp.neg %9 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %10 = tcp.neg %9 : tensor<?x4xf32> -> tensor<?x4xf32>
  %11 = tcp.atan %10 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %11 = tcp.atan %10 : tensor<?x4xf32> -> tensor<?x4xf32>
  %12 = tcp.exp %11 : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK-NEXT: %12 = tcp.exp %11 : tensor<?x4xf32> -> tensor<?x4xf32>
  return %12 : tensor<?x4xf32>
}
// CHECK-GENERIC: "tcp.exp"(%11) : (tensor<?x4xf32>) -> tensor<?x4xf32>

// -----

// CHECK-LABEL: func.func @abs
func.func @abs(%f: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %0 = tcp.abs %f : tensor<3xf32> -> tensor<3xf32>
  // CHECK-NEXT: %0 = tcp.abs %f : tensor<3xf32> -> tensor<3xf32>
  %1 = tcp.abs %i : tensor<3xi32> -> tensor<3xi32>
  // CHECK-NEXT: %1 = tcp.abs %i : tensor<3xi32> -> tensor<3xi32>
  return %0, %1 : tensor<3xf32>, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x?xf32>, %b: tensor<2x?xf32>, %i: tensor<5xi8>) -> tensor<2x?xf32> {
  %0 = tcp.add %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %0 = tcp.add %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %1 = tcp.sub %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %1 = tcp.sub %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %2 = tcp.mul %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %2 = tcp.mul %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %3 = tcp.max %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %3 = tcp.max %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %4 = tcp.min %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %4 = tcp.min %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %5 = tcp.divf %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %5 = tcp.divf %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %6 = tcp.atan2 %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK-NEXT: %6 = tcp.atan2 %a, %b : tensor<2x?xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %7 = tcp.add %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  // CHECK-NEXT: %7 = tcp.add %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  %8 = tcp.sub %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  // CHECK-NEXT: %8 = tcp.sub %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  %9 = tcp.mul %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  // CHECK-NEXT: %9 = tcp.mul %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  %10 = tcp.max %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  // CHECK-NEXT: %10 = tcp.max %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  %11 = tcp.min %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  // CHECK-NEXT: %11 = tcp.min %i, %i : tensor<5xi8>, tensor<5xi8> -> tensor<5xi8>
  return %0 : tensor<2x?xf32>
}
// CHECK-GENERIC: "tcp.atan2"(%a, %b) : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>

// -----

// CHECK-LABEL: func.func @int_division
func.func @int_division(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: %0 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: %1 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: %2 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %3 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: %3 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %4 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: %4 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %5 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: %5 = tcp.divui %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK-GENERIC: "tcp.divui"(%a, %b) <{rounding_mode = #tcp<roundingMode Ceil>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>

// -----

// CHECK-LABEL: func.func @clamp
func.func @clamp(%f: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = tcp.clamp %f {min_float = 0.0 : f32} : tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: %0 = tcp.clamp %f {min_float = 0.000000e+00 : f32} : tensor<4xf32> -> tensor<4xf32>
  %1 = tcp.clamp %f {min_float = -1.0 : f32, max_float = 6.0 : f32} : tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: %1 = tcp.clamp %f {min_float = -1.000000e+00 : f32, max_float = 6.000000e+00 : f32} : tensor<4xf32> -> tensor<4xf32>
  %2 = tcp.clamp %i {max_int = 7 : i64} : tensor<4xi64> -> tensor<4xi64>
  // CHECK-NEXT: %2 = tcp.clamp %i {max_int = 7 : i64} : tensor<4xi64> -> tensor<4xi64>
  return %1, %2 : tensor<4xf32>, tensor<4xi64>
}
// CHECK-GENERIC: "tcp.clamp"(%i) <{max_int = 7 : i64}> : (tensor<4xi64>) -> tensor<4xi64>

// -----

// CHECK-LABEL: func.func @const
func.func @const() -> (tensor<f32>, tensor<2x2xi32>) {
  %0 = tcp.const {value = dense<2.5> : tensor<f32>} : tensor<f32>
  // CHECK-NEXT: %0 = tcp.const {value = dense<2.500000e+00> : tensor<f32>} : tensor<f32>
  %1 = tcp.const {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : tensor<2x2xi32>
  // CHECK-NEXT: %1 = tcp.const {value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>} : tensor<2x2xi32>
  return %0, %1 : tensor<f32>, tensor<2x2xi32>
}
// CHECK-GENERIC: "tcp.const"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>

// -----

// CHECK-LABEL: func.func @cast
func.func @cast(%i: tensor<4xi32>, %f: tensor<4xf32>, %b: tensor<4xi1>) -> tensor<4xf16> {
  %0 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
  // CHECK-NEXT: %0 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
  %1 = tcp.cast %f {out_int_signedness = #tcp<signedness Unsigned>} : tensor<4xf32> -> tensor<4xi8>
  // CHECK-NEXT: %1 = tcp.cast %f {out_int_signedness = #tcp<signedness Unsigned>} : tensor<4xf32> -> tensor<4xi8>
  %2 = tcp.cast %b {in_int_signedness = #tcp<signedness Signless>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi1> -> tensor<4xi64>
  // CHECK-NEXT: %2 = tcp.cast %b {in_int_signedness = #tcp<signedness Signless>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi1> -> tensor<4xi64>
  %3 = tcp.cast %f : tensor<4xf32> -> tensor<4xf16>
  // CHECK-NEXT: %3 = tcp.cast %f : tensor<4xf32> -> tensor<4xf16>
  return %3 : tensor<4xf16>
}
// CHECK-GENERIC: "tcp.cast"(%i) <{in_int_signedness = #tcp<signedness Signed>}> : (tensor<4xi32>) -> tensor<4xf32>

// -----

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<1x?x1xf32>, %v: tensor<?xf32>, %m: index, %n: index) -> (tensor<?x?x?xf32>, tensor<3x?xf32>) {
  %0 = tcp.broadcast %x, %m, %n {axes = [0, 2]} : tensor<1x?x1xf32>, index, index -> tensor<?x?x?xf32>
  // CHECK-NEXT: %0 = tcp.broadcast %x, %m, %n {axes = [0 : i64, 2 : i64]} : tensor<1x?x1xf32>, index, index -> tensor<?x?x?xf32>
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %d = tensor.dim %v, %c0 : tensor<?xf32>
  %e = tensor.expand_shape %v [[0, 1]] output_shape [1, %d] : tensor<?xf32> into tensor<1x?xf32>
  %1 = tcp.broadcast %e, %c3 {axes = [0]} : tensor<1x?xf32>, index -> tensor<3x?xf32>
  // CHECK: %1 = tcp.broadcast %e, %c3 {axes = [0 : i64]} : tensor<1x?xf32>, index -> tensor<3x?xf32>
  return %0, %1 : tensor<?x?x?xf32>, tensor<3x?xf32>
}
// CHECK-GENERIC: "tcp.broadcast"(%x, %m, %n) <{axes = [0 : i64, 2 : i64]}> : (tensor<1x?x1xf32>, index, index) -> tensor<?x?x?xf32>

// -----

// CHECK-LABEL: func.func @slice
func.func @slice(%x: tensor<1x56x?x?xf32>, %d2: index, %d3: index) -> tensor<1x28x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c28 = arith.constant 28 : index
  %0 = tcp.slice %x starts(%c0, %c0, %c0, %c0) sizes(%c1, %c28, %d2, %d3) strides(%c1, %c2, %c1, %c1) : tensor<1x56x?x?xf32> -> tensor<1x28x?x?xf32>
  // CHECK: %0 = tcp.slice %x starts(%c0, %c0, %c0, %c0) sizes(%c1, %c28, %d2, %d3) strides(%c1, %c2, %c1, %c1) : tensor<1x56x?x?xf32> -> tensor<1x28x?x?xf32>
  return %0 : tensor<1x28x?x?xf32>
}
// CHECK-GENERIC: "tcp.slice"(%x, %c0, %c0, %c0, %c0, %c1, %c28, %d2, %d3, %c1, %c2, %c1, %c1) : (tensor<1x56x?x?xf32>, index, index, index, index, index, index, index, index, index, index, index, index) -> tensor<1x28x?x?xf32>

// -----

// CHECK-LABEL: func.func @gather
func.func @gather(%x: tensor<?x?xf32>, %i: tensor<2x?xi64>) -> tensor<2x?xf32> {
  %0 = tcp.gather %x, %i {dim = 0 : index} : tensor<?x?xf32>, tensor<2x?xi64> -> tensor<2x?xf32>
  // CHECK-NEXT: %0 = tcp.gather %x, %i {dim = 0 : index} : tensor<?x?xf32>, tensor<2x?xi64> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
// CHECK-GENERIC: "tcp.gather"(%x, %i) <{dim = 0 : index}> : (tensor<?x?xf32>, tensor<2x?xi64>) -> tensor<2x?xf32>

// -----

// CHECK-LABEL: func.func @groups
func.func @groups(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0, %1 = tcp.group {
    %s = tcp.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %t = tcp.tanh %s : tensor<4xf32> -> tensor<4xf32>
    tcp.yield %s, %t : tensor<4xf32>, tensor<4xf32>
  } : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: %0:2 = tcp.group {
  // CHECK-NEXT:   %s = tcp.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT:   %t = tcp.tanh %s : tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT:   tcp.yield %s, %t : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: } : tensor<4xf32>, tensor<4xf32>
  %2 = tcp.isolated_group %0, %1 attributes {group_id = 1 : i64} {
  ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
    %m = tcp.mul %p, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    tcp.yield %m : tensor<4xf32>
  } : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: %1 = tcp.isolated_group %0#0, %0#1 attributes {group_id = 1 : i64} {
  // CHECK-NEXT: ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
  // CHECK-NEXT:   %m = tcp.mul %p, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT:   tcp.yield %m : tensor<4xf32>
  // CHECK-NEXT: } : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-GENERIC: "tcp.isolated_group"(%0#0, %0#1) ({
// CHECK-GENERIC: "tcp.yield"(%m) : (tensor<4xf32>) -> ()
// CHECK-GENERIC: }) {group_id = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>

// -----

// CHECK-LABEL: func.func @custom_op
func.func @custom_op(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xi64>) {
  %0, %1 = tcp.custom_op("torch.aten.topk") %x {k = 2 : i64, dim = 1 : i64} : tensor<?x3xf32> -> tensor<?x3xf32>, tensor<?x3xi64>
  // CHECK-NEXT: %0:2 = tcp.custom_op("torch.aten.topk") %x {k = 2 : i64, dim = 1 : i64} : tensor<?x3xf32> -> tensor<?x3xf32>, tensor<?x3xi64>
  return %0, %1 : tensor<?x3xf32>, tensor<?x3xi64>
}
// CHECK-GENERIC: "tcp.custom_op"(%x) <{op_name = "torch.aten.topk"}> {k = 2 : i64, dim = 1 : i64} : (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xi64>)

// -----

// xshard additions: batched matmul and keep-dims reductions.

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %p: tensor<2x?x8x16xf32>, %q: tensor<2x?x16x?xf32>) -> (tensor<8x4xf32>, tensor<2x?x8x?xf32>) {
  %0 = tcp.matmul %a, %b : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
  // CHECK-NEXT: %0 = tcp.matmul %a, %b : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
  %1 = tcp.matmul %p, %q : tensor<2x?x8x16xf32>, tensor<2x?x16x?xf32> -> tensor<2x?x8x?xf32>
  // CHECK-NEXT: %1 = tcp.matmul %p, %q : tensor<2x?x8x16xf32>, tensor<2x?x16x?xf32> -> tensor<2x?x8x?xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<2x?x8x?xf32>
}
// CHECK-GENERIC: "tcp.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>

// -----

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x?x6xf32>, %i: tensor<5x3xi32>) -> tensor<4x1x6xf32> {
  %0 = tcp.reduce_sum %x {axes = [1]} : tensor<4x?x6xf32> -> tensor<4x1x6xf32>
  // CHECK-NEXT: %0 = tcp.reduce_sum %x {axes = [1 : i64]} : tensor<4x?x6xf32> -> tensor<4x1x6xf32>
  %1 = tcp.reduce_max %x {axes = [0, 2]} : tensor<4x?x6xf32> -> tensor<1x?x1xf32>
  // CHECK-NEXT: %1 = tcp.reduce_max %x {axes = [0 : i64, 2 : i64]} : tensor<4x?x6xf32> -> tensor<1x?x1xf32>
  %2 = tcp.reduce_min %i {axes = [0, 1]} : tensor<5x3xi32> -> tensor<1x1xi32>
  // CHECK-NEXT: %2 = tcp.reduce_min %i {axes = [0 : i64, 1 : i64]} : tensor<5x3xi32> -> tensor<1x1xi32>
  %3 = tcp.reduce_prod %i {axes = [1]} : tensor<5x3xi32> -> tensor<5x1xi32>
  // CHECK-NEXT: %3 = tcp.reduce_prod %i {axes = [1 : i64]} : tensor<5x3xi32> -> tensor<5x1xi32>
  return %0 : tensor<4x1x6xf32>
}
// CHECK-GENERIC: "tcp.reduce_max"(%x) <{axes = [0 : i64, 2 : i64]}> : (tensor<4x?x6xf32>) -> tensor<1x?x1xf32>
