// Without --devices, grids of different sizes leave no device count to run on: a
// located error at the second grid, exit 1.
// RUN: not xshard-run %s 2>&1 | filecheck %s

shard.grid @a(shape = 2x4)
shard.grid @b(shape = 4)

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = stablehlo.exponential %x : tensor<8xf32>
  func.return %y : tensor<8xf32>
}

// CHECK: grids-disagree.mlir:6:1: error: grid @b has 4 devices but grid @a has 8: a run has one device count
