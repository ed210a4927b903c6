func.func @math(%x: f32, %y: f64, %t: tensor<4xf32>) -> (f32, f64, tensor<4xf32>, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.sqrt %y fastmath<afn> : f64
  %2 = math.tanh %t : tensor<4xf32>
  %3 = math.fma %x, %x, %0 : f32
  %4 = math.powf %x, %3 : f32
  return %0, %1, %2, %3, %4 : f32, f64, tensor<4xf32>, f32, f32
}
