// RUN: xshard-opt %s -p convert-shard-collectives-to-stablehlo --split-input-file --verify-diagnostics | filecheck %s

// collective_broadcast reads its source from replica_groups: a root computed at run
// time needs convert-broadcast-to-all-reduce first (target=cpu).
shard.grid @g(shape = 2x4)
func.func @dynamic_root(%x: tensor<3xf32>, %r: index) -> tensor<3xf32> {
  %0 = shard.broadcast %x on @g grid_axes = [1] root = [%r] : (tensor<3xf32>, index) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: invalid.mlir:7:3: error: cannot convert 'shard.broadcast' to StableHLO: collective_broadcast takes its source from replica_groups, so the root must be static on target=gpu

// -----

shard.grid @g(shape = 2x4)
func.func @not_partitioned(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:17:3: error: cannot convert 'shard.shard' to StableHLO: the program is not partitioned (run shard-partition first)
