// The Megatron-style MLP on a 2x4 grid: data parallel on axis 0 (the batch of x and
// y is split in 2), tensor parallel on axis 1 (W1 by columns, W2 by rows, in 4).
// Each device holds a partial sum of its 8x64 f32 block of y; one all_reduce over
// axis 1 (groups of 4 devices) settles it. The weights are never communicated.
// Analytic minimum: 1 all_reduce over axis 1, 8*64*4 = 2048 bytes.
shard.grid @dp_tp(shape = 2x4)

func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %batch = shard.sharding @dp_tp split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %batch : tensor<16x64xf32>
  %col = shard.sharding @dp_tp split_axes = [[], [1]] : !shard.sharding
  %w1_s = shard.shard %w1 to %col : tensor<64x256xf32>
  %row = shard.sharding @dp_tp split_axes = [[1]] : !shard.sharding
  %w2_s = shard.shard %w2 to %row : tensor<256x64xf32>
  %h = stablehlo.dot_general %x_s, %w1_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<16x256xf32>
  %a = stablehlo.maximum %h, %zero : tensor<16x256xf32>
  %y = stablehlo.dot_general %a, %w2_s, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %out = shard.sharding @dp_tp split_axes = [[0]] : !shard.sharding
  %y_s = shard.shard %y to %out annotate_for_users : tensor<16x64xf32>
  func.return %y_s : tensor<16x64xf32>
}
