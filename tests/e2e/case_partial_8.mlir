// lax.cond's branches read a partial sum (a dot_general split on its contracting dim)
// from above, and nothing annotates the case: the value is settled (one all_reduce of
// the 16x4 f32 product) before the case runs whole on each device.
shard.grid @g(shape = 8)
func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x4xf32>, %i: tensor<i32>) -> tensor<16x4xf32> {
  %k = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %k : tensor<16x32xf32>
  %d = stablehlo.dot_general %a1, %b, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x4xf32>) -> tensor<16x4xf32>
  %r = "stablehlo.case"(%i) ({
    %e = stablehlo.exponential %d : tensor<16x4xf32>
    stablehlo.return %e : tensor<16x4xf32>
  }, {
    stablehlo.return %d : tensor<16x4xf32>
  }) : (tensor<i32>) -> tensor<16x4xf32>
  func.return %r : tensor<16x4xf32>
}
