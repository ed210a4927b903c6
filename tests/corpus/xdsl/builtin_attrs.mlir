module attributes {test.arr = [1 : i32, 2.5 : f64, "x", unit, @sym, [[]], {}], test.dense_arr = array<i64: 1, -2, 3>, test.i8_arr = array<i8: -128, 127>, test.f32_arr = array<f32: 1.5, -0.0>, test.empty_arr = array<i32>, test.bool_arr = array<i1: true, false>, test.type = tensor<2xf32>, test.unit, test.neg = -1 : i64, test.float = 1.000000e+00 : f32, test.f64 = 0.1, test.int = 42} {
}
