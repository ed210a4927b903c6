// top_k: an i32 iota along the last dim, a stable sort of (values, iota) by values,
// greatest first (TOTALORDER for floats, the integer order otherwise), and slices of
// the first k. Inside regions too.
// RUN: xshard-opt %s -p chlo-legalize-to-stablehlo | filecheck %s

func.func @top_k(%x: tensor<4x16xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %values, %indices = chlo.top_k(%x, k = 3) : tensor<4x16xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
  func.return %values, %indices : tensor<4x3xf32>, tensor<4x3xi32>
}
// CHECK-LABEL: func.func @top_k
// CHECK-NEXT:  %0 = stablehlo.iota dim = 1 : tensor<4x16xi32>
// CHECK-NEXT:  %1:2 = "stablehlo.sort"(%x, %0) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT:  ^bb0(%2: tensor<f32>, %3: tensor<f32>, %4: tensor<i32>, %5: tensor<i32>):
// CHECK-NEXT:    %6 = stablehlo.compare GT, %2, %3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %6 : tensor<i1>
// CHECK-NEXT:  }) : (tensor<4x16xf32>, tensor<4x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xi32>)
// CHECK-NEXT:  %values = stablehlo.slice %1#0 [0:4, 0:3] : (tensor<4x16xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:  %indices = stablehlo.slice %1#1 [0:4, 0:3] : (tensor<4x16xi32>) -> tensor<4x3xi32>
// CHECK-NEXT:  func.return %values, %indices : tensor<4x3xf32>, tensor<4x3xi32>

func.func @unstable_ints_in_a_loop(%x: tensor<8xi32>) -> tensor<8xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<8xi32>
  cond {
    %t = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s, %j = chlo.top_k(%v, k = 8, is_stable = false) : tensor<8xi32> -> (tensor<8xi32>, tensor<8xi32>)
    stablehlo.return %i, %s : tensor<i32>, tensor<8xi32>
  }
  func.return %r#1 : tensor<8xi32>
}
// CHECK-LABEL: func.func @unstable_ints_in_a_loop
// CHECK:         %{{.*}}:2 = "stablehlo.sort"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64, is_stable = false}> ({
// CHECK:           stablehlo.compare GT, %{{.*}}, %{{.*}}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NOT:     chlo.
