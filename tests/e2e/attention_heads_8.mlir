// One self-attention block, 8 heads on a 1-D grid of 8, heads split (Megatron style):
// the Q/K/V projections are split by columns, one head per device (the head dim of
// the D x H x Dh weights), so scores, softmax and the weighted sum of values are
// per head and local; the output projection is split by rows (its head dim), which
// leaves each device a partial sum of the 16x64 f32 output.
// Analytic minimum: 1 all_reduce, 16*64*4 = 4096 bytes.
shard.grid @heads(shape = 8)

func.func @main(%x: tensor<16x64xf32>, %wq: tensor<64x8x8xf32>, %wk: tensor<64x8x8xf32>, %wv: tensor<64x8x8xf32>, %wo: tensor<8x8x64xf32>) -> tensor<16x64xf32> {
  %by_head = shard.sharding @heads split_axes = [[], [0]] : !shard.sharding
  %wq_s = shard.shard %wq to %by_head : tensor<64x8x8xf32>
  %wk_s = shard.shard %wk to %by_head : tensor<64x8x8xf32>
  %wv_s = shard.shard %wv to %by_head : tensor<64x8x8xf32>
  %out_by_head = shard.sharding @heads split_axes = [[0]] : !shard.sharding
  %wo_s = shard.shard %wo to %out_by_head : tensor<8x8x64xf32>
  %q = stablehlo.dot_general %x, %wq_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x8x8xf32>) -> tensor<16x8x8xf32>
  %k = stablehlo.dot_general %x, %wk_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x8x8xf32>) -> tensor<16x8x8xf32>
  %v = stablehlo.dot_general %x, %wv_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x8x8xf32>) -> tensor<16x8x8xf32>
  // scores[h, s, t] = q[s, h, :] . k[t, h, :] / sqrt(8)
  %qk = stablehlo.dot_general %q, %k, batching_dims = [1] x [1], contracting_dims = [2] x [2] : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<8x16x16xf32>
  %scale = stablehlo.constant dense<0.353553385> : tensor<8x16x16xf32>
  %scores = stablehlo.multiply %qk, %scale : tensor<8x16x16xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %max = stablehlo.reduce(%scores init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %max_b = stablehlo.broadcast_in_dim %max, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
  %shifted = stablehlo.subtract %scores, %max_b : tensor<8x16x16xf32>
  %e = stablehlo.exponential %shifted : tensor<8x16x16xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %sum_b = stablehlo.broadcast_in_dim %sum, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
  %p = stablehlo.divide %e, %sum_b : tensor<8x16x16xf32>
  // o[h, s, :] = sum_t p[h, s, t] v[t, h, :]
  %o = stablehlo.dot_general %p, %v, batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<8x16x16xf32>, tensor<16x8x8xf32>) -> tensor<8x16x8xf32>
  %y = stablehlo.dot_general %o, %wo_s, contracting_dims = [0, 2] x [0, 1] : (tensor<8x16x8xf32>, tensor<8x8x64xf32>) -> tensor<16x64xf32>
  %rep = shard.sharding @heads split_axes = [[]] : !shard.sharding
  %y_s = shard.shard %y to %rep annotate_for_users : tensor<16x64xf32>
  func.return %y_s : tensor<16x64xf32>
}
