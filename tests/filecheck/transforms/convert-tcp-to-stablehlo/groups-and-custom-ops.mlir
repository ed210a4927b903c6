// RUN: xshard-opt %s -p convert-tcp-to-stablehlo | filecheck %s

// Groups are fusion hints StableHLO has no use for: their bodies are inlined
// (an isolated group's block arguments replaced by its inputs). A custom op
// stays opaque as a custom_call with the same name and attributes.

// CHECK-LABEL: func.func @groups
// CHECK-NEXT: %s = stablehlo.add %a, %b : tensor<4xf32>
// CHECK-NEXT: %t = stablehlo.tanh %s : tensor<4xf32>
// CHECK-NEXT: %m = stablehlo.multiply %t, %a : tensor<4xf32>
// CHECK-NEXT: func.return %s, %m : tensor<4xf32>, tensor<4xf32>
func.func @groups(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0, %1 = tcp.group {
    %s = tcp.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %t = tcp.tanh %s : tensor<4xf32> -> tensor<4xf32>
    tcp.yield %s, %t : tensor<4xf32>, tensor<4xf32>
  } : tensor<4xf32>, tensor<4xf32>
  %2 = tcp.isolated_group %1, %a {
  ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
    %m = tcp.mul %p, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    tcp.yield %m : tensor<4xf32>
  } : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @custom_op
// CHECK-NEXT: %0:2 = stablehlo.custom_call @torch.aten.topk(%x) {k = 2 : i64} : (tensor<5xf32>) -> (tensor<2xf32>, tensor<2xi64>)
func.func @custom_op(%x: tensor<5xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
  %0, %1 = tcp.custom_op("torch.aten.topk") %x {k = 2 : i64} : tensor<5xf32> -> tensor<2xf32>, tensor<2xi64>
  return %0, %1 : tensor<2xf32>, tensor<2xi64>
}
