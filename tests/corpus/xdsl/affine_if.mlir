#set = affine_set<(d0)[s0] : (d0 - 5 >= 0, s0 - d0 - 1 >= 0)>
func.func @cond(%A: memref<10xf32>, %x: f32, %n: index) {
  affine.for %i = 0 to 10 {
    "affine.if"(%i, %n) <{condition = #set}> ({
      affine.store %x, %A[%i] : memref<10xf32>
      affine.yield
    }, {
    }) : (index, index) -> ()
  }
  return
}
