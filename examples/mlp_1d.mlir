// The 1-D weight-stationary MLP of the sharding RFC (seed 003), written once for
// one device, on a grid of 2 devices: the input is split on its last dim, the
// result is partial-sum on the grid axis, and its users want it split again.
shard.grid @grid0(shape = 2)

func.func @mlp(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s_in = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s_in : tensor<2x4x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = stablehlo.constant dense<0.000000e+00> : tensor<2x4x32xf32>
  %3 = stablehlo.maximum %1, %2 : tensor<2x4x32xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [2] x [0] : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s_partial = shard.sharding @grid0 split_axes = [[], [], []] partial = sum [0] : !shard.sharding
  %5 = shard.shard %4 to %s_partial : tensor<2x4x8xf32>
  %s_out = shard.sharding @grid0 split_axes = [[], [], [0]] : !shard.sharding
  %6 = shard.shard %5 to %s_out annotate_for_users : tensor<2x4x8xf32>
  func.return %6 : tensor<2x4x8xf32>
}
