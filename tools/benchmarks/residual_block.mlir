// Residual block, y = x @ a + x @ b, as tools/xla_comm_report.py's `residual_block`:
// x split by columns, a and b by rows, so each product is a partial sum over the
// grid and the two partial sums meet at the add; y replicated, on a 1-D grid of 8.
shard.grid @m(shape = 8)

func.func @main(%x: tensor<16x32xf32>, %a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %col = shard.sharding @m split_axes = [[], [0]] : !shard.sharding
  %row = shard.sharding @m split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @m split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %col : tensor<16x32xf32>
  %a_s = shard.shard %a to %row : tensor<32x32xf32>
  %b_s = shard.shard %b to %row : tensor<32x32xf32>
  %xa = stablehlo.dot_general %x_s, %a_s, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %xb = stablehlo.dot_general %x_s, %b_s, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %y = stablehlo.add %xa, %xb : tensor<16x32xf32>
  %y_s = shard.shard %y to %rep annotate_for_users : tensor<16x32xf32>
  func.return %y_s : tensor<16x32xf32>
}
