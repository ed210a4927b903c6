// The examples of the op descriptions in ShardOps.td (mlir-opt 22.1.8), completed
// into whole functions where the docs elide the surroundings.

shard.grid @grid0(shape = 4x8x12)
shard.grid @grid1(shape = 4x?)
shard.grid @grid2(shape = ?x4)
shard.grid @grid3(shape = ?x?)
shard.grid @grid1d_4(shape = 4)
shard.grid @grid2x2(shape = 2x2)
shard.grid @grid_3(shape = 3)
shard.grid @grid2x4(shape = 2x4)
shard.grid @grid10x20x30(shape = 10x20x30)

func.func @sharding_examples(%arg0 : tensor<4x8xf32>, %arg1 : tensor<4x14xf32>) {
  %sharding0 = shard.sharding @grid0 split_axes = [[]] : !shard.sharding
  %sharding1 = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
  %sharded0 = shard.shard %arg0 to %sharding1 : tensor<4x8xf32>
  %halo_sharding = shard.sharding @grid0 split_axes = [[0]] halo_sizes = [1, 2] : !shard.sharding
  %sharded1 = shard.shard %arg0 to %halo_sharding : tensor<4x8xf32>
  %sharding4 = shard.sharding @grid1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %sharded2 = shard.shard %arg1 to %sharding4 : tensor<4x14xf32>
  return
}

func.func @both_result_and_multi_operands_annotated(%arg0 : tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %sharding = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %sharding : tensor<4x8xf32>
  %sharding1 = shard.sharding @grid0 split_axes = [[1]] : !shard.sharding
  %1 = shard.shard %0 to %sharding1 annotate_for_users : tensor<4x8xf32>
  %sharding2 = shard.sharding @grid0 split_axes = [[2]] : !shard.sharding
  %2 = shard.shard %0 to %sharding2 annotate_for_users : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// (The constants of the doc example are arguments here: MLIR's canonicalizer hoists
// constants, xDSL's does not, and the corpus is also compared after canonicalization.)
func.func @process_queries(%c1 : index, %c2 : index, %c3 : index) -> (index, index, index) {
  %idx = shard.process_linear_index on @grid10x20x30 : index
  %down, %up = shard.neighbors_linear_indices on @grid10x20x30[%c1, %c2, %c3] split_axes = [1] : index, index
  return %idx, %down, %up : index, index, index
}

func.func @collective_examples(%0 : tensor<2x2xi8>, %a : tensor<2x4xi8>, %b : tensor<3x2xi8>,
                               %c : tensor<3x4xf32>, %d : tensor<2xi8>, %e : tensor<2x2xf32>) {
  %1 = shard.all_gather %0 on @grid2x2 grid_axes = [1] gather_axis = 1
    : tensor<2x2xi8> -> tensor<2x4xi8>
  %2 = shard.all_reduce %c on @grid2x2 grid_axes = [1, 0] reduction = max
    : tensor<3x4xf32> -> tensor<3x4xf64>
  %3 = shard.all_slice %a on @grid2x2 grid_axes = [1] slice_axis = 1
    : tensor<2x4xi8> -> tensor<2x2xi8>
  %4 = shard.all_to_all %b on @grid_3 grid_axes = [0] split_axis = 0 concat_axis = 0
    : tensor<3x2xi8> -> tensor<3x2xi8>
  %5 = shard.broadcast %d on @grid2x2 grid_axes = [0] root = [0]
    : (tensor<2xi8>) -> tensor<2xi8>
  %6 = shard.gather %0 on @grid2x2 grid_axes = [1] gather_axis = 1 root = [1]
    : (tensor<2x2xi8>) -> tensor<2x4xi8>
  %7 = shard.reduce %c on @grid2x2 grid_axes = [1, 0] reduction = max root = [1, 0]
    : (tensor<3x4xf32>) -> tensor<3x4xf64>
  %8 = shard.reduce_scatter %e on @grid2x2 grid_axes = [1] reduction = max scatter_axis = 0
    : tensor<2x2xf32> -> tensor<1x2xf64>
  %9 = shard.scatter %0 on @grid2x2 grid_axes = [0] scatter_axis = 0 root = [1]
    : (tensor<2x2xi8>) -> tensor<1x2xi8>
  %10 = shard.shift %d on @grid2x4 grid_axes = [1] shift_axis = 1 offset = 2 rotate
    : tensor<2xi8> -> tensor<2xi8>
  return
}
