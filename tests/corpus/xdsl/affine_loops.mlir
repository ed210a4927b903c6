func.func @loops(%A: memref<16x32xf32>, %B: memref<32xf32>, %n: index) {
  %cst = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 step 4 {
      %v = affine.load %A[%i, %j] : memref<16x32xf32>
      %w = affine.load %B[%j + 1] : memref<32xf32>
      %s = arith.addf %v, %w : f32
      affine.store %s, %A[%i, %j] : memref<16x32xf32>
    }
  }
  affine.for %k = 0 to %n {
    %idx = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0 mod 4)>(%k)[%n]
    affine.store %cst, %B[%k] : memref<32xf32>
  }
  return
}
