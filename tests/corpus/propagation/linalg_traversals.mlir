// Traversals: forward, backward, forward-backward, backward-forward
// linalg.fill / generic / reduce with tensor.empty inits and arith constants, in
// the style of upstream's forward-, backward- and forward-backward-sharding-
// propagation tests: one annotation must reach every value in the given sweeps.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
shard.grid @g4(shape = 4)
shard.grid @g2x2(shape = 2x2)

func.func @fill_generic_reduce(%x: tensor<8x12xf32>) -> (tensor<8x12xf32>, tensor<8xf32>) {
  %one = arith.constant 1.000000e+00 : f32
  %e0 = tensor.empty() : tensor<8x12xf32>
  %0 = linalg.fill ins(%one : f32) outs(%e0 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x12xf32>
  %e1 = tensor.empty() : tensor<8x12xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%1, %x : tensor<8x12xf32>, tensor<8x12xf32>) outs(%e1 : tensor<8x12xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x12xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<8xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %4 = linalg.reduce ins(%2 : tensor<8x12xf32>) outs(%3 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %2, %4 : tensor<8x12xf32>, tensor<8xf32>
}

func.func @fill_from_result(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %unused = tensor.empty() : tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<8x12xf32>
  %0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x12xf32>) outs(%0 : tensor<8x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8x12xf32>
  %s = shard.sharding @g2x2 split_axes = [[1], [0]] : !shard.sharding
  %2 = shard.shard %1 to %s : tensor<8x12xf32>
  return %2 : tensor<8x12xf32>
}

func.func @rows_meet_columns(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.fill ins(%one : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s0 = shard.sharding @g2x2 split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s0 : tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]} ins(%1, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s1 = shard.sharding @g2x2 split_axes = [[], [1]] : !shard.sharding
  %3 = shard.shard %2 to %s1 annotate_for_users : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

func.func @reduce_split_rows(%x: tensor<8x12xf32>) -> tensor<12xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8x12xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<12xf32>
  %1 = linalg.fill ins(%zero : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %2 = linalg.reduce ins(%0 : tensor<8x12xf32>) outs(%1 : tensor<12xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %2 : tensor<12xf32>
}

func.func @full_reduce(%x: tensor<8x12xf32>) -> tensor<f32> {
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %x to %s annotate_for_users : tensor<8x12xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<f32>
  %1 = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %2 = linalg.reduce ins(%0 : tensor<8x12xf32>) outs(%1 : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %2 : tensor<f32>
}

func.func @row_broadcast(%x: tensor<8x12xf32>, %b: tensor<8xf32>) -> tensor<8x12xf32> {
  %e = tensor.empty() : tensor<8x12xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<8x12xf32>, tensor<8xf32>) outs(%e : tensor<8x12xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.subf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x12xf32>
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x12xf32>
  return %1 : tensor<8x12xf32>
}
