// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// `tcp.slice` takes one start, size and stride per dimension: groups of different
// sizes cannot make the op (SameVariadicOperandSize; xDSL crashed building it).

func.func @f(%x: tensor<4x8xf32>, %c0: index, %c1: index) -> tensor<2x8xf32> {
  %0 = tcp.slice %x starts(%c0, %c0) sizes(%c1, %c1) strides(%c1) : tensor<4x8xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
// CHECK: invalid_syntax.mlir:7:18: error: 'tcp.slice' op Variadic operands have different sizes: [2, 2, 1]
