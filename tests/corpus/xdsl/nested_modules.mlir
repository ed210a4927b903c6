module @outer attributes {test.attr} {
  module @inner {
    func.func @f(%a: i64) -> i64 {
      %0 = scf.execute_region -> i64 {
        scf.yield %a : i64
      }
      return %0 : i64
    }
  }
  func.func @g() {
    return
  }
}
