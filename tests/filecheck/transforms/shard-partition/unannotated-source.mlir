// A forward sweep never reaches a constant (it has no operands), so its result keeps
// no annotation: the constant is replicated, and each user slices what it wants.
// RUN: xshard-opt %s -p 'sharding-propagation{traversal=forward},shard-partition' | filecheck %s

shard.grid @g(shape = 4)
func.func @relu(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
  %0 = stablehlo.maximum %x1, %zero : tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @relu(
// CHECK-SAME:    %[[X:.*]]: tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
// CHECK-NEXT:    %[[Z:.*]] = shard.all_slice %[[ZERO]] on @g grid_axes = [0] slice_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.maximum %[[X]], %[[Z]] : tensor<2x16xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x16xf32>
