// RUN: xshard-opt %s -p import-sdy | filecheck %s

// The same jax.jit program printed with jax_use_shardy_partitioner=False: no mesh, the
// shardings are GSPMD strings. Their device orders fit one 2x4 grid (@gspmd_mesh):
// [2,1,4]<=[8] splits dim 0 over the 2 major devices, [1,4,2]<=[2,4]T(1,0) dim 1 over
// the 4 minor ones, [8,1]<=[8] dim 0 over all 8 (major to minor).
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x32xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.tanh %2 : tensor<8x32xf32>
    return %3 : tensor<8x32xf32>
  }
}
// CHECK:      builtin.module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   shard.grid @gspmd_mesh(shape = 2x4)
// CHECK-NEXT:   func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<8x32xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:     %0 = shard.sharding @gspmd_mesh split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:     %1 = shard.shard %arg0 to %0 : tensor<8x16xf32>
// CHECK-NEXT:     %2 = shard.sharding @gspmd_mesh split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:     %3 = shard.shard %arg1 to %2 : tensor<16x32xf32>
// CHECK-NEXT:     %4 = stablehlo.dot_general %1, %3
// CHECK-NEXT:     %5 = shard.sharding @gspmd_mesh split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:     %6 = shard.shard %4 to %5 annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:     %7 = shard.sharding @gspmd_mesh split_axes = {{\[\[}}0, 1]] : !shard.sharding
// CHECK-NEXT:     %8 = shard.shard %6 to %7 annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:     %9 = stablehlo.tanh %8 : tensor<8x32xf32>
// CHECK-NEXT:     %10 = shard.sharding @gspmd_mesh split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:     %11 = shard.shard %9 to %10 annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:     func.return %11 : tensor<8x32xf32>
