func.func private @pair() -> (i32, f32)

func.func @use() -> f32 {
  %0:2 = func.call @pair() : () -> (i32, f32)
  %a, %b = func.call @pair() : () -> (i32, f32)
  %r:2 = func.call @pair() : () -> (i32, f32)
  %s = arith.sitofp %0#0 : i32 to f32
  %t = arith.addf %s, %b : f32
  %u = arith.addf %t, %r#1 : f32
  %v = arith.addf %u, %0#1 : f32
  return %v : f32
}
