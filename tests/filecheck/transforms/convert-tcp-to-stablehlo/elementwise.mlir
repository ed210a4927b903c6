// RUN: xshard-opt %s -p convert-tcp-to-stablehlo | filecheck %s

// Elementwise TCP ops map one to one onto StableHLO.

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // CHECK-NEXT: %0 = stablehlo.add %a, %b : tensor<3x4xf32>
  // CHECK-NEXT: %1 = stablehlo.subtract %0, %b : tensor<3x4xf32>
  // CHECK-NEXT: %2 = stablehlo.multiply %1, %b : tensor<3x4xf32>
  // CHECK-NEXT: %3 = stablehlo.divide %2, %b : tensor<3x4xf32>
  // CHECK-NEXT: %4 = stablehlo.maximum %3, %b : tensor<3x4xf32>
  // CHECK-NEXT: %5 = stablehlo.minimum %4, %b : tensor<3x4xf32>
  // CHECK-NEXT: func.return %5 : tensor<3x4xf32>
  %0 = tcp.add %a, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %1 = tcp.sub %0, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %2 = tcp.mul %1, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %3 = tcp.divf %2, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %4 = tcp.max %3, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %5 = tcp.min %4, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %5 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<?x4xf32>, %i: tensor<4xi32>) -> (tensor<?x4xf32>, tensor<4xi32>) {
  // CHECK-NEXT: %0 = stablehlo.tanh %x : tensor<?x4xf32>
  // CHECK-NEXT: %1 = stablehlo.logistic %0 : tensor<?x4xf32>
  // CHECK-NEXT: %2 = stablehlo.sqrt %1 : tensor<?x4xf32>
  // CHECK-NEXT: %3 = stablehlo.ceil %2 : tensor<?x4xf32>
  // CHECK-NEXT: %4 = stablehlo.floor %3 : tensor<?x4xf32>
  // CHECK-NEXT: %5 = stablehlo.cosine %4 : tensor<?x4xf32>
  // CHECK-NEXT: %6 = stablehlo.sine %5 : tensor<?x4xf32>
  // CHECK-NEXT: %7 = stablehlo.log %6 : tensor<?x4xf32>
  // CHECK-NEXT: %8 = stablehlo.negate %7 : tensor<?x4xf32>
  // CHECK-NEXT: %9 = stablehlo.exponential %8 : tensor<?x4xf32>
  // CHECK-NEXT: %10 = stablehlo.abs %9 : tensor<?x4xf32>
  // CHECK-NEXT: %11 = stablehlo.abs %i : tensor<4xi32>
  %0 = tcp.tanh %x : tensor<?x4xf32> -> tensor<?x4xf32>
  %1 = tcp.sigmoid %0 : tensor<?x4xf32> -> tensor<?x4xf32>
  %2 = tcp.sqrt %1 : tensor<?x4xf32> -> tensor<?x4xf32>
  %3 = tcp.ceil %2 : tensor<?x4xf32> -> tensor<?x4xf32>
  %4 = tcp.floor %3 : tensor<?x4xf32> -> tensor<?x4xf32>
  %5 = tcp.cos %4 : tensor<?x4xf32> -> tensor<?x4xf32>
  %6 = tcp.sin %5 : tensor<?x4xf32> -> tensor<?x4xf32>
  %7 = tcp.log %6 : tensor<?x4xf32> -> tensor<?x4xf32>
  %8 = tcp.neg %7 : tensor<?x4xf32> -> tensor<?x4xf32>
  %9 = tcp.exp %8 : tensor<?x4xf32> -> tensor<?x4xf32>
  %10 = tcp.abs %9 : tensor<?x4xf32> -> tensor<?x4xf32>
  %11 = tcp.abs %i : tensor<4xi32> -> tensor<4xi32>
  return %10, %11 : tensor<?x4xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @round
// Away from zero: floor(|x|) + (fraction >= 0.5), the sign put back.
// CHECK-NEXT: %0 = stablehlo.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.abs %x : tensor<4xf32>
// CHECK-NEXT: %4 = stablehlo.floor %3 : tensor<4xf32>
// CHECK-NEXT: %5 = stablehlo.subtract %3, %4 : tensor<4xf32>
// CHECK-NEXT: %6 = stablehlo.add %4, %1 : tensor<4xf32>
// CHECK-NEXT: %7 = stablehlo.compare GE, %5, %0, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %8 = stablehlo.select %7, %6, %4 : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: %9 = stablehlo.compare LT, %x, %2, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %10 = stablehlo.negate %8 : tensor<4xf32>
// CHECK-NEXT: %11 = stablehlo.select %9, %10, %8 : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: func.return %11 : tensor<4xf32>
func.func @round(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.round %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @round_even
// At a fraction of exactly 0.5, go up only from an odd floor.
// CHECK:      %[[HALF:.*]] = stablehlo.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK:      %[[TWO:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.divide %{{.*}}, %[[TWO]] : tensor<4xf32>
// CHECK-NEXT: %[[QF:.*]] = stablehlo.floor %[[Q]] : tensor<4xf32>
// CHECK-NEXT: %[[TWICE:.*]] = stablehlo.multiply %[[QF]], %[[TWO]] : tensor<4xf32>
// CHECK-NEXT: %[[ODD:.*]] = stablehlo.compare NE, %[[TWICE]], %{{.*}}, FLOAT
// CHECK-NEXT: %[[TIE:.*]] = stablehlo.compare EQ, %{{.*}}, %[[HALF]], FLOAT
// CHECK-NEXT: %[[TIE_UP:.*]] = stablehlo.and %[[TIE]], %[[ODD]] : tensor<4xi1>
// CHECK-NEXT: %[[ABOVE:.*]] = stablehlo.compare GT, %{{.*}}, %[[HALF]], FLOAT
// CHECK-NEXT: %{{.*}} = stablehlo.or %[[ABOVE]], %[[TIE_UP]] : tensor<4xi1>
// CHECK-NOT:  tcp.
func.func @round_even(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.round_even %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
