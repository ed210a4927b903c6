func.func @shapes(%t: tensor<2x3x4xf32>, %d: tensor<?x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x4xf32>, tensor<3x?xi8>) {
  %0 = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %1 = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
  %2 = tensor.cast %d : tensor<?x4xf32> to tensor<4x4xf32>
  %c5 = arith.constant 5 : index
  %3 = tensor.empty(%c5) : tensor<3x?xi8>
  return %0, %1, %2, %3 : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x4xf32>, tensor<3x?xi8>
}
