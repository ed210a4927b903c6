func.func @floats() -> (f32, f32, f32, f64, f64, f16, bf16, f32, f64, f32) {
  %0 = arith.constant 1.5 : f32
  %1 = arith.constant 0xFF800000 : f32
  %2 = arith.constant 0x7FC00000 : f32
  %3 = arith.constant -0.0 : f64
  %4 = arith.constant 1.0e-10 : f64
  %5 = arith.constant 6.5e4 : f16
  %6 = arith.constant 0x7F80 : bf16
  %7 = arith.constant 3.4028234663852886e+38 : f32
  %8 = arith.constant 0x7FF0000000000000 : f64
  %9 = arith.constant -2.75E+2 : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f32, f32, f64, f64, f16, bf16, f32, f64, f32
}
