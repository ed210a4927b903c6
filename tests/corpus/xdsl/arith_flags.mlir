func.func @flags(%a: i32, %b: i32, %x: f32, %y: f32, %c: i1) -> (i32, i32, f32, f32, i1, i1, i32, f32) {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.muli %a, %b overflow<nsw, nuw> : i32
  %2 = arith.addf %x, %y fastmath<fast> : f32
  %3 = arith.mulf %x, %y fastmath<nnan,ninf> : f32
  %4 = arith.cmpi sge, %a, %b : i32
  %5 = arith.cmpf olt, %x, %y : f32
  %6 = arith.select %c, %a, %b : i32
  %7 = arith.maximumf %x, %y : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, f32, f32, i1, i1, i32, f32
}
