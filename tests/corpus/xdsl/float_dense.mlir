func.func @dense() -> (tensor<4xf32>, tensor<2x2xf64>, tensor<3xf16>, tensor<2xbf16>, tensor<2xf32>) {
  %0 = arith.constant dense<1.0> : tensor<4xf32>
  %1 = arith.constant dense<[[1.5, -2.0], [3.25e10, 4.0e-3]]> : tensor<2x2xf64>
  %2 = arith.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf16>
  %3 = arith.constant dense<[1.0, -1.0]> : tensor<2xbf16>
  %4 = arith.constant dense<[0.1, 1.0e+30]> : tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<2x2xf64>, tensor<3xf16>, tensor<2xbf16>, tensor<2xf32>
}
