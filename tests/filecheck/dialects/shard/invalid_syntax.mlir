// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Integers the custom syntax cannot hold are parse errors at the number, as in
// mlir-opt 22 (xDSL used to crash, or wrap them: grid axis 32768 read as -32768, a
// grid size of 2**63 as `?`).

shard.grid @g(shape = 2x9223372036854775808)
// CHECK: invalid_syntax.mlir:7:25: error: invalid dimension

// -----

shard.grid @g(shape = 2x4)
%s = shard.sharding @g split_axes = [[32768]] : !shard.sharding
// CHECK: invalid_syntax.mlir:13:39: error: integer value too large

// -----

shard.grid @g(shape = 2x4)
%s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 9223372036854775808] : !shard.sharding
// CHECK: invalid_syntax.mlir:19:60: error: integer value too large

// -----

shard.grid @g(shape = 2x4)
func.func @f(%x : tensor<4xf32>) -> tensor<4xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [65536] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid_syntax.mlir:26:47: error: integer value too large


// -----

// A shape that is neither a dimension list nor `[]`: mlir-opt 22's message.
shard.grid @g(shape = -1)
// CHECK: error: custom op 'shard.grid' Failed parsing dimension list. Did you mean an empty list? It must be denoted by "[]".

// -----

// A sharding names its grid with a flat symbol: mlir-opt 22's message.
shard.grid @g(shape = 2)
%s = shard.sharding @g::@h split_axes = [[0]] : !shard.sharding
// CHECK: invalid_syntax.mlir:[[# @LINE - 1]]:21: error: custom op 'shard.sharding' invalid kind of attribute specified
