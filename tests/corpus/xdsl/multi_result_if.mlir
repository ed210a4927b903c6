func.func @pick(%c: i1, %a: i64, %b: i64) -> (i64, i64) {
  %0:2 = scf.if %c -> (i64, i64) {
    scf.yield %a, %b : i64, i64
  } else {
    scf.yield %b, %a : i64, i64
  }
  %1 = arith.addi %0#0, %0#1 : i64
  return %1, %0#1 : i64, i64
}
