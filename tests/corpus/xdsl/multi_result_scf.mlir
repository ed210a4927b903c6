func.func @sum(%n: index, %x: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : i32
  %init = arith.constant 0 : i32
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %cnt = %init) -> (f32, i32) {
    %next = arith.addf %acc, %x : f32
    %inc = arith.addi %cnt, %one : i32
    scf.yield %next, %inc : f32, i32
  }
  return %res#0, %res#1 : f32, i32
}
