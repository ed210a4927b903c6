// Traversals: backward-forward, forward-backward
// tosa.matmul (batch, m, n, then k) with its zero points, in the style of
// upstream's sharding-propagation.mlir: batch and m from a use, m and n from a
// definition, m and k from an input, and the paper's 1-D weight-stationary MLP
// with a sigmoid in between.
shard.grid @g2x2(shape = 2x2)
shard.grid @g4(shape = 4)

func.func @batch_and_m_from_def(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>, %zp: tensor<1xf32>) -> tensor<2x16x32xf32> {
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<2x16x32xf32>
  return %1 : tensor<2x16x32xf32>
}

func.func @m_and_n_from_use(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>, %zp: tensor<1xf32>) -> tensor<2x16x32xf32> {
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  %s = shard.sharding @g2x2 split_axes = [[], [1], [0]] : !shard.sharding
  %1 = shard.shard %0 to %s annotate_for_users : tensor<2x16x32xf32>
  %2 = tosa.tanh %1 : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %2 : tensor<2x16x32xf32>
}

func.func @m_and_k_from_input(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>, %zp: tensor<1xf32>) -> tensor<2x16x32xf32> {
  %s = shard.sharding @g2x2 split_axes = [[], [0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<2x16x8xf32>
  %0 = tosa.matmul %a1, %b, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  return %0 : tensor<2x16x32xf32>
}

func.func @mlp_1d_weight_stationary(%x: tensor<2x4x8xf32>, %w1: tensor<2x8x32xf32>, %w2: tensor<2x32x8xf32>, %zp: tensor<1xf32>) -> tensor<2x4x8xf32> {
  %s = shard.sharding @g4 split_axes = [[], [], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<2x4x8xf32>
  %w1s = shard.shard %w1 to %s : tensor<2x8x32xf32>
  %0 = tosa.matmul %x1, %w1s, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x32xf32>
  %1 = tosa.sigmoid %0 : (tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %sw2 = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %w2s = shard.shard %w2 to %sw2 : tensor<2x32x8xf32>
  %2 = tosa.matmul %1, %w2s, %zp, %zp : (tensor<2x4x32xf32>, tensor<2x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  %3 = shard.shard %2 to %s : tensor<2x4x8xf32>
  return %3 : tensor<2x4x8xf32>
}
