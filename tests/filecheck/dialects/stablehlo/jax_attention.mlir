// RUN: xshard-opt %s | filecheck %s
// RUN: xshard-opt %s --print-op-generic | xshard-opt | filecheck %s

// `jax.jit(f).lower(...).as_text()` of the model below (jax 0.10.2, CPU), saved as is:
// xshard parses JAX's pretty StableHLO and prints it back in the same form.
// Model: softmax(q @ k.T / sqrt(8), -1) @ v with q, k, v = x @ wq, x @ wk, x @ wv  # x: 6x8, w*: 8x8
module @jit_attention attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>) -> (tensor<6x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %2 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %3 = stablehlo.transpose %1, dims = [1, 0] : (tensor<6x8xf32>) -> tensor<8x6xf32>
    %4 = stablehlo.dot_general %0, %3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x8xf32>, tensor<8x6xf32>) -> tensor<6x6xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %5 = stablehlo.sqrt %cst : tensor<f32>
    %6 = stablehlo.convert %5 : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
    %8 = stablehlo.divide %4, %7 : tensor<6x6xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<6x6xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %11 = stablehlo.maximum %10, %9 : tensor<6xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x6xf32>
    %14 = stablehlo.subtract %8, %13 : tensor<6x6xf32>
    %15 = stablehlo.exponential %14 : tensor<6x6xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<6x6xf32>, tensor<f32>) -> tensor<6xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x6xf32>
    %19 = stablehlo.divide %15, %18 : tensor<6x6xf32>
    %20 = stablehlo.dot_general %19, %2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
    return %20 : tensor<6x8xf32>
  }
}

// CHECK:      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
// CHECK:      %3 = stablehlo.transpose %1, dims = [1, 0] : (tensor<6x8xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %4 = stablehlo.dot_general %0, %3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x8xf32>, tensor<8x6xf32>) -> tensor<6x6xf32>
// CHECK:      %{{.*}} = stablehlo.sqrt %{{.*}} : tensor<f32>
// CHECK-NEXT: %{{.*}} = stablehlo.convert %{{.*}} : tensor<f32>
// CHECK:      stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT: %{{.*}} = stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<6x6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK:      %{{.*}} = stablehlo.dot_general %{{.*}}, %2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
