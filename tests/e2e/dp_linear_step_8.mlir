// One data-parallel SGD step of a linear model on a 1-D grid of 8, written by hand:
//   loss(w) = sum_b (x[b] . w - y[b])^2 / B,   grad = 2/B * x^T (x w - y),
//   w' = w - 0.1 * grad.
// The batch (64 rows of x and of y) is split in 8, w is replicated. Predictions and
// residuals are per row, so local; the gradient contracts over the split batch dim,
// so each device holds a partial sum of it, and the update needs its true value.
// Analytic minimum: 1 all_reduce of the gradient, 32*4 = 128 bytes.
shard.grid @dp(shape = 8)

func.func @main(%x: tensor<64x32xf32>, %y: tensor<64xf32>, %w: tensor<32xf32>) -> tensor<32xf32> {
  %batch = shard.sharding @dp split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %batch : tensor<64x32xf32>
  %y_s = shard.shard %y to %batch : tensor<64xf32>
  %rep = shard.sharding @dp split_axes = [[]] : !shard.sharding
  %w_s = shard.shard %w to %rep : tensor<32xf32>
  %pred = stablehlo.dot_general %x_s, %w_s, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64xf32>
  %r = stablehlo.subtract %pred, %y_s : tensor<64xf32>
  // d loss / d pred = 2/B * r
  %two_over_b = stablehlo.constant dense<3.125000e-02> : tensor<64xf32>
  %dpred = stablehlo.multiply %r, %two_over_b : tensor<64xf32>
  %grad = stablehlo.dot_general %x_s, %dpred, contracting_dims = [0] x [0] : (tensor<64x32xf32>, tensor<64xf32>) -> tensor<32xf32>
  %lr = stablehlo.constant dense<1.000000e-01> : tensor<32xf32>
  %step = stablehlo.multiply %grad, %lr : tensor<32xf32>
  %w_new = stablehlo.subtract %w_s, %step : tensor<32xf32>
  %w_out = shard.shard %w_new to %rep annotate_for_users : tensor<32xf32>
  func.return %w_out : tensor<32xf32>
}
