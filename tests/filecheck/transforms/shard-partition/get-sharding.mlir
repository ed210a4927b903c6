// RUN: xshard-opt %s -p shard-partition | filecheck %s

// shard.get_sharding of a value laid out here becomes the shard.sharding of its
// layout, as upstream partitions it; of a value with no layout the query stays.

shard.grid @grid_1d(shape = 2)

// CHECK-LABEL: func.func @laid_out(%arg0: tensor<1xf32>) -> (tensor<1xf32>, !shard.sharding)
// CHECK-NEXT:    %[[S:.*]] = shard.sharding @grid_1d split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:    func.return %arg0, %[[S]] : tensor<1xf32>, !shard.sharding
func.func @laid_out(%arg0: tensor<2xf32>) -> (tensor<2xf32>, !shard.sharding) {
  %s = shard.sharding @grid_1d split_axes = [[0]] : !shard.sharding
  %a = shard.shard %arg0 to %s : tensor<2xf32>
  %r = shard.get_sharding %a : tensor<2xf32> -> !shard.sharding
  %b = shard.shard %a to %s annotate_for_users : tensor<2xf32>
  func.return %b, %r : tensor<2xf32>, !shard.sharding
}

// CHECK-LABEL: func.func @no_layout(%arg0: tensor<2xf32>)
// CHECK-NEXT:    %[[R:.*]] = shard.get_sharding %arg0 : tensor<2xf32> -> !shard.sharding
// CHECK-NEXT:    func.return %arg0, %[[R]]
func.func @no_layout(%arg0: tensor<2xf32>) -> (tensor<2xf32>, !shard.sharding) {
  %r = shard.get_sharding %arg0 : tensor<2xf32> -> !shard.sharding
  func.return %arg0, %r : tensor<2xf32>, !shard.sharding
}
