func.func @ints() -> (i64, i64, ui64, index, i1, i8, si16, i32) {
  %0 = arith.constant -9223372036854775808 : i64
  %1 = arith.constant 9223372036854775807 : i64
  %2 = "test.op"() {value = 18446744073709551615 : ui64} : () -> ui64
  %3 = arith.constant 9223372036854775807 : index
  %4 = arith.constant true
  %5 = arith.constant 255 : i8
  %6 = "test.op"() {value = -32768 : si16} : () -> si16
  %7 = arith.constant 0x7FFFFFFF : i32
  return %0, %1, %2, %3, %4, %5, %6, %7 : i64, i64, ui64, index, i1, i8, si16, i32
}
