func.func @types(%a: tuple<i32, f32>, %b: complex<f64>, %c: vector<4x[8]xf32>, %d: vector<2xi1>, %e: none, %f: tensor<*xf32>, %g: tensor<?x?x3xbf16>, %h: f8E4M3FN, %i: i128, %j: ui7, %k: si3, %l: () -> (i32, i32), %m: tensor<4xf32, "encoding">) {
  return
}
