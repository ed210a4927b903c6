// arguments=global (the RFC's second mode): arguments keep their global types and each
// device cuts its block with all_slice; results are local as in the default mode.
// RUN: xshard-opt %s -p 'shard-partition{arguments=global}' | filecheck %s
// RUN: xshard-opt %s -p shard-partition | filecheck %s --check-prefix=LOCAL

shard.grid @g(shape = 2x2)
func.func @f(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %sw = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %so = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x6xf32>
  %1 = shard.shard %w to %sw : tensor<6x4xf32>
  %2 = shard.shard %0 to %s annotate_for_users : tensor<8x6xf32>
  %3 = shard.shard %1 to %sw annotate_for_users : tensor<6x4xf32>
  %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %5 = shard.shard %4 to %so : tensor<8x4xf32>
  func.return %5 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @f(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:    %0 = shard.all_slice %x on @g grid_axes = [0] slice_axis = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %1 = shard.all_slice %w on @g grid_axes = [1] slice_axis = 1 : tensor<6x4xf32> -> tensor<6x2xf32>
// CHECK-NEXT:    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %2 : tensor<4x2xf32>

// LOCAL-LABEL: func.func @f(%x: tensor<4x6xf32>, %w: tensor<6x2xf32>) -> tensor<4x2xf32> {
// LOCAL-NEXT:    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
// LOCAL-NEXT:    func.return %0 : tensor<4x2xf32>
