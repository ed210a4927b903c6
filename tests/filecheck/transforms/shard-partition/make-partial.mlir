// A reshard to a value partial over axes where the source is not needs no collective:
// for sum (and product) each device selects its block if it is the first of its group
// along those axes, else the identity; the place in the group is the device's slice of
// a constant [true, false, ...] table. Max keeps the block on every device.
// RUN: xshard-opt %s -p shard-partition | filecheck %s

shard.grid @g(shape = 2x4)

func.func @sum_over_two_axes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %p = shard.sharding @g split_axes = [[]] partial = sum [1, 0] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<8x16xf32>
  %1 = shard.shard %0 to %p annotate_for_users : tensor<8x16xf32>
  func.return %1 : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @sum_over_two_axes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = stablehlo.constant dense<[true, false, false, false, false, false, false, false]> : tensor<8xi1>
// CHECK-NEXT:    %1 = shard.all_slice %0 on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8xi1> -> tensor<1xi1>
// CHECK-NEXT:    %2 = stablehlo.reshape %1 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT:    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<8x16xi1>
// CHECK-NEXT:    %4 = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
// CHECK-NEXT:    %5 = stablehlo.select %3, %x, %4 : tensor<8x16xi1>, tensor<8x16xf32>
// CHECK-NEXT:    func.return %5 : tensor<8x16xf32>

// The split moves first (the select then works on the smaller block); ints get 1 for
// a product.
func.func @split_then_product(%x: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %p = shard.sharding @g split_axes = [[], [0]] partial = product [1] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xi32>
  %1 = shard.shard %0 to %p annotate_for_users : tensor<8x16xi32>
  func.return %1 : tensor<8x16xi32>
}
// CHECK-LABEL: func.func @split_then_product(%x: tensor<4x16xi32>) -> tensor<8x8xi32> {
// CHECK-NEXT:    %0 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x16xi32> -> tensor<8x8xi32>
// CHECK-NEXT:    %1 = stablehlo.constant dense<[true, false, false, false]> : tensor<4xi1>
// CHECK-NEXT:    %2 = shard.all_slice %1 on @g grid_axes = [1] slice_axis = 0 : tensor<4xi1> -> tensor<1xi1>
// CHECK:         %5 = stablehlo.constant dense<1> : tensor<8x8xi32>
// CHECK-NEXT:    %6 = stablehlo.select %4, %0, %5 : tensor<8x8xi1>, tensor<8x8xi32>
// CHECK-NEXT:    func.return %6 : tensor<8x8xi32>

func.func @max_is_free(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %p = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %1 = shard.shard %0 to %p annotate_for_users : tensor<8x16xf32>
  func.return %1 : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @max_is_free(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:    func.return %x : tensor<4x16xf32>
