// RUN: xshard-opt %s | filecheck %s
// RUN: xshard-opt %s --print-op-generic | xshard-opt | filecheck %s

// `jax.jit(shard_map(lambda x: x * 2, mesh, in_specs=P("a"), out_specs=P("a"))).lower(x).as_text()`
// with jax_use_shardy_partitioner=False (jax 0.10.2): the GSPMD sharding custom_calls
// (@Sharding, @SPMDFullToShardShape, @SPMDShardToFullShape) parse and print back.
module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xf32>) -> (tensor<4x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<2x16xf32>
    %2 = call @shmap_body(%1) : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<2x16xf32>) -> tensor<4x16xf32>
    return %4 : tensor<4x16xf32>
  }
  func.func private @shmap_body(%arg0: tensor<2x16xf32>) -> (tensor<2x16xf32> {jax.result_info = "[('a',), None]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x16xf32>
    return %1 : tensor<2x16xf32>
  }
}

// CHECK:      %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %2 = func.call @shmap_body(%1) : (tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<2x16xf32>) -> tensor<4x16xf32>
