// The op forms of llvm-project's mlir/test/Dialect/Shard/ops.mlir, in the syntax
// mlir-opt 22.1.8 accepts (`scatter_axis`, not the newer `scatter_dim`).

shard.grid @grid0(shape = 2x2x4)
shard.grid @grid1(shape = 4x?)
shard.grid @grid2(shape = ?x4)
shard.grid @grid3(shape = ?x?)
shard.grid @grid4(shape = 3)
shard.grid @grid5(shape = ?)

func.func @grid_shard_op_fully_replicated(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @grid0 split_axes = [[]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @grid_shard_op_2nd_dim(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @grid1 split_axes = [[], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @grid_shard_op_1st_and_3rd_dim(%arg0 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %s = shard.sharding @grid3 split_axes = [[0], [], [1]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

func.func @grid_shard_op_two_users(%arg0 : tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s0 = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s0 : tensor<4x8xf32>
  %s1 = shard.sharding @grid0 split_axes = [[1]] : !shard.sharding
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<4x8xf32>
  %s2 = shard.sharding @grid0 split_axes = [[2]] : !shard.sharding
  %2 = shard.shard %0 to %s2 annotate_for_users : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @grid_shard_halo_sizes() -> () {
  %c3 = arith.constant 3 : i64
  %sharding1 = shard.sharding @grid4 split_axes = [[0]] halo_sizes = [1, 4] : !shard.sharding
  %sharding2 = shard.sharding @grid4 split_axes = [[0]] halo_sizes = [4, %c3] : !shard.sharding
  return
}

func.func @grid_shard_dims_sizes() -> () {
  %c3 = arith.constant 3 : i64
  %sharding1 = shard.sharding @grid4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6] : !shard.sharding
  %sharding2 = shard.sharding @grid4 split_axes = [[0]] sharded_dims_offsets = [0, 2, %c3, 5] : !shard.sharding
  return
}

func.func @grid_shard_shape() {
  %c3 = arith.constant 3 : index
  %s = shard.sharding @grid0 split_axes = [[]] : !shard.sharding
  %shp:2 = shard.shard_shape dims = [8, %c3] sharding = %s device = [%c3] : index, index
  %shp1:2 = shard.shard_shape dims = [8, 4] sharding = %s device = [3] : index, index
  return
}

func.func @grid_get_sharding(%arg0 : tensor<4x8xf32>) -> !shard.sharding {
  %0 = shard.get_sharding %arg0 : tensor<4x8xf32> -> !shard.sharding
  return %0 : !shard.sharding
}

func.func @grid_shape() -> (index, index, index, index, index, index, index, index) {
  %0:2 = shard.grid_shape @grid0 axes = [0, 1] : index, index
  %1:3 = shard.grid_shape @grid0 : index, index, index
  %2:3 = shard.grid_shape @grid0 axes = [] : index, index, index
  return %0#0, %0#1, %1#0, %1#1, %1#2, %2#0, %2#1, %2#2 : index, index, index, index, index, index, index, index
}

func.func @process_multi_index() -> (index, index, index, index, index, index, index, index, index) {
  %0:2 = shard.process_multi_index on @grid0 axes = [0, 1] : index, index
  %1:3 = shard.process_multi_index on @grid0 : index, index, index
  %2:3 = shard.process_multi_index on @grid0 axes = [] : index, index, index
  %3 = shard.process_linear_index on @grid0 : index
  return %0#0, %0#1, %1#0, %1#1, %1#2, %2#0, %2#1, %2#2, %3 : index, index, index, index, index, index, index, index, index
}

func.func @all_reduce(%arg0 : tensor<3x4xf32>) -> tensor<3x4xf64> {
  %0 = shard.all_reduce %arg0 on @grid0 grid_axes = [1, 0] reduction = max
    : tensor<3x4xf32> -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

func.func @all_gather(%arg0 : tensor<3x4xf32>, %arg1 : tensor<?x?xf32>, %arg2 : tensor<5x6xf32>)
    -> (tensor<3x16xf32>, tensor<?x?xf32>, tensor<5x?xf32>) {
  %0 = shard.all_gather %arg0 on @grid0 grid_axes = [2] gather_axis = 1
    : tensor<3x4xf32> -> tensor<3x16xf32>
  %1 = shard.all_gather %arg1 on @grid0 grid_axes = [2] gather_axis = 1
    : tensor<?x?xf32> -> tensor<?x?xf32>
  %2 = shard.all_gather %arg2 on @grid3 grid_axes = [1] gather_axis = 1
    : tensor<5x6xf32> -> tensor<5x?xf32>
  return %0, %1, %2 : tensor<3x16xf32>, tensor<?x?xf32>, tensor<5x?xf32>
}

func.func @all_slice(%arg0 : tensor<3x4xf32>, %arg1 : tensor<?xf32>) -> (tensor<3x1xf32>, tensor<?xf32>) {
  %0 = shard.all_slice %arg0 on @grid0 grid_axes = [2] slice_axis = 1
    : tensor<3x4xf32> -> tensor<3x1xf32>
  %1 = shard.all_slice %arg1 on @grid3 grid_axes = [0, 1] slice_axis = 0
    : tensor<?xf32> -> tensor<?xf32>
  return %0, %1 : tensor<3x1xf32>, tensor<?xf32>
}

func.func @all_to_all(%arg0 : tensor<3x6xi8>, %arg1 : tensor<3xi8>, %arg2 : tensor<2x3xi8>)
    -> (tensor<3x6xi8>, tensor<3x?xi8>, tensor<3xi8>, tensor<?x12xi8>) {
  %0 = shard.all_to_all %arg0 on @grid4 split_axis = 1 concat_axis = 0
    : tensor<3x6xi8> -> tensor<3x6xi8>
  %1 = shard.all_to_all %arg0 on @grid4 split_axis = 1 concat_axis = 0
    : tensor<3x6xi8> -> tensor<3x?xi8>
  %2 = shard.all_to_all %arg1 on @grid4 split_axis = 0 concat_axis = 0
    : tensor<3xi8> -> tensor<3xi8>
  %3 = shard.all_to_all %arg2 on @grid0 grid_axes = [0, 1] split_axis = 0 concat_axis = 1
    : tensor<2x3xi8> -> tensor<?x12xi8>
  return %0, %1, %2, %3 : tensor<3x6xi8>, tensor<3x?xi8>, tensor<3xi8>, tensor<?x12xi8>
}

func.func @broadcast(%arg0 : tensor<3x6xi8>, %arg1 : index) -> (tensor<3x6xi8>, tensor<3x6xi8>) {
  %0 = shard.broadcast %arg0 on @grid0 grid_axes = [0, 2] root = [0, 1]
    : (tensor<3x6xi8>) -> tensor<3x6xi8>
  %1 = shard.broadcast %arg0 on @grid0 grid_axes = [0, 2] root = [1, %arg1]
    : (tensor<3x6xi8>, index) -> tensor<3x6xi8>
  return %0, %1 : tensor<3x6xi8>, tensor<3x6xi8>
}

func.func @gather(%arg0 : tensor<3x6xi8>, %arg1 : index) -> (tensor<24x6xi8>, tensor<24x6xi8>) {
  %0 = shard.gather %arg0 on @grid0 grid_axes = [0, 2] gather_axis = 0 root = [0, 1]
    : (tensor<3x6xi8>) -> tensor<24x6xi8>
  %1 = shard.gather %arg0 on @grid0 grid_axes = [0, 2] gather_axis = 0 root = [1, %arg1]
    : (tensor<3x6xi8>, index) -> tensor<24x6xi8>
  return %0, %1 : tensor<24x6xi8>, tensor<24x6xi8>
}

func.func @receive(%arg0 : tensor<2xi8>, %arg1 : index) -> (tensor<2xi8>, tensor<2xi8>, tensor<2xi8>) {
  %0 = shard.recv %arg0 on @grid0 grid_axes = [0, 2] source = [0, 1]
    : (tensor<2xi8>) -> tensor<2xi8>
  %1 = shard.recv %arg0 on @grid0 grid_axes = [0, 2] source = [1, %arg1]
    : (tensor<2xi8>, index) -> tensor<2xi8>
  %2 = shard.recv %arg0 on @grid0 grid_axes = [0, 2]
    : (tensor<2xi8>) -> tensor<2xi8>
  return %0, %1, %2 : tensor<2xi8>, tensor<2xi8>, tensor<2xi8>
}

func.func @reduce(%arg0 : tensor<2xi8>, %arg1 : index) -> (tensor<2xi8>, tensor<2xi8>, tensor<2xi16>) {
  %0 = shard.reduce %arg0 on @grid0 grid_axes = [0, 2] root = [0, 1]
    : (tensor<2xi8>) -> tensor<2xi8>
  %1 = shard.reduce %arg0 on @grid0 grid_axes = [0, 2] root = [1, %arg1]
    : (tensor<2xi8>, index) -> tensor<2xi8>
  %2 = shard.reduce %arg0 on @grid0 grid_axes = [0, 2] root = [0, 1]
    : (tensor<2xi8>) -> tensor<2xi16>
  return %0, %1, %2 : tensor<2xi8>, tensor<2xi8>, tensor<2xi16>
}

func.func @reduce_scatter(%arg0 : tensor<3x4xf32>, %arg1 : tensor<?xf32>) -> (tensor<3x1xf64>, tensor<?xf64>) {
  %0 = shard.reduce_scatter %arg0 on @grid0 grid_axes = [2] reduction = max scatter_axis = 1
    : tensor<3x4xf32> -> tensor<3x1xf64>
  %1 = shard.reduce_scatter %arg1 on @grid3 grid_axes = [0, 1] scatter_axis = 0
    : tensor<?xf32> -> tensor<?xf64>
  return %0, %1 : tensor<3x1xf64>, tensor<?xf64>
}

func.func @scatter(%arg0 : tensor<3x4xf32>, %arg1 : tensor<?xf32>, %arg2 : tensor<8xi8>, %arg3 : index)
    -> (tensor<3x1xf32>, tensor<?xf32>, tensor<1xi8>) {
  %0 = shard.scatter %arg0 on @grid0 grid_axes = [2] scatter_axis = 1 root = [1]
    : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %1 = shard.scatter %arg1 on @grid3 grid_axes = [0, 1] scatter_axis = 0 root = [1, 2]
    : (tensor<?xf32>) -> tensor<?xf32>
  %2 = shard.scatter %arg2 on @grid0 grid_axes = [0, 2] scatter_axis = 0 root = [1, %arg3]
    : (tensor<8xi8>, index) -> tensor<1xi8>
  return %0, %1, %2 : tensor<3x1xf32>, tensor<?xf32>, tensor<1xi8>
}

func.func @send(%arg0 : tensor<2xi8>, %arg1 : index) -> (tensor<2xi8>, tensor<2xi8>) {
  %0 = shard.send %arg0 on @grid0 grid_axes = [0, 2] destination = [0, 1]
    : (tensor<2xi8>) -> tensor<2xi8>
  %1 = shard.send %arg0 on @grid0 grid_axes = [0, 2] destination = [1, %arg1]
    : (tensor<2xi8>, index) -> tensor<2xi8>
  return %0, %1 : tensor<2xi8>, tensor<2xi8>
}

func.func @shift(%arg0 : tensor<2xi8>) -> (tensor<2xi8>, tensor<2xi8>) {
  %0 = shard.shift %arg0 on @grid0 grid_axes = [0, 2] shift_axis = 2 offset = -2 rotate
    : tensor<2xi8> -> tensor<2xi8>
  %1 = shard.shift %arg0 on @grid0 grid_axes = [0, 2] shift_axis = 0 offset = 1
    : tensor<2xi8> -> tensor<2xi8>
  return %0, %1 : tensor<2xi8>, tensor<2xi8>
}

func.func @update_halo(%arg0 : memref<12x12xi8>, %arg1 : tensor<12x12xi8>) -> tensor<12x12xi8> {
  %c2 = arith.constant 2 : i64
  %uh1 = shard.update_halo %arg0 on @grid0 split_axes = [[0]] halo_sizes = [2, %c2] : memref<12x12xi8>
  %uh2 = shard.update_halo %uh1 on @grid0 split_axes = [[0], [1]] halo_sizes = [2, 2, %c2, 2] : memref<12x12xi8>
  %uh3 = shard.update_halo %arg1 on @grid0 split_axes = [[0]] : tensor<12x12xi8>
  return %uh3 : tensor<12x12xi8>
}

func.func @neighbors(%c1 : index, %c2 : index, %c3 : index) -> (index, index) {
  %d, %u = shard.neighbors_linear_indices on @grid0[%c1, %c2, %c3] split_axes = [1] : index, index
  return %d, %u : index, index
}
