// A slice axis not divisible by the group is the verifier's located error, as in
// mlir-opt-22 (which points at the op name, column 8); the pass never sees it.
// RUN: not xshard-opt %s -p test-grid-all-slice-op-lowering 2>&1 | filecheck %s

shard.grid @g(shape = 4)

func.func @not_divisible(%arg0: tensor<6xf32>) -> tensor<?xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: Operand dimension size 6 is not divisible by collective device group size 4 for tensor axis 0.
  %0 = shard.all_slice %arg0 on @g grid_axes = [0] slice_axis = 0 : tensor<6xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
