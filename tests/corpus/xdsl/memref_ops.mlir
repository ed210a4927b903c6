"memref.global"() <{constant, initial_value = dense<[1, 2, 3, 4]> : tensor<4xi32>, sym_name = "table", sym_visibility = "private", type = memref<4xi32>}> : () -> ()
func.func @mem(%n: index) -> i32 {
  %g = memref.get_global @table : memref<4xi32>
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x8xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %g[%c0] : memref<4xi32>
  %f = arith.constant 2.0 : f32
  memref.store %f, %a[%c0, %c0] : memref<?x8xf32>
  %s = memref.subview %a[0, 2] [%n, 4] [1, 1] : memref<?x8xf32> to memref<?x4xf32, strided<[8, 1], offset: 2>>
  %c = "memref.cast"(%a) : (memref<?x8xf32>) -> memref<?x?xf32>
  memref.dealloc %a : memref<?x8xf32>
  return %v : i32
}
