func.func @reduce(%A: memref<64xf32>) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %r:2 = affine.for %i = 0 to 64 iter_args(%sum = %zero, %sq = %zero) -> (f32, f32) {
    %v = affine.load %A[%i] : memref<64xf32>
    %s = arith.addf %sum, %v : f32
    %m = arith.mulf %v, %v : f32
    %q = arith.addf %sq, %m : f32
    affine.yield %s, %q : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
