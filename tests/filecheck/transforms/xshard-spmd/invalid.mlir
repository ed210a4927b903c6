// A failing phase reports its located error through the pipeline; bad options are
// usage errors.
// RUN: not xshard-opt %s -p xshard-spmd 2>&1 | filecheck %s
// RUN: not xshard-opt %s -p 'xshard-spmd{target=tpu}' 2>&1 | filecheck %s --check-prefix=OPTION

shard.grid @g(shape = 2)

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<4x8xf32>
  %y = stablehlo.custom_call @opaque(%x1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

// CHECK: invalid.mlir:11:3: error: 'stablehlo.custom_call' cannot be sharded: @opaque is opaque to xshard
// OPTION: xshard-opt: error: bad pass pipeline 'xshard-spmd{target=tpu}'
