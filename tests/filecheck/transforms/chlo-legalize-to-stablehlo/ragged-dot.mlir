// ragged_dot: the lhs masked to each group's rows [start, start + size) of the ragged dim
// (an i64 iota compared with the running sum of group_sizes, broadcast along
// group_sizes's leading dims), then per group a dot_general: summed when the ragged dim
// is free (with the rhs's group sliced out), stacked along a new leading dim when it is
// contracting. A ragged batching dim is a plain dot_general. Precisions carry over.
// RUN: xshard-opt %s -p chlo-legalize-to-stablehlo | filecheck %s

func.func @free(%lhs: tensor<8x4xf32>, %rhs: tensor<2x4x5xf32>, %sizes: tensor<2xi32>) -> tensor<8x5xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<2x4x5xf32>, tensor<2xi32>) -> tensor<8x5xf32>
  func.return %0 : tensor<8x5xf32>
}
// CHECK-LABEL: func.func @free
// CHECK-NEXT:  %0 = stablehlo.iota dim = 0 : tensor<8x4xi64>
// CHECK-NEXT:  %1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:  %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %3 = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %4 = stablehlo.slice %sizes [0:1] : (tensor<2xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %5 = stablehlo.reshape %4 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:  %6 = stablehlo.convert %5 : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT:  %7 = stablehlo.add %3, %6 : tensor<i64>
// CHECK-NEXT:  %8 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i64>) -> tensor<8x4xi64>
// CHECK-NEXT:  %9 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<i64>) -> tensor<8x4xi64>
// CHECK-NEXT:  %10 = stablehlo.compare GE, %0, %8, SIGNED : (tensor<8x4xi64>, tensor<8x4xi64>) -> tensor<8x4xi1>
// CHECK-NEXT:  %11 = stablehlo.compare LT, %0, %9, SIGNED : (tensor<8x4xi64>, tensor<8x4xi64>) -> tensor<8x4xi1>
// CHECK-NEXT:  %12 = stablehlo.and %10, %11 : tensor<8x4xi1>
// CHECK-NEXT:  %13 = stablehlo.select %12, %lhs, %2 : tensor<8x4xi1>, tensor<8x4xf32>
// CHECK-NEXT:  %14 = stablehlo.slice %sizes [1:2] : (tensor<2xi32>) -> tensor<1xi32>
// CHECK-NEXT:  %15 = stablehlo.reshape %14 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:  %16 = stablehlo.convert %15 : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT:  %17 = stablehlo.add %7, %16 : tensor<i64>
// CHECK-NEXT:  %18 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<i64>) -> tensor<8x4xi64>
// CHECK-NEXT:  %19 = stablehlo.broadcast_in_dim %17, dims = [] : (tensor<i64>) -> tensor<8x4xi64>
// CHECK-NEXT:  %20 = stablehlo.compare GE, %0, %18, SIGNED : (tensor<8x4xi64>, tensor<8x4xi64>) -> tensor<8x4xi1>
// CHECK-NEXT:  %21 = stablehlo.compare LT, %0, %19, SIGNED : (tensor<8x4xi64>, tensor<8x4xi64>) -> tensor<8x4xi1>
// CHECK-NEXT:  %22 = stablehlo.and %20, %21 : tensor<8x4xi1>
// CHECK-NEXT:  %23 = stablehlo.select %22, %lhs, %2 : tensor<8x4xi1>, tensor<8x4xf32>
// CHECK-NEXT:  %24 = stablehlo.slice %rhs [0:1, 0:4, 0:5] : (tensor<2x4x5xf32>) -> tensor<1x4x5xf32>
// CHECK-NEXT:  %25 = stablehlo.reshape %24 : (tensor<1x4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:  %26 = stablehlo.dot_general %13, %25, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
// CHECK-NEXT:  %27 = stablehlo.slice %rhs [1:2, 0:4, 0:5] : (tensor<2x4x5xf32>) -> tensor<1x4x5xf32>
// CHECK-NEXT:  %28 = stablehlo.reshape %27 : (tensor<1x4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:  %29 = stablehlo.dot_general %23, %28, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
// CHECK-NEXT:  %30 = stablehlo.add %26, %29 : tensor<8x5xf32>
// CHECK-NEXT:  func.return %30 : tensor<8x5xf32>

func.func @contracting(%lhs: tensor<6x8xbf16>, %rhs: tensor<8x5xbf16>, %sizes: tensor<2xi32>) -> tensor<2x6x5xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision HIGHEST>, #chlo<precision HIGH>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<6x8xbf16>, tensor<8x5xbf16>, tensor<2xi32>) -> tensor<2x6x5xf32>
  func.return %0 : tensor<2x6x5xf32>
}
// CHECK-LABEL: func.func @contracting
// CHECK-NEXT:  %0 = stablehlo.iota dim = 1 : tensor<6x8xi64>
// CHECK:       %[[G0:.*]] = stablehlo.select %{{.*}}, %lhs, %{{.*}} : tensor<6x8xi1>, tensor<6x8xbf16>
// CHECK:       %[[G1:.*]] = stablehlo.select %{{.*}}, %lhs, %{{.*}} : tensor<6x8xi1>, tensor<6x8xbf16>
// CHECK-NEXT:  %[[D0:.*]] = stablehlo.dot_general %[[G0]], %rhs, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH] : (tensor<6x8xbf16>, tensor<8x5xbf16>) -> tensor<6x5xf32>
// CHECK-NEXT:  %[[R0:.*]] = stablehlo.reshape %[[D0]] : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
// CHECK-NEXT:  %[[D1:.*]] = stablehlo.dot_general %[[G1]], %rhs, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH] : (tensor<6x8xbf16>, tensor<8x5xbf16>) -> tensor<6x5xf32>
// CHECK-NEXT:  %[[R1:.*]] = stablehlo.reshape %[[D1]] : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
// CHECK-NEXT:  %[[R:.*]] = stablehlo.concatenate %[[R0]], %[[R1]], dim = 0 : (tensor<1x6x5xf32>, tensor<1x6x5xf32>) -> tensor<2x6x5xf32>
// CHECK-NEXT:  func.return %[[R]] : tensor<2x6x5xf32>

func.func @batch(%lhs: tensor<7x3x4xf32>, %rhs: tensor<7x4x5xf32>, %sizes: tensor<3xi32>) -> tensor<7x3x5xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0]>}> : (tensor<7x3x4xf32>, tensor<7x4x5xf32>, tensor<3xi32>) -> tensor<7x3x5xf32>
  func.return %0 : tensor<7x3x5xf32>
}
// CHECK-LABEL: func.func @batch
// CHECK-NEXT:  %0 = stablehlo.dot_general %lhs, %rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<7x3x4xf32>, tensor<7x4x5xf32>) -> tensor<7x3x5xf32>
// CHECK-NEXT:  func.return %0 : tensor<7x3x5xf32>

// group_sizes [b, g]: the running sums have shape [b], broadcast along the lhs's batching
// dim; the rhs's dims after its group dim move down by one once the group is sliced out.
func.func @batched_sizes(%lhs: tensor<2x8x4xf32>, %rhs: tensor<3x2x4x5xf32>, %sizes: tensor<2x3xi32>) -> tensor<2x8x5xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<2x8x4xf32>, tensor<3x2x4x5xf32>, tensor<2x3xi32>) -> tensor<2x8x5xf32>
  func.return %0 : tensor<2x8x5xf32>
}
// CHECK-LABEL: func.func @batched_sizes
// CHECK:       %{{.*}} = stablehlo.slice %sizes [0:2, 0:1] : (tensor<2x3xi32>) -> tensor<2x1xi32>
// CHECK-NEXT:  %{{.*}} = stablehlo.reshape %{{.*}} : (tensor<2x1xi32>) -> tensor<2xi32>
// CHECK:       %{{.*}} = stablehlo.broadcast_in_dim %{{.*}}, dims = [0] : (tensor<2xi64>) -> tensor<2x8x4xi64>
// CHECK:       %{{.*}} = stablehlo.slice %rhs [2:3, 0:2, 0:4, 0:5] : (tensor<3x2x4x5xf32>) -> tensor<1x2x4x5xf32>
// CHECK-NEXT:  %[[RHS:.*]] = stablehlo.reshape %{{.*}} : (tensor<1x2x4x5xf32>) -> tensor<2x4x5xf32>
// CHECK-NEXT:  %[[D:.*]] = stablehlo.dot_general %{{.*}}, %[[RHS]], batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4xf32>, tensor<2x4x5xf32>) -> tensor<2x8x5xf32>
// CHECK-NEXT:  %[[R:.*]] = stablehlo.add %{{.*}}, %[[D]] : tensor<2x8x5xf32>
// CHECK-NEXT:  func.return %[[R]] : tensor<2x8x5xf32>
