// Traversals: backward-forward, forward, backward
// linalg.matmul in the style of upstream's sharding-propagation.mlir: split m, n
// or k from a definition or a use, conflicting annotations that need reshards,
// and the 1-D and 2-D weight-stationary MLPs of the GSPMD paper (arXiv 2211.05102).
#id = affine_map<(d0, d1) -> (d0, d1)>
shard.grid @g2(shape = 2)
shard.grid @g2x4(shape = 2x4)

func.func @split_m_from_use(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g2x4 split_axes = [[0, 1]] : !shard.sharding
  %a1 = shard.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @split_m_n_from_def(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = shard.sharding @g2x4 split_axes = [[1], [0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

func.func @split_m_k_from_input(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g2x4 split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @k_on_two_axes(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %sa = shard.sharding @g2x4 split_axes = [[], [1, 0]] : !shard.sharding
  %a1 = shard.shard %a to %sa annotate_for_users : tensor<8x16xf32>
  %sb = shard.sharding @g2x4 split_axes = [[1, 0]] : !shard.sharding
  %b1 = shard.shard %b to %sb annotate_for_users : tensor<16x4xf32>
  %0 = linalg.matmul ins(%a1, %b1 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @conflict_input_and_result(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %s0 = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s0 : tensor<2x3xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  %s1 = shard.sharding @g2 split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %s1 : tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

func.func @conflict_two_uses(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s0 annotate_for_users : tensor<8x8xf32>
  %s1 = shard.sharding @g2 split_axes = [[], [0]] : !shard.sharding
  %b1 = shard.shard %b to %s1 annotate_for_users : tensor<8x8xf32>
  %0 = linalg.matmul ins(%a1, %b1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func @mlp_1d_weight_stationary(%x: tensor<4x8xf32>, %w1: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x8xf32> {
  %sx = shard.sharding @g2 split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %sx : tensor<4x8xf32>
  %w1s = shard.shard %w1 to %sx : tensor<8x32xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<4x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%x1, %w1s : tensor<4x8xf32>, tensor<8x32xf32>) outs(%f0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %e1 = tensor.empty() : tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %sw2 = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %w2s = shard.shard %w2 to %sw2 : tensor<32x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%r, %w2s : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y1 = shard.shard %y to %sx : tensor<4x8xf32>
  return %y1 : tensor<4x8xf32>
}

func.func @mlp_2d_weight_stationary(%x: tensor<4x8xf32>, %w1: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x8xf32> {
  %sx = shard.sharding @g2x4 split_axes = [[], [0, 1]] : !shard.sharding
  %x1 = shard.shard %x to %sx : tensor<4x8xf32>
  %sw1 = shard.sharding @g2x4 split_axes = [[0], [1]] : !shard.sharding
  %w1s = shard.shard %w1 to %sw1 : tensor<8x32xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<4x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%x1, %w1s : tensor<4x8xf32>, tensor<8x32xf32>) outs(%f0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %e1 = tensor.empty() : tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %sw2 = shard.sharding @g2x4 split_axes = [[1], [0]] : !shard.sharding
  %w2s = shard.shard %w2 to %sw2 : tensor<32x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%r, %w2s : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y1 = shard.shard %y to %sx : tensor<4x8xf32>
  return %y1 : tensor<4x8xf32>
}
