func.func @edges() -> (tensor<0xf32>, tensor<2xf32>, tensor<2x0xi32>, tensor<complex<f32>>, tensor<2xcomplex<i32>>) {
  %0 = arith.constant dense<> : tensor<0xf32>
  %1 = arith.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %2 = arith.constant dense<> : tensor<2x0xi32>
  %3 = arith.constant dense<(1.0, 2.0)> : tensor<complex<f32>>
  %4 = arith.constant dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i32>>
  return %0, %1, %2, %3, %4 : tensor<0xf32>, tensor<2xf32>, tensor<2x0xi32>, tensor<complex<f32>>, tensor<2xcomplex<i32>>
}
