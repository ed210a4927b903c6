// Megatron-style MLP on a 1-D grid of 8: y = relu(x @ W1) @ W2.
// W1 is split by columns and W2 by rows, so each device computes its slice of the
// hidden layer with no communication and a partial sum of y; the one collective is
// the all_reduce that settles y, whose operand is one device's whole 16x64 f32 block.
// Analytic minimum: 1 all_reduce, 16*64*4 = 4096 bytes.
shard.grid @tp(shape = 8)

func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %w1_s = shard.shard %w1 to %col : tensor<64x256xf32>
  %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %w2_s = shard.shard %w2 to %row : tensor<256x64xf32>
  %h = stablehlo.dot_general %x, %w1_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<16x256xf32>
  %a = stablehlo.maximum %h, %zero : tensor<16x256xf32>
  %y = stablehlo.dot_general %a, %w2_s, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %rep = shard.sharding @tp split_axes = [[]] : !shard.sharding
  %y_s = shard.shard %y to %rep annotate_for_users : tensor<16x64xf32>
  func.return %y_s : tensor<16x64xf32>
}
