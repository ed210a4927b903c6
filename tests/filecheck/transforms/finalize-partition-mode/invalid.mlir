// RUN: xshard-opt %s -p finalize-partition-mode --split-input-file --verify-diagnostics | filecheck %s

// One program runs on one set of partitions: every grid has the same static count.
shard.grid @g(shape = 2x4)
shard.grid @h(shape = 4)
func.func @two_grids(%x: tensor<8xf32>) -> tensor<8xf32> {
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:5:1: error: cannot convert 'shard.grid' to StableHLO: its 4 devices differ from the 8 of an earlier grid; one program runs on one set of partitions

// -----

shard.grid @g(shape = 2x4)
func.func @returns_a_sharding() -> !shard.sharding {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  func.return %s : !shard.sharding
}
// CHECK: invalid.mlir:16:3: error: 'func.return' uses a !shard.sharding value, which has no StableHLO form
