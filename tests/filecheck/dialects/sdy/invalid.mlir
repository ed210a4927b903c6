// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// What xshard does not take of Shardy is refused where it is written.

func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.named_computation<"f">(%x) (%a: tensor<8x16xf32>) {
    sdy.return %a : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
// CHECK: invalid.mlir:6:{{[0-9]+}}: error: 'sdy.named_computation' is not supported by xshard: named computations are not imported

// -----

sdy.mesh @mesh = <["x"=2, "x"=4]>
// CHECK: error: #sdy.mesh names an axis twice: ['x', 'x']

// -----

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"x"}q1]> : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: error: expected a priority like 'p0', got 'q1'
