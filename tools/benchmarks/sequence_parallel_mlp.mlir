// Sequence-parallel MLP, y = relu(x @ w1) @ w2, as tools/xla_comm_report.py's
// `sequence_parallel_mlp`: x and y split along the sequence (dim 0), w1 split by
// columns, w2 by rows, on a 1-D grid of 8.
// Annotated as a jax.jit user annotates it: arguments and result, nothing inside.
// Propagation (xshard-spmd's default, strategy=aggressive) keeps the weights split,
// which makes x all-gathered and y a partial sum; shard-partition writes
// all_gather(x) and, for y, all_reduce + all_slice (XLA's all-gather + all-reduce
// + dynamic-slice), which shard-simplify fuses into one reduce_scatter.
shard.grid @m(shape = 8)

func.func @main(%x: tensor<16x32xf32>, %w1: tensor<32x64xf32>, %w2: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %seq = shard.sharding @m split_axes = [[0]] : !shard.sharding
  %col = shard.sharding @m split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %seq : tensor<16x32xf32>
  %w1_s = shard.shard %w1 to %col : tensor<32x64xf32>
  %w2_s = shard.shard %w2 to %seq : tensor<64x32xf32>
  %h = stablehlo.dot_general %x_s, %w1_s, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<16x64xf32>
  %a = stablehlo.maximum %h, %zero : tensor<16x64xf32>
  %y = stablehlo.dot_general %a, %w2_s, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  %y_s = shard.shard %y to %seq annotate_for_users : tensor<16x32xf32>
  func.return %y_s : tensor<16x32xf32>
}
