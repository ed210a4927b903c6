func.func @layouts(%a: memref<4x4xf32, strided<[4, 1]>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>, %c: memref<8xf32, affine_map<(d0) -> (d0 * 2)>>, %d: memref<2xi32, 1>, %e: memref<f64>, %f: memref<*xf32>) {
  return
}
