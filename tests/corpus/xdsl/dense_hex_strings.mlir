func.func @hex() -> (tensor<2xf32>, tensor<3xi16>, tensor<f32>) {
  %0 = arith.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %1 = arith.constant dense<"0x010002000300"> : tensor<3xi16>
  %2 = arith.constant dense<"0x0000807F"> : tensor<f32>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi16>, tensor<f32>
}
func.func @nans() -> (tensor<2xf32>, tensor<3xf64>) {
  %0 = arith.constant dense<"0x0000C07F0000C07F"> : tensor<2xf32>
  %1 = arith.constant dense<"0x000000000000F07F000000000000F0FF0000000000000080"> : tensor<3xf64>
  return %0, %1 : tensor<2xf32>, tensor<3xf64>
}
