func.func @casts(%a: i32, %x: f64, %i: index) -> (i64, i16, f32, f64, index, i32, f32) {
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.trunci %a : i32 to i16
  %2 = arith.truncf %x : f64 to f32
  %3 = arith.sitofp %a : i32 to f64
  %4 = arith.index_cast %a : i32 to index
  %5 = arith.index_cast %i : index to i32
  %6 = arith.bitcast %a : i32 to f32
  return %0, %1, %2, %3, %4, %5, %6 : i64, i16, f32, f64, index, i32, f32
}
