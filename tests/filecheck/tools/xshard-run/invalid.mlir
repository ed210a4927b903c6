// Bad input is one located line on stderr and exit 1, never a traceback.
// RUN: not xshard-run %s --devices 4 2>&1 | filecheck %s --check-prefix=DEVICES
// RUN: not xshard-run %s --devices 2 --target tpu 2>&1 | filecheck %s --check-prefix=FLAG

shard.grid @g(shape = 2)

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.exponential %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// DEVICES: invalid.mlir:5:1: error: grid @g has 2 devices but the run asks for 4
// DEVICES-NOT: Traceback

// FLAG: xshard-run: error: argument --target: invalid choice: 'tpu'
