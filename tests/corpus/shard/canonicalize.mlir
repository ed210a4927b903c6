// Inputs of the canonicalization patterns (upstream-compatible cases only).

// Collectives over no grid axes are the identity when the types agree.

shard.grid @grid0(shape = 2x4)

func.func @empty_grid_axes(%arg0 : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = shard.all_reduce %arg0 on @grid0 grid_axes = [] : tensor<4xf32> -> tensor<4xf32>
  %1 = shard.all_gather %arg0 on @grid0 grid_axes = [] gather_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  %2 = shard.all_slice %arg0 on @grid0 slice_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  %3 = shard.all_to_all %arg0 on @grid0 split_axis = 0 concat_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  %4 = shard.broadcast %arg0 on @grid0 root = [] : (tensor<4xf32>) -> tensor<4xf32>
  %5 = shard.gather %arg0 on @grid0 gather_axis = 0 root = [] : (tensor<4xf32>) -> tensor<4xf32>
  %6 = shard.recv %arg0 on @grid0 : (tensor<4xf32>) -> tensor<4xf32>
  %7 = shard.reduce %arg0 on @grid0 root = [] : (tensor<4xf32>) -> tensor<4xf32>
  %8 = shard.reduce_scatter %arg0 on @grid0 scatter_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  %9 = shard.scatter %arg0 on @grid0 scatter_axis = 0 root = [] : (tensor<4xf32>) -> tensor<4xf32>
  %10 = shard.send %arg0 on @grid0 destination = [] : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A change of element type keeps the collective; `grid_axes = []` and the
// default `reduction = sum` are not printed.

shard.grid @grid0(shape = 2x4)

func.func @empty_grid_axes_different_element_type(%arg0 : tensor<4xf32>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %0 = shard.all_reduce %arg0 on @grid0 grid_axes = [] reduction = sum : tensor<4xf32> -> tensor<4xf64>
  %1 = shard.reduce_scatter %arg0 on @grid0 grid_axes = [] scatter_axis = 0 : tensor<4xf32> -> tensor<4xf64>
  %2 = shard.reduce %arg0 on @grid0 grid_axes = [] root = [] : (tensor<4xf32>) -> tensor<4xf64>
  return %0, %1, %2 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}

// -----

// Collectives over some grid axes stay; so does a shift, even over no axes.

shard.grid @grid0(shape = 2x4)

func.func @kept(%arg0 : tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  %0 = shard.all_reduce %arg0 on @grid0 grid_axes = [0] reduction = sum : tensor<4xf32> -> tensor<4xf32>
  %1 = shard.all_slice %arg0 on @grid0 grid_axes = [1] slice_axis = 0 : tensor<4xf32> -> tensor<1xf32>
  return %0, %1 : tensor<4xf32>, tensor<1xf32>
}

// -----

shard.grid @grid0(shape = 2x4)

// The verifier rejects a shift over no axes, so a shift survives canonicalization only
// with axes; upstream has no shift canonicalization at all.
func.func @shift_kept(%arg0 : tensor<4xf32>) -> tensor<4xf32> {
  %0 = shard.shift %arg0 on @grid0 grid_axes = [1] shift_axis = 1 offset = 0 : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// NormalizeSharding: non-negative constant SSA halo sizes and offsets are folded into
// the static lists.

shard.grid @grid4x4(shape = 4x4)

func.func @fold_constant_halo_sizes() -> !shard.sharding {
  %c2_i64 = arith.constant 2 : i64
  %sharding = shard.sharding @grid4x4 split_axes = [[0], [1]] halo_sizes = [1, %c2_i64, %c2_i64, 22] : !shard.sharding
  return %sharding : !shard.sharding
}

// -----

shard.grid @grid4x4(shape = 4x4)

func.func @fold_constant_offsets() -> !shard.sharding {
  %c2_i64 = arith.constant 2 : i64
  %sharding = shard.sharding @grid4x4 split_axes = [[0], [1]] sharded_dims_offsets = [0, 1, %c2_i64, 3, 4, 0, %c2_i64, 3, 4, 22] : !shard.sharding
  return %sharding : !shard.sharding
}

// -----

shard.grid @grid4(shape = 4)

// A negative constant is not folded; a block argument cannot be.
func.func @keep_dynamic_halo_sizes(%h : i64) -> !shard.sharding {
  %m = arith.constant -1 : i64
  %sharding = shard.sharding @grid4 split_axes = [[0]] halo_sizes = [%h, %m] : !shard.sharding
  return %sharding : !shard.sharding
}

// -----

shard.grid @grid4(shape = 4)

// All-zero halos, constant or not, are dropped.
func.func @drop_zero_halo_sizes() -> (!shard.sharding, !shard.sharding) {
  %c0 = arith.constant 0 : i64
  %0 = shard.sharding @grid4 split_axes = [[0]] halo_sizes = [0, 0] : !shard.sharding
  %1 = shard.sharding @grid4 split_axes = [[0]] halo_sizes = [%c0, 0] : !shard.sharding
  return %0, %1 : !shard.sharding, !shard.sharding
}

// -----

shard.grid @grid4(shape = 4)

// Equidistant offsets are the default split and are dropped; others stay.
func.func @drop_equidistant_offsets() -> (!shard.sharding, !shard.sharding) {
  %0 = shard.sharding @grid4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 12] : !shard.sharding
  %1 = shard.sharding @grid4 split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  return %0, %1 : !shard.sharding, !shard.sharding
}

// -----

shard.grid @grid4x4(shape = 4x4)

// FoldDuplicateShardOp: an equal later annotation of the same value is replaced by the
// earlier one (trailing replicated dims do not count).
func.func @duplicate_shard_ops(%arg0 : tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %s1 = shard.sharding @grid4x4 split_axes = [[0, 1]] : !shard.sharding
  %a1 = shard.shard %arg0 to %s1 : tensor<8x8xf32>
  %s2 = shard.sharding @grid4x4 split_axes = [[0, 1], []] : !shard.sharding
  %a2 = shard.shard %arg0 to %s2 : tensor<8x8xf32>
  return %a1, %a2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

shard.grid @grid4x4(shape = 4x4)

// A different later annotation is chained onto the earlier one.
func.func @duplicate_shard_ops_diff(%arg0 : tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %s1 = shard.sharding @grid4x4 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %arg0 to %s1 : tensor<8x8xf32>
  %s2 = shard.sharding @grid4x4 split_axes = [[1]] : !shard.sharding
  %a2 = shard.shard %arg0 to %s2 : tensor<8x8xf32>
  return %a1, %a2 : tensor<8x8xf32>, tensor<8x8xf32>
}
