func.func private @external(i32, f32) -> i64 attributes {llvm.emit_c_interface}
func.func @attrs(%arg0: tensor<4xf32> {test.arg = "first", test.n = 3 : i64}, %arg1: i32) -> (tensor<4xf32> {test.res}) attributes {test.dict = {a = 1 : i32, b = [1.5 : f32, "s"]}, test.str = "esc\"aped\n\09tab", test.sym = @external, test.nested = @a::@b} {
  return %arg0 : tensor<4xf32>
}
