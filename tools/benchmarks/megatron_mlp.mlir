// Megatron MLP, y = relu(x @ w1) @ w2, as tools/xla_comm_report.py's `megatron_mlp`:
// x replicated, w1 split by columns, w2 by rows, y replicated, on a 1-D grid of 8.
shard.grid @m(shape = 8)

func.func @main(%x: tensor<16x32xf32>, %w1: tensor<32x64xf32>, %w2: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %rep = shard.sharding @m split_axes = [[]] : !shard.sharding
  %col = shard.sharding @m split_axes = [[], [0]] : !shard.sharding
  %row = shard.sharding @m split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rep : tensor<16x32xf32>
  %w1_s = shard.shard %w1 to %col : tensor<32x64xf32>
  %w2_s = shard.shard %w2 to %row : tensor<64x32xf32>
  %h = stablehlo.dot_general %x_s, %w1_s, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<16x64xf32>
  %a = stablehlo.maximum %h, %zero : tensor<16x64xf32>
  %y = stablehlo.dot_general %a, %w2_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  %y_s = shard.shard %y to %rep annotate_for_users : tensor<16x32xf32>
  func.return %y_s : tensor<16x32xf32>
}
