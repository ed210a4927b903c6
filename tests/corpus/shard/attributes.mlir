// Attribute and syntax corners: every reduction kind, dynamic grids, optional
// `rotate`, generic-only spellings of the properties.

shard.grid @g(shape = 2x?x4)
shard.grid @g1(shape = 1)

func.func @reductions(%x : tensor<4xi32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = sum : tensor<4xi32> -> tensor<4xi32>
  %1 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<4xi32> -> tensor<4xi32>
  %2 = shard.all_reduce %x on @g grid_axes = [0] reduction = min : tensor<4xi32> -> tensor<4xi32>
  %3 = shard.all_reduce %x on @g grid_axes = [0] reduction = product : tensor<4xi32> -> tensor<4xi32>
  %4 = shard.all_reduce %x on @g grid_axes = [0] reduction = average : tensor<4xi32> -> tensor<4xi32>
  %5 = shard.all_reduce %x on @g grid_axes = [0] reduction = bitwise_and : tensor<4xi32> -> tensor<4xi32>
  %6 = shard.all_reduce %x on @g grid_axes = [0] reduction = bitwise_or : tensor<4xi32> -> tensor<4xi32>
  %7 = shard.all_reduce %x on @g grid_axes = [0] reduction = bitwise_xor : tensor<4xi32> -> tensor<4xi32>
  %8 = shard.all_reduce %x on @g grid_axes = [0] reduction = generic : tensor<4xi32> -> tensor<4xi32>
  %9 = shard.reduce %x on @g grid_axes = [2, 0] reduction =  min root = [3, 1] : (tensor<4xi32>) -> tensor<4xi32>
  %10 = shard.reduce_scatter %x on @g grid_axes = [2] reduction =  bitwise_or scatter_axis = 0 : tensor<4xi32> -> tensor<1xi32>
  return
}

func.func @dynamic_grid(%x : tensor<4x?xf32>, %m : memref<4x8xf32>, %i : index) {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<4x?xf32> -> tensor<?x?xf32>
  %1 = shard.all_slice %x on @g grid_axes = [1, 0] slice_axis = 0 : tensor<4x?xf32> -> tensor<?x?xf32>
  %2 = shard.broadcast %x on @g grid_axes = [1] root = [7] : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %3 = shard.shift %x on @g grid_axes = [1, 2] shift_axis = 1 offset = 3 : tensor<4x?xf32> -> tensor<4x?xf32>
  %4 = shard.all_reduce %m on @g grid_axes = [1] : memref<4x8xf32> -> memref<4x8xf32>
  %5:3 = shard.process_multi_index on @g : index, index, index
  %6 = shard.grid_shape @g axes = [1] : index
  %7 = shard.recv %x on @g1 grid_axes = [0] source = [%i] : (tensor<4x?xf32>, index) -> tensor<4x?xf32>
  %8 = shard.send %x on @g1 grid_axes = [0] destination = [0] : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return
}

func.func @generic_spellings(%x : tensor<4xf32>) {
  %s = "shard.sharding"() <{grid = @g1, operandSegmentSizes = array<i32: 0, 0>, split_axes = #shard<axisarray[[0], []]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>}> : () -> !shard.sharding
  %0 = "shard.shard"(%x, %s) <{annotate_for_users}> : (tensor<4xf32>, !shard.sharding) -> tensor<4xf32>
  %1 = "shard.all_reduce"(%x) <{grid = @g1, grid_axes = array<i16: 0>, reduction = #shard<partial max>}> : (tensor<4xf32>) -> tensor<4xf64>
  %2 = "shard.shift"(%x) <{grid = @g1, grid_axes = array<i16: 0>, offset = 1 : i64, shift_axis = 0 : index}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}
