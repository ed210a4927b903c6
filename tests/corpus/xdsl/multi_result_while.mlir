func.func @count(%limit: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
    %cond = arith.cmpi slt, %i, %limit : i32
    scf.condition(%cond) %i, %s : i32, i32
  } do {
  ^bb0(%j: i32, %t: i32):
    %k = arith.addi %j, %c1 : i32
    %u = arith.addi %t, %j : i32
    scf.yield %k, %u : i32, i32
  }
  return %0#1 : i32
}
