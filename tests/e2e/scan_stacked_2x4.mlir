// lax.scan over 3 stacked layers (as JAX lowers it, helpers inlined): the weights stay
// split on grid axis 1 inside the loop, the carry stays split on the batch; the per-step
// sums are carried partial in their stacked buffer and settled once after the loop.
shard.grid @g(shape = 2x4)
func.func @main(%W: tensor<3x16x16xf32>, %x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<3xf32>) {
  %sw = shard.sharding @g split_axes = [[], [], [1]] : !shard.sharding
  %W1 = shard.shard %W to %sw : tensor<3x16x16xf32>
  %sx = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %sx : tensor<8x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:4 = stablehlo.while(%iterArg = %W1, %iterArg_0 = %c, %iterArg_1 = %x1, %iterArg_2 = %0) : tensor<3x16x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<3xf32>
  cond {
    %c_3 = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.compare LT, %iterArg_0, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.dynamic_slice %iterArg, %iterArg_0, %c_2, %c_2, sizes = [1, 16, 16] : (tensor<3x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %9 = stablehlo.dot_general %iterArg_1, %8, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %10 = stablehlo.tanh %9 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %13 = stablehlo.dynamic_update_slice %iterArg_2, %12, %iterArg_0 : (tensor<3xf32>, tensor<1xf32>, tensor<i32>) -> tensor<3xf32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %14 = stablehlo.add %iterArg_0, %c_4 : tensor<i32>
    stablehlo.return %iterArg, %14, %10, %13 : tensor<3x16x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<3xf32>
  }
  %r0 = shard.shard %1#2 to %sx annotate_for_users : tensor<8x16xf32>
  return %r0, %1#3 : tensor<8x16xf32>, tensor<3xf32>
}
