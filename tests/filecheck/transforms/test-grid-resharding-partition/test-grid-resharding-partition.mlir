// test-grid-resharding-partition: upstream's test pass under its name. A source
// shard.shard followed by an annotate_for_users one becomes the collectives between
// their local types, cast from and back to the global type.
// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p test-grid-resharding-partition | filecheck %s

shard.grid @g(shape = 4)

// CHECK-LABEL: func.func @gather
// CHECK-NEXT:    %[[L:.*]] = builtin.unrealized_conversion_cast %x : tensor<8x6xf32> to tensor<2x6xf32>
// CHECK-NEXT:    %[[G:.*]] = shard.all_gather %[[L]] on @g grid_axes = [0] gather_axis = 0 : tensor<2x6xf32> -> tensor<8x6xf32>
// CHECK-NEXT:    func.return %[[G]]
func.func @gather(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s0 : tensor<8x6xf32>
  %s1 = shard.sharding @g split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<8x6xf32>
  func.return %1 : tensor<8x6xf32>
}

// CHECK-LABEL: func.func @slice_then_cast_back
// CHECK-NEXT:    %[[S:.*]] = shard.all_slice %x on @g grid_axes = [0] slice_axis = 1 : tensor<8x8xf32> -> tensor<8x2xf32>
// CHECK-NEXT:    %[[C:.*]] = builtin.unrealized_conversion_cast %[[S]] : tensor<8x2xf32> to tensor<8x8xf32>
// CHECK-NEXT:    func.return %[[C]]
func.func @slice_then_cast_back(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = shard.sharding @g split_axes = [[]] : !shard.sharding
  %0 = shard.shard %x to %s0 : tensor<8x8xf32>
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @same
// CHECK-NEXT:    func.return %x
func.func @same(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s0 : tensor<8xf32>
  %1 = shard.shard %0 to %s0 annotate_for_users : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}

// -----

shard.grid @dyn(shape = ?)

func.func @dynamic_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s0 = shard.sharding @dyn split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s0 : tensor<8xf32>
  %s1 = shard.sharding @dyn split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{test-grid-resharding-partition needs a static grid, @dyn is not}}
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
