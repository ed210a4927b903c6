// RUN: xshard-opt %s | filecheck %s
// RUN: xshard-opt %s --print-op-generic | xshard-opt | filecheck %s

// `jax.jit(f).lower(...).as_text()` of the model below (jax 0.10.2, CPU), saved as is:
// xshard parses JAX's pretty StableHLO and prints it back in the same form.
// Model: value_and_grad of mean((x @ w + b - y) ** 2); returns loss, w - 0.1 gw, b - 0.1 gb  # w: 8x2, b: 2, x: 16x8, y: 16x2
module @jit_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<16x8xf32>, %arg3: tensor<16x2xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<8x2xf32> {jax.result_info = "result[1]"}, tensor<2xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8xf32>, tensor<8x2xf32>) -> tensor<16x2xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<16x2xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x2xf32>
    %4 = stablehlo.subtract %3, %arg3 : tensor<16x2xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<16x2xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x2xf32>
    %7 = stablehlo.multiply %6, %4 : tensor<16x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.divide %8, %cst_1 : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %10 = stablehlo.divide %cst_2, %cst_3 : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<16x2xf32>
    %12 = stablehlo.multiply %11, %7 : tensor<16x2xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<16x2xf32>, tensor<f32>) -> tensor<2xf32>
    %14 = stablehlo.reshape %13 : (tensor<2xf32>) -> tensor<1x2xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<1x2xf32>, tensor<f32>) -> tensor<2xf32>
    %16 = stablehlo.dot_general %12, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    %17 = stablehlo.transpose %16, dims = [1, 0] : (tensor<2x8xf32>) -> tensor<8x2xf32>
    %cst_6 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
    %19 = stablehlo.multiply %18, %17 : tensor<8x2xf32>
    %20 = stablehlo.subtract %arg0, %19 : tensor<8x2xf32>
    %cst_7 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %22 = stablehlo.multiply %21, %15 : tensor<2xf32>
    %23 = stablehlo.subtract %arg1, %22 : tensor<2xf32>
    return %9, %20, %23 : tensor<f32>, tensor<8x2xf32>, tensor<2xf32>
  }
}

// CHECK:      -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<8x2xf32> {jax.result_info = "result[1]"}, tensor<2xf32> {jax.result_info = "result[2]"})
// CHECK:      %{{.*}} = stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<f32>
// CHECK:      %{{.*}} = stablehlo.reshape %{{.*}} : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK:      %{{.*}} = stablehlo.dot_general %{{.*}}, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %{{.*}} = stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK:      func.return %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<8x2xf32>, tensor<2xf32>
