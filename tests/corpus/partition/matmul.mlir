// linalg contractions and reductions in the style of upstream's partition.mlir and
// Linalg/shard-partition.mlir: a split parallel loop, a split reduction loop whose
// result is used replicated or split (or not annotated), reductions to 1-D and 0-d,
// a 2-D grid, and the 1-D weight-stationary MLP.
shard.grid @g4(shape = 4)
shard.grid @g2x2(shape = 2x2)

func.func @split_m(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @split_n(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %b1 = shard.shard %b to %s : tensor<16x8xf32>
  %0 = linalg.matmul ins(%a, %b1 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func @split_k_used_replicated(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x4xf32>
  %2 = tosa.tanh %1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

func.func @split_k_used_split(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

func.func @split_k_then_split_rows(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %a2 = shard.shard %a1 to %s annotate_for_users : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a2, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

func.func @split_k_returned(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @split_m_and_k(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = shard.sharding @g2x2 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

func.func @reduce_kept_dim_split(%x: tensor<8x16xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %0 = linalg.reduce ins(%x1 : tensor<8x16xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<8xf32>
}

func.func @reduce_to_scalar(%x: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8xf32>
  %0 = linalg.reduce ins(%x1 : tensor<8xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %1 = arith.maximumf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<f32>
}

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp_1d_weight_stationary(%x: tensor<4x8xf32>, %w1: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x8xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<4x8xf32>
  %w11 = shard.shard %w1 to %s : tensor<8x32xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x32xf32>
  %c1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%x1, %w11 : tensor<4x8xf32>, tensor<8x32xf32>) outs(%c1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<4x32xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x32xf32>) outs(%e2 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %t = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %w21 = shard.shard %w2 to %t : tensor<32x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %c3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%relu, %w21 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%c3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y1 = shard.shard %y to %s : tensor<4x8xf32>
  return %y1 : tensor<4x8xf32>
}
