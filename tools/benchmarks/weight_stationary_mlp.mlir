// The sharding RFC's 1-D weight-stationary MLP, y = relu(x @ w1) @ w2, as
// tools/xla_comm_report.py's `weight_stationary_mlp`: x (batch, sequence, model)
// split on the model dim that the first matmul contracts, w1 split by columns, w2 by
// rows, y split on the model dim again, on a 1-D grid of 8. Annotated as a jax.jit
// user annotates it: arguments and result only. Keeping the weights where they are
// (weight-stationary), x is all-gathered once and y leaves the second matmul a
// partial sum that one reduce_scatter both sums and splits: the RFC's "after
// partition" listing.
shard.grid @m(shape = 8)

func.func @main(%x: tensor<4x8x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<4x8x64xf32> {
  %model = shard.sharding @m split_axes = [[], [], [0]] : !shard.sharding
  %col = shard.sharding @m split_axes = [[], [0]] : !shard.sharding
  %row = shard.sharding @m split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %model : tensor<4x8x64xf32>
  %w1_s = shard.shard %w1 to %col : tensor<64x128xf32>
  %w2_s = shard.shard %w2 to %row : tensor<128x64xf32>
  %h = stablehlo.dot_general %x_s, %w1_s, contracting_dims = [2] x [0] : (tensor<4x8x64xf32>, tensor<64x128xf32>) -> tensor<4x8x128xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<4x8x128xf32>
  %a = stablehlo.maximum %h, %zero : tensor<4x8x128xf32>
  %y = stablehlo.dot_general %a, %w2_s, contracting_dims = [2] x [0] : (tensor<4x8x128xf32>, tensor<128x64xf32>) -> tensor<4x8x64xf32>
  %y_s = shard.shard %y to %model annotate_for_users : tensor<4x8x64xf32>
  func.return %y_s : tensor<4x8x64xf32>
}
