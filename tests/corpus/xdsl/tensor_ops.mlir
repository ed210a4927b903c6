func.func @slices(%t: tensor<8x16xf32>, %u: tensor<2x4xf32>, %i: index, %n: index) -> (tensor<2x4xf32>, tensor<8x16xf32>, tensor<?x4xf32>, f32) {
  %0 = tensor.extract_slice %t[0, 4] [2, 4] [1, 2] : tensor<8x16xf32> to tensor<2x4xf32>
  %1 = tensor.insert_slice %u into %t[%i, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
  %2 = tensor.extract_slice %t[%i, 1] [%n, 4] [1, 1] : tensor<8x16xf32> to tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %3 = tensor.extract %t[%c0, %i] : tensor<8x16xf32>
  return %0, %1, %2, %3 : tensor<2x4xf32>, tensor<8x16xf32>, tensor<?x4xf32>, f32
}
