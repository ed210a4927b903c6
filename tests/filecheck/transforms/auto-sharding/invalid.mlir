// A memory limit no plan meets is an error at the function, saying the least any plan
// holds; a function laid out on two grids is refused likewise, and a limit (or a
// time limit) that is not positive.
// RUN: not xshard-opt %s --split-input-file -p 'auto-sharding{memory-limit=1000}' 2>&1 | filecheck %s
// RUN: not xshard-opt %s -p 'auto-sharding{memory-limit=0}' 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not xshard-opt %s -p 'auto-sharding{time-limit=0}' 2>&1 | filecheck %s --check-prefix=NOTIME
// ZERO: error: memory-limit must be positive, got 0
// NOTIME: error: time-limit must be positive, got 0
shard.grid @tp(shape = 8)

func.func @too_small(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = stablehlo.add %x, %x : tensor<16x64xf32>
  func.return %0 : tensor<16x64xf32>
}
// CHECK: invalid.mlir:11:1: error: memory-limit=1000 cannot be met: every plan holds at least 1024 bytes per device at some point of the program

// -----

shard.grid @a(shape = 2)
shard.grid @b(shape = 4)

func.func @two_grids(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %sa = shard.sharding @a split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %sa : tensor<16x64xf32>
  %sb = shard.sharding @b split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %sb annotate_for_users : tensor<16x64xf32>
  func.return %1 : tensor<16x64xf32>
}
// CHECK: invalid.mlir:22:1: error: auto-sharding lays a function out on one grid, found ['a', 'b']
