// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// Every op and attribute form of the shard dialect prints back as it was written
// (the same text mlir-opt 22.1.8 prints, up to SSA names), and its generic form has
// the properties 22.1.8 prints.

// CHECK: shard.grid @grid0(shape = 2x2x4)
// CHECK-GENERIC: "shard.grid"() <{sym_name = "grid0", shape = array<i64: 2, 2, 4>}> : () -> ()
shard.grid @grid0(shape = 2x2x4)
// CHECK: shard.grid @grid1(shape = 4x?)
// CHECK-GENERIC: "shard.grid"() <{sym_name = "grid1", shape = array<i64: 4, -9223372036854775808>}> : () -> ()
shard.grid @grid1(shape = 4x?)
// CHECK: shard.grid @grid5(shape = ?)
// CHECK-GENERIC: "shard.grid"() <{sym_name = "grid5", shape = array<i64: -9223372036854775808>}> : () -> ()
shard.grid @grid5(shape = ?)

// CHECK-LABEL: func.func @ops(
// CHECK-GENERIC-LABEL: "func.func"
func.func @ops(%t : tensor<4x8xf32>, %x : tensor<3x4xf32>, %i : index, %h : i64, %m : memref<12x12xi8>) {
// CHECK-NEXT: %s = shard.sharding @grid0 split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-GENERIC: %s = "shard.sharding"() <{grid = @grid0, split_axes = #shard<axisarray{{\[\[}}]]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>}> : () -> !shard.sharding
  %s = shard.sharding @grid0 split_axes = [[]] : !shard.sharding
// CHECK-NEXT: %s1 = shard.sharding @grid1 split_axes = {{\[\[}}], [0]] : !shard.sharding
// CHECK-GENERIC: %s1 = "shard.sharding"() <{grid = @grid1, split_axes = #shard<axisarray{{\[\[}}], [0]]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>}> : () -> !shard.sharding
  %s1 = shard.sharding @grid1 split_axes = [[], [0]] : !shard.sharding
// CHECK-NEXT: %s2 = shard.sharding @grid0 split_axes = {{\[\[}}0]] halo_sizes = [1, %h] : !shard.sharding
// CHECK-GENERIC: %s2 = "shard.sharding"(%h) <{grid = @grid0, split_axes = #shard<axisarray{{\[\[}}0]]>, static_halo_sizes = array<i64: 1, -9223372036854775808>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 1>}> : (i64) -> !shard.sharding
  %s2 = shard.sharding @grid0 split_axes = [[0]] halo_sizes = [1, %h] : !shard.sharding
// CHECK-NEXT: %s3 = shard.sharding @grid0 split_axes = {{\[\[}}2]] sharded_dims_offsets = [0, 1, %h, 3, 4] : !shard.sharding
// CHECK-GENERIC: %s3 = "shard.sharding"(%h) <{grid = @grid0, split_axes = #shard<axisarray{{\[\[}}2]]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64: 0, 1, -9223372036854775808, 3, 4>, operandSegmentSizes = array<i32: 1, 0>}> : (i64) -> !shard.sharding
  %s3 = shard.sharding @grid0 split_axes = [[2]] sharded_dims_offsets = [0, 1, %h, 3, 4] : !shard.sharding
// CHECK-NEXT: %s4 = shard.sharding @grid0 split_axes = {{\[\[}}0], [1]] partial = max [2] : !shard.sharding
// CHECK-GENERIC: %s4 = "shard.sharding"() <{grid = @grid0, split_axes = #shard<axisarray{{\[\[}}0], [1]]>, partial_type = #shard<partial max>, partial_axes = array<i16: 2>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>}> : () -> !shard.sharding
  %s4 = shard.sharding @grid0 split_axes = [[0], [1]] partial = max [2] : !shard.sharding
// CHECK-NEXT: %a = shard.shard %t to %s1 : tensor<4x8xf32>
// CHECK-GENERIC: %a = "shard.shard"(%t, %s1) : (tensor<4x8xf32>, !shard.sharding) -> tensor<4x8xf32>
  %a = shard.shard %t to %s1 : tensor<4x8xf32>
// CHECK-NEXT: %b = shard.shard %a to %s annotate_for_users : tensor<4x8xf32>
// CHECK-GENERIC: %b = "shard.shard"(%a, %s) <{annotate_for_users}> : (tensor<4x8xf32>, !shard.sharding) -> tensor<4x8xf32>
  %b = shard.shard %a to %s annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %g = shard.get_sharding %t : tensor<4x8xf32> -> !shard.sharding
// CHECK-GENERIC: %g = "shard.get_sharding"(%t) : (tensor<4x8xf32>) -> !shard.sharding
  %g = shard.get_sharding %t : tensor<4x8xf32> -> !shard.sharding
// CHECK-NEXT: %p:2 = shard.shard_shape dims = [8, %i] sharding = %s device = [%i] : index, index
// CHECK-GENERIC: %p:2 = "shard.shard_shape"(%i, %s, %i) <{dims = array<i64: 8, -9223372036854775808>, device = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (index, !shard.sharding, index) -> (index, index)
  %p:2 = shard.shard_shape dims = [8, %i] sharding = %s device = [%i] : index, index
// CHECK-NEXT: %gs:2 = shard.grid_shape @grid0 axes = [0, 1] : index, index
// CHECK-GENERIC: %gs:2 = "shard.grid_shape"() <{grid = @grid0, axes = array<i16: 0, 1>}> : () -> (index, index)
  %gs:2 = shard.grid_shape @grid0 axes = [0, 1] : index, index
// CHECK-NEXT: %ga:3 = shard.grid_shape @grid0 : index, index, index
// CHECK-GENERIC: %ga:3 = "shard.grid_shape"() <{grid = @grid0, axes = array<i16>}> : () -> (index, index, index)
  %ga:3 = shard.grid_shape @grid0 : index, index, index
// CHECK-NEXT: %pm:2 = shard.process_multi_index on @grid0 axes = [2, 0] : index, index
// CHECK-GENERIC: %pm:2 = "shard.process_multi_index"() <{grid = @grid0, axes = array<i16: 2, 0>}> : () -> (index, index)
  %pm:2 = shard.process_multi_index on @grid0 axes = [2, 0] : index, index
// CHECK-NEXT: %pl = shard.process_linear_index on @grid0 : index
// CHECK-GENERIC: %pl = "shard.process_linear_index"() <{grid = @grid0}> : () -> index
  %pl = shard.process_linear_index on @grid0 : index
// CHECK-NEXT: %d, %u = shard.neighbors_linear_indices on @grid0[%i, %i, %i] split_axes = [1] : index, index
// CHECK-GENERIC: %d, %u = "shard.neighbors_linear_indices"(%i, %i, %i) <{grid = @grid0, split_axes = array<i16: 1>}> : (index, index, index) -> (index, index)
  %d, %u = shard.neighbors_linear_indices on @grid0[%i, %i, %i] split_axes = [1] : index, index
// CHECK-NEXT: %0 = shard.all_gather %x on @grid0 grid_axes = [2] gather_axis = 1 : tensor<3x4xf32> -> tensor<3x16xf32>
// CHECK-GENERIC: %0 = "shard.all_gather"(%x) <{grid = @grid0, grid_axes = array<i16: 2>, gather_axis = 1 : index}> : (tensor<3x4xf32>) -> tensor<3x16xf32>
  %0 = shard.all_gather %x on @grid0 grid_axes = [2] gather_axis = 1 : tensor<3x4xf32> -> tensor<3x16xf32>
// CHECK-NEXT: %1 = shard.all_reduce %x on @grid0 grid_axes = [1, 0] reduction = max : tensor<3x4xf32> -> tensor<3x4xf64>
// CHECK-GENERIC: %1 = "shard.all_reduce"(%x) <{grid = @grid0, grid_axes = array<i16: 1, 0>, reduction = #shard<partial max>}> : (tensor<3x4xf32>) -> tensor<3x4xf64>
  %1 = shard.all_reduce %x on @grid0 grid_axes = [1, 0] reduction = max : tensor<3x4xf32> -> tensor<3x4xf64>
// CHECK-NEXT: %2 = shard.all_reduce %m on @grid0 grid_axes = [0] : memref<12x12xi8> -> memref<12x12xi8>
// CHECK-GENERIC: %2 = "shard.all_reduce"(%m) <{grid = @grid0, grid_axes = array<i16: 0>, reduction = #shard<partial sum>}> : (memref<12x12xi8>) -> memref<12x12xi8>
  %2 = shard.all_reduce %m on @grid0 grid_axes = [0] : memref<12x12xi8> -> memref<12x12xi8>
// CHECK-NEXT: %3 = shard.all_slice %x on @grid0 grid_axes = [2] slice_axis = 1 : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-GENERIC: %3 = "shard.all_slice"(%x) <{grid = @grid0, grid_axes = array<i16: 2>, slice_axis = 1 : index}> : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %3 = shard.all_slice %x on @grid0 grid_axes = [2] slice_axis = 1 : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %4 = shard.all_to_all %x on @grid0 grid_axes = [0, 1] split_axis = 1 concat_axis = 0 : tensor<3x4xf32> -> tensor<12x1xf32>
// CHECK-GENERIC: %4 = "shard.all_to_all"(%x) <{grid = @grid0, grid_axes = array<i16: 0, 1>, split_axis = 1 : index, concat_axis = 0 : index}> : (tensor<3x4xf32>) -> tensor<12x1xf32>
  %4 = shard.all_to_all %x on @grid0 grid_axes = [0, 1] split_axis = 1 concat_axis = 0 : tensor<3x4xf32> -> tensor<12x1xf32>
// CHECK-NEXT: %5 = shard.broadcast %x on @grid0 grid_axes = [0, 2] root = [1, %i] : (tensor<3x4xf32>, index) -> tensor<3x4xf32>
// CHECK-GENERIC: %5 = "shard.broadcast"(%x, %i) <{grid = @grid0, grid_axes = array<i16: 0, 2>, root = array<i64: 1, -9223372036854775808>}> : (tensor<3x4xf32>, index) -> tensor<3x4xf32>
  %5 = shard.broadcast %x on @grid0 grid_axes = [0, 2] root = [1, %i] : (tensor<3x4xf32>, index) -> tensor<3x4xf32>
// CHECK-NEXT: %6 = shard.gather %x on @grid0 grid_axes = [0, 2] gather_axis = 0 root = [0, 1] : (tensor<3x4xf32>) -> tensor<24x4xf32>
// CHECK-GENERIC: %6 = "shard.gather"(%x) <{grid = @grid0, grid_axes = array<i16: 0, 2>, gather_axis = 0 : index, root = array<i64: 0, 1>}> : (tensor<3x4xf32>) -> tensor<24x4xf32>
  %6 = shard.gather %x on @grid0 grid_axes = [0, 2] gather_axis = 0 root = [0, 1] : (tensor<3x4xf32>) -> tensor<24x4xf32>
// CHECK-NEXT: %7 = shard.recv %x on @grid0 grid_axes = [0, 2] source = [%i, 1] : (tensor<3x4xf32>, index) -> tensor<3x4xf32>
// CHECK-GENERIC: %7 = "shard.recv"(%x, %i) <{grid = @grid0, grid_axes = array<i16: 0, 2>, source = array<i64: -9223372036854775808, 1>}> : (tensor<3x4xf32>, index) -> tensor<3x4xf32>
  %7 = shard.recv %x on @grid0 grid_axes = [0, 2] source = [%i, 1] : (tensor<3x4xf32>, index) -> tensor<3x4xf32>
// CHECK-NEXT: %8 = shard.recv %x on @grid0 grid_axes = [0, 2] : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-GENERIC: %8 = "shard.recv"(%x) <{grid = @grid0, grid_axes = array<i16: 0, 2>}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %8 = shard.recv %x on @grid0 grid_axes = [0, 2] : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %9 = shard.reduce %x on @grid0 grid_axes = [0, 2] reduction = min root = [0, 1] : (tensor<3x4xf32>) -> tensor<3x4xf64>
// CHECK-GENERIC: %9 = "shard.reduce"(%x) <{grid = @grid0, grid_axes = array<i16: 0, 2>, reduction = #shard<partial min>, root = array<i64: 0, 1>}> : (tensor<3x4xf32>) -> tensor<3x4xf64>
  %9 = shard.reduce %x on @grid0 grid_axes = [0, 2] reduction = min root = [0, 1] : (tensor<3x4xf32>) -> tensor<3x4xf64>
// CHECK-NEXT: %10 = shard.reduce_scatter %x on @grid0 grid_axes = [2] reduction = max scatter_axis = 1 : tensor<3x4xf32> -> tensor<3x1xf64>
// CHECK-GENERIC: %10 = "shard.reduce_scatter"(%x) <{grid = @grid0, grid_axes = array<i16: 2>, reduction = #shard<partial max>, scatter_axis = 1 : index}> : (tensor<3x4xf32>) -> tensor<3x1xf64>
  %10 = shard.reduce_scatter %x on @grid0 grid_axes = [2] reduction = max scatter_axis = 1 : tensor<3x4xf32> -> tensor<3x1xf64>
// CHECK-NEXT: %11 = shard.scatter %x on @grid0 grid_axes = [2] scatter_axis = 1 root = [1] : (tensor<3x4xf32>) -> tensor<3x1xf32>
// CHECK-GENERIC: %11 = "shard.scatter"(%x) <{grid = @grid0, grid_axes = array<i16: 2>, scatter_axis = 1 : index, root = array<i64: 1>}> : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %11 = shard.scatter %x on @grid0 grid_axes = [2] scatter_axis = 1 root = [1] : (tensor<3x4xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %12 = shard.send %x on @grid0 grid_axes = [0, 2] destination = [0, 1] : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-GENERIC: %12 = "shard.send"(%x) <{grid = @grid0, grid_axes = array<i16: 0, 2>, destination = array<i64: 0, 1>}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %12 = shard.send %x on @grid0 grid_axes = [0, 2] destination = [0, 1] : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %13 = shard.shift %x on @grid0 grid_axes = [0, 2] shift_axis = 2 offset = -2 rotate : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-GENERIC: %13 = "shard.shift"(%x) <{grid = @grid0, grid_axes = array<i16: 0, 2>, shift_axis = 2 : index, offset = -2 : i64, rotate}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %13 = shard.shift %x on @grid0 grid_axes = [0, 2] shift_axis = 2 offset = -2 rotate : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %14 = shard.shift %x on @grid5 grid_axes = [0] shift_axis = 0 offset = 1 : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-GENERIC: %14 = "shard.shift"(%x) <{grid = @grid5, grid_axes = array<i16: 0>, shift_axis = 0 : index, offset = 1 : i64}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %14 = shard.shift %x on @grid5 grid_axes = [0] shift_axis = 0 offset = 1 : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %15 = shard.update_halo %m on @grid0 split_axes = {{\[\[}}0], [1]] halo_sizes = [2, 2, %h, 2] : memref<12x12xi8>
// CHECK-GENERIC: %15 = "shard.update_halo"(%m, %h) <{grid = @grid0, split_axes = #shard<axisarray{{\[\[}}0], [1]]>, static_halo_sizes = array<i64: 2, 2, -9223372036854775808, 2>}> : (memref<12x12xi8>, i64) -> memref<12x12xi8>
  %15 = shard.update_halo %m on @grid0 split_axes = [[0], [1]] halo_sizes = [2, 2, %h, 2] : memref<12x12xi8>
// CHECK-NEXT: %16 = shard.update_halo %t on @grid0 split_axes = {{\[\[}}0]] : tensor<4x8xf32>
// CHECK-GENERIC: %16 = "shard.update_halo"(%t) <{grid = @grid0, split_axes = #shard<axisarray{{\[\[}}0]]>, static_halo_sizes = array<i64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %16 = shard.update_halo %t on @grid0 split_axes = [[0]] : tensor<4x8xf32>
  return
}
