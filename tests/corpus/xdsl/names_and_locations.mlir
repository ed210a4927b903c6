#loc = loc("other.mlir":1:1)
func.func @names(%arg0: i32, %x_1: i32) -> i32 {
  %x = arith.addi %arg0, %x_1 : i32 loc("input.mlir":3:8)
  %x_0 = arith.addi %x, %x : i32 loc(unknown)
  %42 = arith.addi %x_0, %x : i32 loc(fused["a", "b"])
  %val.name = arith.muli %42, %42 : i32 loc(#loc)
  return %val.name : i32
}
