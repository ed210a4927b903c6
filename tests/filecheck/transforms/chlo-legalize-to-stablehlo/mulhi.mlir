// mulhi: below 64 bits the product in twice the width, shifted right by the width
// (logically for unsigned types, arithmetically otherwise); ui64 from 32-bit halves, the
// carries of the middle products added to a_hi * b_hi; i64 as ui64 less b where a < 0 and
// a where b < 0.
// RUN: xshard-opt %s -p chlo-legalize-to-stablehlo | filecheck %s

func.func @mulhi_ui32(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
  %0 = chlo.mulhi %a, %b : tensor<4xui32>, tensor<4xui32> -> tensor<4xui32>
  func.return %0 : tensor<4xui32>
}
// CHECK-LABEL: func.func @mulhi_ui32
// CHECK-NEXT:  %0 = stablehlo.convert %a : (tensor<4xui32>) -> tensor<4xui64>
// CHECK-NEXT:  %1 = stablehlo.convert %b : (tensor<4xui32>) -> tensor<4xui64>
// CHECK-NEXT:  %2 = stablehlo.multiply %0, %1 : tensor<4xui64>
// CHECK-NEXT:  %3 = stablehlo.constant dense<32> : tensor<ui64>
// CHECK-NEXT:  %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<ui64>) -> tensor<4xui64>
// CHECK-NEXT:  %5 = stablehlo.shift_right_logical %2, %4 : tensor<4xui64>
// CHECK-NEXT:  %6 = stablehlo.convert %5 : (tensor<4xui64>) -> tensor<4xui32>
// CHECK-NEXT:  func.return %6 : tensor<4xui32>

func.func @mulhi_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = chlo.mulhi %a, %b : tensor<4xi8>, tensor<4xi8> -> tensor<4xi8>
  func.return %0 : tensor<4xi8>
}
// CHECK-LABEL: func.func @mulhi_i8
// CHECK-NEXT:  %0 = stablehlo.convert %a : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-NEXT:  %1 = stablehlo.convert %b : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-NEXT:  %2 = stablehlo.multiply %0, %1 : tensor<4xi16>
// CHECK-NEXT:  %3 = stablehlo.constant dense<8> : tensor<i16>
// CHECK-NEXT:  %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i16>) -> tensor<4xi16>
// CHECK-NEXT:  %5 = stablehlo.shift_right_arithmetic %2, %4 : tensor<4xi16>
// CHECK-NEXT:  %6 = stablehlo.convert %5 : (tensor<4xi16>) -> tensor<4xi8>
// CHECK-NEXT:  func.return %6 : tensor<4xi8>

func.func @mulhi_ui64(%a: tensor<4xui64>, %b: tensor<4xui64>) -> tensor<4xui64> {
  %0 = chlo.mulhi %a, %b : tensor<4xui64>, tensor<4xui64> -> tensor<4xui64>
  func.return %0 : tensor<4xui64>
}
// CHECK-LABEL: func.func @mulhi_ui64
// CHECK-NEXT:  %0 = stablehlo.constant dense<4294967295> : tensor<ui64>
// CHECK-NEXT:  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui64>) -> tensor<4xui64>
// CHECK:       %[[AHI:.*]] = stablehlo.shift_right_logical %a, %{{.*}} : tensor<4xui64>
// CHECK:       %[[BHI:.*]] = stablehlo.shift_right_logical %b, %{{.*}} : tensor<4xui64>
// CHECK-NEXT:  %[[ALO:.*]] = stablehlo.and %a, %1 : tensor<4xui64>
// CHECK-NEXT:  %[[BLO:.*]] = stablehlo.and %b, %1 : tensor<4xui64>
// CHECK-NEXT:  %[[P1:.*]] = stablehlo.multiply %[[ALO]], %[[BHI]] : tensor<4xui64>
// CHECK-NEXT:  %[[P0:.*]] = stablehlo.multiply %[[ALO]], %[[BLO]] : tensor<4xui64>
// CHECK:       %[[C0:.*]] = stablehlo.shift_right_logical %[[P0]], %{{.*}} : tensor<4xui64>
// CHECK-NEXT:  %[[MID1:.*]] = stablehlo.add %[[P1]], %[[C0]] : tensor<4xui64>
// CHECK-NEXT:  %[[P2:.*]] = stablehlo.multiply %[[AHI]], %[[BLO]] : tensor<4xui64>
// CHECK-NEXT:  %[[LOW1:.*]] = stablehlo.and %[[MID1]], %1 : tensor<4xui64>
// CHECK-NEXT:  %[[MID2:.*]] = stablehlo.add %[[P2]], %[[LOW1]] : tensor<4xui64>
// CHECK-NEXT:  %[[P3:.*]] = stablehlo.multiply %[[AHI]], %[[BHI]] : tensor<4xui64>
// CHECK:       %[[C1:.*]] = stablehlo.shift_right_logical %[[MID1]], %{{.*}} : tensor<4xui64>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.add %[[P3]], %[[C1]] : tensor<4xui64>
// CHECK:       %[[C2:.*]] = stablehlo.shift_right_logical %[[MID2]], %{{.*}} : tensor<4xui64>
// CHECK-NEXT:  %[[R:.*]] = stablehlo.add %[[S]], %[[C2]] : tensor<4xui64>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xui64>

func.func @mulhi_i64(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = chlo.mulhi %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}
// CHECK-LABEL: func.func @mulhi_i64
// CHECK-NEXT:  %[[UA:.*]] = stablehlo.convert %a : (tensor<4xi64>) -> tensor<4xui64>
// CHECK-NEXT:  %[[UB:.*]] = stablehlo.convert %b : (tensor<4xi64>) -> tensor<4xui64>
// CHECK:       %[[ANEG:.*]] = stablehlo.compare LT, %a, %{{.*}}, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK:       %[[X:.*]] = stablehlo.select %[[ANEG]], %[[UB]], %{{.*}} : tensor<4xi1>, tensor<4xui64>
// CHECK-NEXT:  %[[H1:.*]] = stablehlo.subtract %{{.*}}, %[[X]] : tensor<4xui64>
// CHECK:       %[[BNEG:.*]] = stablehlo.compare LT, %b, %{{.*}}, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK:       %[[Y:.*]] = stablehlo.select %[[BNEG]], %[[UA]], %{{.*}} : tensor<4xi1>, tensor<4xui64>
// CHECK-NEXT:  %[[H2:.*]] = stablehlo.subtract %[[H1]], %[[Y]] : tensor<4xui64>
// CHECK-NEXT:  %[[R:.*]] = stablehlo.convert %[[H2]] : (tensor<4xui64>) -> tensor<4xi64>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xi64>
