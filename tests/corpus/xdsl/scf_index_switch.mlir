func.func @switch(%i: index, %a: i32, %b: i32) -> i32 {
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  case 5 {
    scf.yield %b : i32
  }
  default {
    %c = arith.addi %a, %b : i32
    scf.yield %c : i32
  }
  return %0 : i32
}
