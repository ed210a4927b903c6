// RUN: xshard-opt %s -p 'sharding-propagation,shard-partition' | filecheck %s

// stablehlo.triangular_solve: the batch, and the columns of b that a on the left solves
// apart, stay split; the rows it solves are gathered (each unknown reads every
// earlier one).

shard.grid @g(shape = 2x2)
func.func @batch_and_columns(%a: tensor<4x8x8xf32>, %b: tensor<4x8x6xf32>) -> tensor<4x8x6xf32> {
  %sa = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %sb = shard.sharding @g split_axes = [[0], [], [1]] : !shard.sharding
  %a1 = shard.shard %a to %sa : tensor<4x8x8xf32>
  %b1 = shard.shard %b to %sb : tensor<4x8x6xf32>
  %0 = "stablehlo.triangular_solve"(%a1, %b1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x8x8xf32>, tensor<4x8x6xf32>) -> tensor<4x8x6xf32>
  func.return %0 : tensor<4x8x6xf32>
}
// CHECK-LABEL: func.func @batch_and_columns(%a: tensor<2x8x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x8x3xf32>
// CHECK-NEXT:    %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x8x8xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3xf32>
// CHECK-NEXT:    func.return %0 : tensor<2x8x3xf32>

func.func @rows_gathered(%a: tensor<8x8xf32>, %b: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %b1 = shard.shard %b to %s : tensor<8x6xf32>
  %0 = "stablehlo.triangular_solve"(%a, %b1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<8x8xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  func.return %0 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @rows_gathered(%a: tensor<8x8xf32>, %b: tensor<4x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT:    %0 = shard.all_gather %b on @g grid_axes = [0] gather_axis = 0 : tensor<4x6xf32> -> tensor<8x6xf32>
// CHECK-NEXT:    %1 = "stablehlo.triangular_solve"(%a, %0)
