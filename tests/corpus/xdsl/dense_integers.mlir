func.func @ints() -> (tensor<2x2xi32>, tensor<3xi8>, tensor<2xi1>, tensor<2xindex>, tensor<2xi64>, tensor<i16>) {
  %0 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %1 = arith.constant dense<[-128, 0, 127]> : tensor<3xi8>
  %2 = arith.constant dense<[true, false]> : tensor<2xi1>
  %3 = arith.constant dense<[0, 9223372036854775807]> : tensor<2xindex>
  %4 = arith.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %5 = arith.constant dense<7> : tensor<i16>
  return %0, %1, %2, %3, %4, %5 : tensor<2x2xi32>, tensor<3xi8>, tensor<2xi1>, tensor<2xindex>, tensor<2xi64>, tensor<i16>
}
