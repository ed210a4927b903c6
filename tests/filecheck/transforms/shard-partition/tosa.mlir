// tosa payloads: tosa.const becomes the local splat (a dense constant is built whole
// and sliced); zero points stay replicated operands; a split contraction or reduction
// leaves a partial result that is settled where a user asks (reduce_scatter when the
// user wants it split, all_reduce before tanh, which takes no partial operand).
// RUN: xshard-opt %s -p 'sharding-propagation,shard-partition' | filecheck %s

shard.grid @g(shape = 4)

func.func @const_splat() -> tensor<8x6xf32> {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<8x6xf32>}> : () -> tensor<8x6xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<8x6xf32>
  func.return %c1 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @const_splat() -> tensor<2x6xf32> {
// CHECK-NEXT:    %0 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<2x6xf32>}> : () -> tensor<2x6xf32>
// CHECK-NEXT:    func.return %0 : tensor<2x6xf32>

func.func @const_dense() -> tensor<4xi32> {
  %c = "tosa.const"() <{values = dense<[3, 1, 4, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<4xi32>
  func.return %c1 : tensor<4xi32>
}
// CHECK-LABEL: func.func @const_dense() -> tensor<1xi32> {
// CHECK-NEXT:    %0 = "tosa.const"() <{values = dense<[3, 1, 4, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [0] slice_axis = 0 : tensor<4xi32> -> tensor<1xi32>
// CHECK-NEXT:    func.return %1 : tensor<1xi32>

func.func @matmul_split_k(%a: tensor<2x8x16xf32>, %b: tensor<2x16x4xf32>) -> tensor<2x8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<2x8x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a1, %b, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  %p = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %0 = shard.shard %m to %p : tensor<2x8x4xf32>
  %1 = tosa.negate %0, %zp, %zp : (tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  %r = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %2 = shard.shard %1 to %r annotate_for_users : tensor<2x8x4xf32>
  func.return %2 : tensor<2x8x4xf32>
}
// CHECK-LABEL: func.func @matmul_split_k(%a: tensor<2x8x4xf32>, %b: tensor<2x4x4xf32>) -> tensor<2x2x4xf32> {
// CHECK-NEXT:    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// CHECK-NEXT:    %1 = tosa.matmul %a, %b, %0, %0 : (tensor<2x8x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT:    %2 = shard.reduce_scatter %1 on @g grid_axes = [0] scatter_axis = 1 : tensor<2x8x4xf32> -> tensor<2x2x4xf32>
// CHECK-NEXT:    %3 = tosa.negate %2, %0, %0 : (tensor<2x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    func.return %3 : tensor<2x2x4xf32>

func.func @reduce_sum_then_tanh(%x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %0 = tosa.reduce_sum %x1 {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %1 = tosa.tanh %0 : (tensor<8x1xf32>) -> tensor<8x1xf32>
  func.return %1 : tensor<8x1xf32>
}
// CHECK-LABEL: func.func @reduce_sum_then_tanh(%x: tensor<8x4xf32>) -> tensor<8x1xf32> {
// CHECK-NEXT:    %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<8x4xf32>) -> tensor<8x1xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %0 on @g grid_axes = [0] : tensor<8x1xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %2 = tosa.tanh %1 : (tensor<8x1xf32>) -> tensor<8x1xf32>
// CHECK-NEXT:    func.return %2 : tensor<8x1xf32>
