// Reshards between layout pairs, in the style of upstream's resharding-partition.mlir
// and the reshard cases of partition.mlir: a value annotated with one layout and used
// with another, on 1-D and 2-D grids. Only pairs 22.1.8 reshards in one correct step.
shard.grid @g4(shape = 4)
shard.grid @g2x2(shape = 2x2)

func.func @identical(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @split_to_replicated(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %r = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @replicated_to_split(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<8x16xf32>
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @move_split_dim(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @move_split_dim_back(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %s = shard.sharding @g4 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<2x8x16xf32>
  %t = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<2x8x16xf32>
  return %1 : tensor<2x8x16xf32>
}

func.func @unsplit_last_axis(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0, 1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g2x2 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @split_last_axis(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g2x2 split_axes = [[0, 1]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @unsplit_dim0_of_two(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g2x2 split_axes = [[], [1]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @unsplit_dim1_of_two(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g2x2 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @split_second_axis(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @move_axis_on_2d_grid(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x2 split_axes = [[1]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %t = shard.sharding @g2x2 split_axes = [[], [1]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @two_users(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x16xf32>
  %r = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x16xf32>
  %t = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %2 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  return %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>
}
