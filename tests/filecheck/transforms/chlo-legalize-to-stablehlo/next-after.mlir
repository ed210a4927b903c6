// next_after steps x's bits, read as an integer of x's width, by one towards y (down where
// |x| > |y| or the signs differ); y where x == y, the smallest subnormal signed like y where
// x is ±0, NaN where either is NaN. No conversion to f32: bf16 steps as i16.
// RUN: xshard-opt %s -p chlo-legalize-to-stablehlo | filecheck %s

func.func @next_after(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @next_after
// CHECK-NEXT:  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:  %1 = stablehlo.bitcast_convert %y : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:  %2 = stablehlo.compare NE, %x, %x, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %3 = stablehlo.compare NE, %y, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %4 = stablehlo.or %2, %3 : tensor<4xi1>
// CHECK-NEXT:  %5 = stablehlo.constant dense<2147483647> : tensor<i32>
// CHECK-NEXT:  %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %7 = stablehlo.and %0, %6 : tensor<4xi32>
// CHECK-NEXT:  %8 = stablehlo.constant dense<2147483647> : tensor<i32>
// CHECK-NEXT:  %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %10 = stablehlo.and %1, %9 : tensor<4xi32>
// CHECK-NEXT:  %11 = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:  %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %13 = stablehlo.and %0, %12 : tensor<4xi32>
// CHECK-NEXT:  %14 = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:  %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %16 = stablehlo.and %1, %15 : tensor<4xi32>
// CHECK-NEXT:  %17 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %18 = stablehlo.broadcast_in_dim %17, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %19 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:  %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %21 = stablehlo.compare GT, %7, %10, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:  %22 = stablehlo.compare NE, %13, %16, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:  %23 = stablehlo.or %21, %22 : tensor<4xi1>
// CHECK-NEXT:  %24 = stablehlo.constant dense<-1> : tensor<i32>
// CHECK-NEXT:  %25 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %26 = stablehlo.select %23, %25, %20 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT:  %27 = stablehlo.add %0, %26 : tensor<4xi32>
// CHECK-NEXT:  %28 = stablehlo.compare EQ, %10, %18, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:  %29 = stablehlo.or %16, %20 : tensor<4xi32>
// CHECK-NEXT:  %30 = stablehlo.select %28, %1, %29 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT:  %31 = stablehlo.compare EQ, %7, %18, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:  %32 = stablehlo.select %31, %30, %27 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT:  %33 = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:  %34 = stablehlo.select %33, %1, %32 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT:  %35 = stablehlo.constant dense<0x7fc00000> : tensor<f32>
// CHECK-NEXT:  %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %37 = stablehlo.bitcast_convert %36 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:  %38 = stablehlo.select %4, %37, %34 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT:  %39 = stablehlo.bitcast_convert %38 : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:  func.return %39 : tensor<4xf32>

func.func @next_after_bf16(%x: tensor<2x3xbf16>, %y: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = chlo.next_after %x, %y : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  func.return %0 : tensor<2x3xbf16>
}
// CHECK-LABEL: func.func @next_after_bf16
// CHECK-NEXT:  %0 = stablehlo.bitcast_convert %x : (tensor<2x3xbf16>) -> tensor<2x3xi16>
// CHECK-NOT:   stablehlo.convert
// CHECK:       stablehlo.constant dense<-32768> : tensor<i16>
// CHECK:       %[[R:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<2x3xi16>) -> tensor<2x3xbf16>
// CHECK-NEXT:  func.return %[[R]] : tensor<2x3xbf16>

func.func @next_after_f64(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.next_after %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}
// CHECK-LABEL: func.func @next_after_f64
// CHECK-NEXT:  %0 = stablehlo.bitcast_convert %x : (tensor<4xf64>) -> tensor<4xi64>
// CHECK:       stablehlo.constant dense<9223372036854775807> : tensor<i64>
// CHECK:       stablehlo.constant dense<-9223372036854775808> : tensor<i64>
// CHECK:       %[[R:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<4xi64>) -> tensor<4xf64>
// CHECK-NEXT:  func.return %[[R]] : tensor<4xf64>
