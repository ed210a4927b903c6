// RUN: xshard-opt %s -p 'convert-shard-to-stablehlo{target=gpu}' --verify-diagnostics | filecheck %s

// collective_broadcast reads its source from replica_groups: the root must be static.

shard.grid @g(shape = 2x4)
func.func @dynamic_root(%x: tensor<3xf32>) -> tensor<3xf32> {
  %row = shard.process_multi_index on @g axes = [0] : index
  %0 = shard.broadcast %x on @g grid_axes = [1] root = [%row] : (tensor<3xf32>, index) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: invalid-gpu.mlir:8:3: error: cannot convert 'shard.broadcast' to StableHLO: collective_broadcast takes its source from replica_groups, so the root must be static on target=gpu
