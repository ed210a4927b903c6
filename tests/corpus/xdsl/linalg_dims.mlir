func.func @dims(%x: tensor<2x3x4xf32>, %v: tensor<3xf32>, %o: tensor<4x2x3xf32>, %b: tensor<2x3xf32>, %r: tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<2x3xf32>, tensor<3xf32>) {
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%o : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %bc = linalg.broadcast ins(%v : tensor<3xf32>) outs(%b : tensor<2x3xf32>) dimensions = [0]
  %red = linalg.reduce ins(%b : tensor<2x3xf32>) outs(%r : tensor<3xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return %t, %bc, %red : tensor<4x2x3xf32>, tensor<2x3xf32>, tensor<3xf32>
}
