// Each result annotation -> annotate_for_users pair with different shardings becomes
// the collectives of the resharding planner, on the local block: all_to_all to move
// a split, all_slice / all_gather over two axes at once, a swap of axes (three
// all_to_alls), partial values settled by reduce_scatter and all_reduce of their
// kind, and halo changes (local slice / pad + update_halo). Users that want the same
// layout of a value share one collective.
// RUN: xshard-opt %s -p shard-partition | filecheck %s

shard.grid @g(shape = 2x2)

func.func @move_dim(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @slice_two_axes(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[]] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @gather_two_axes(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @swap(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @partial_to_split(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[]] partial = sum [0, 1] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @partial_max(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @add_halo(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 2] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

func.func @drop_halo(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %src = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  func.return %1 : tensor<8x8xf32>
}

// Two users that want the same layout share one collective.
func.func @shared(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %src = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %dst = shard.sharding @g split_axes = [[]] : !shard.sharding
  %0 = shard.shard %x to %src : tensor<8x8xf32>
  %1 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  %2 = shard.shard %0 to %dst annotate_for_users : tensor<8x8xf32>
  %3 = stablehlo.negate %1 : tensor<8x8xf32>
  %4 = shard.shard %3 to %dst : tensor<8x8xf32>
  %5 = stablehlo.abs %2 : tensor<8x8xf32>
  %6 = shard.shard %5 to %dst : tensor<8x8xf32>
  func.return %4, %6 : tensor<8x8xf32>, tensor<8x8xf32>
}

// CHECK-LABEL: func.func @move_dim(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    %0 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %0 : tensor<8x4xf32>

// CHECK-LABEL: func.func @slice_two_axes(%x: tensor<8x8xf32>) -> tensor<2x8xf32> {
// CHECK-NEXT:    %0 = shard.all_slice %x on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
// CHECK-NEXT:    func.return %0 : tensor<2x8xf32>

// CHECK-LABEL: func.func @gather_two_axes(%x: tensor<2x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %0 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %0 : tensor<8x8xf32>

// CHECK-LABEL: func.func @swap(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT:    %0 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x4xf32> -> tensor<8x2xf32>
// CHECK-NEXT:    %1 = shard.all_to_all %0 on @g grid_axes = [1, 0] split_axis = 0 concat_axis = 1 : tensor<8x2xf32> -> tensor<2x8xf32>
// CHECK-NEXT:    %2 = shard.all_to_all %1 on @g grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    func.return %2 : tensor<4x4xf32>

// CHECK-LABEL: func.func @partial_to_split(%x: tensor<8x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    %0 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 0 : tensor<8x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_reduce %0 on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %1 : tensor<4x8xf32>

// CHECK-LABEL: func.func @partial_max(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    %0 = shard.all_reduce %x on @g grid_axes = [1] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %0 : tensor<4x8xf32>

// CHECK-LABEL: func.func @add_halo(%x: tensor<4x8xf32>) -> tensor<7x8xf32> {
// CHECK-NEXT:    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %1 = stablehlo.pad %x, %0, low = [1, 0], high = [2, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x8xf32>
// CHECK-NEXT:    %2 = shard.update_halo %1 on @g split_axes = [[0]] halo_sizes = [1, 2] : tensor<7x8xf32>
// CHECK-NEXT:    func.return %2 : tensor<7x8xf32>

// CHECK-LABEL: func.func @drop_halo(%x: tensor<6x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %0 = stablehlo.slice %x [1:5, 0:8] : (tensor<6x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %1 = shard.all_gather %0 on @g grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %1 : tensor<8x8xf32>

// CHECK-LABEL: func.func @shared(%x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT:    %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    %1 = stablehlo.negate %0 : tensor<8x8xf32>
// CHECK-NEXT:    %2 = stablehlo.abs %0 : tensor<8x8xf32>
// CHECK-NEXT:    func.return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
