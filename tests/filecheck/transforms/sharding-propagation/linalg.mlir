// RUN: xshard-opt %s -p 'sharding-propagation{traversal=forward}' | filecheck %s --check-prefix=FWD
// RUN: xshard-opt %s -p 'sharding-propagation{traversal=backward}' | filecheck %s --check-prefix=BWD
// RUN: xshard-opt %s -p sharding-propagation | filecheck %s --check-prefix=BOTH

// linalg, arith and tensor payload ops, in the style of upstream's Shard
// propagation tests: each function is checked under the traversal it is
// written for (FWD, BWD, or BOTH for the default backward-forward).

shard.grid @g(shape = 2x2)

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// fill -> elementwise generic -> reduce of every dim: the inits take their
// result's sharding and the 0-d result is partial over both axes.
// FWD-LABEL: func.func @fill_generic_reduce
// FWD:         %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// FWD:         shard.shard %a to %{{.*}} annotate_for_users
// FWD-NEXT:    %[[SF:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]]
// FWD-NEXT:    %[[F:.*]] = shard.shard %f to %[[SF]] annotate_for_users
// FWD-NEXT:    %[[SE:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]]
// FWD-NEXT:    %[[EU:.*]] = shard.shard %[[E]] to %[[SE]] annotate_for_users
// FWD-NEXT:    linalg.generic {{.*}} ins(%{{.*}}, %[[F]] : {{.*}}) outs(%[[EU]] : tensor<8x16xf32>)
// FWD:         %[[SG:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]]
// FWD-NEXT:    shard.shard %g to %[[SG]] : tensor<8x16xf32>
// FWD:         linalg.reduce
// FWD:         %[[SR:.*]] = shard.sharding @g split_axes = {{.*}} partial = sum [0, 1]
// FWD-NEXT:    shard.shard %r to %[[SR]] : tensor<f32>
func.func @fill_generic_reduce(%x: tensor<8x16xf32>) -> tensor<f32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %f : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %z = tensor.empty() : tensor<f32>
  %r = linalg.reduce ins(%g : tensor<8x16xf32>) outs(%z : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %init: f32) {
      %s2 = arith.addf %in, %init : f32
      linalg.yield %s2 : f32
    }
  return %r : tensor<f32>
}

// A result sharding reaches the fill through the generic's init, and the
// empty tensor through the fill's.
// BWD-LABEL: func.func @backward_fill
// BWD:         %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// BWD-NEXT:    %[[SE:.*]] = shard.sharding @g split_axes = {{\[\[}}1], [0]]
// BWD-NEXT:    shard.shard %[[E]] to %[[SE]] : tensor<8x16xf32>
// BWD:         %[[F:.*]] = linalg.fill
// BWD-NEXT:    %[[SF:.*]] = shard.sharding @g split_axes = {{\[\[}}1], [0]]
// BWD-NEXT:    shard.shard %[[F]] to %[[SF]] : tensor<8x16xf32>
func.func @backward_fill(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%f : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %r = shard.shard %g to %s : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A split contracting dim leaves the matmul partial; linalg.mul by a split,
// non-partial operand keeps it partial; exp takes it reduced.
// FWD-LABEL: func.func @matmul_split_k
// FWD-SAME:    %[[B:[a-z0-9_]+]]: tensor<16x4xf32>
// FWD-DAG:     %[[SB:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// FWD-DAG:     shard.shard %[[B]] to %[[SB]] : tensor<16x4xf32>
// FWD:         linalg.matmul
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1]
// FWD:         linalg.mul
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0]] partial = sum [1]
// FWD-NEXT:    shard.shard
// FWD-NEXT:    shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// FWD-NEXT:    shard.shard {{.*}} annotate_for_users
// FWD:         linalg.exp
func.func @matmul_split_k(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %scale: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.mul ins(%m, %scale : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = linalg.exp ins(%y : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// The reduction kind comes from the combiner in the body.
// FWD-LABEL: func.func @generic_max_reduction
// FWD:         linalg.generic
// FWD:         shard.sharding @g split_axes = {{\[\[}}0]] partial = max [1]
func.func @generic_max_reduction(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %z = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x16xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// A combiner with no reduction kind (subtraction) keeps its reduced dim whole:
// the split input is gathered on dim 1.
// BOTH-LABEL: func.func @generic_unknown_combiner
// BOTH:         shard.shard %z to
// BOTH-NEXT:    %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// BOTH-NEXT:    shard.shard %a to %[[S]] annotate_for_users : tensor<8x16xf32>
// BOTH:         linalg.generic
func.func @generic_unknown_combiner(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %z = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x16xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.subf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %sr = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r1 = shard.shard %r to %sr : tensor<8xf32>
  return %r1 : tensor<8xf32>
}

// A loop read through linalg.index is never split, even when the result asks.
// BOTH-LABEL: func.func @generic_index
// BOTH:         shard.shard %e to
// BOTH-NEXT:    %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// BOTH-NEXT:    shard.shard %a to %[[S]] annotate_for_users : tensor<8x16xi64>
// BOTH:         linalg.generic
// BOTH:         %[[SR:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// BOTH-NEXT:    shard.shard %r to %[[SR]] : tensor<8x16xi64>
func.func @generic_index(%x: tensor<8x16xi64>) -> tensor<8x16xi64> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xi64>
  %e = tensor.empty() : tensor<8x16xi64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xi64>) outs(%e : tensor<8x16xi64>) {
  ^bb0(%in: i64, %out: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    %m = arith.addi %in, %c : i64
    linalg.yield %m : i64
  } -> tensor<8x16xi64>
  %sr = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %r1 = shard.shard %r to %sr : tensor<8x16xi64>
  return %r1 : tensor<8x16xi64>
}

// transpose permutes the split dims; broadcast drops the added one.
// BWD-LABEL: func.func @transpose_broadcast
// BWD-SAME:    (%[[X:[a-z0-9_]+]]: tensor<8x16xf32>, %[[V:[a-z0-9_]+]]: tensor<16xf32>)
// BWD-DAG:     %[[SV:.*]] = shard.sharding @g split_axes = {{\[\[}}1]] : !shard.sharding
// BWD-DAG:     shard.shard %[[V]] to %[[SV]] : tensor<16xf32>
// BWD-DAG:     %[[SX:.*]] = shard.sharding @g split_axes = {{\[\[}}0], [1]] : !shard.sharding
// BWD-DAG:     shard.shard %[[X]] to %[[SX]] : tensor<8x16xf32>
func.func @transpose_broadcast(%x: tensor<8x16xf32>, %v: tensor<16xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  %b = linalg.broadcast ins(%v : tensor<16xf32>) outs(%e : tensor<16x8xf32>) dimensions = [1]
  %sum = linalg.add ins(%t, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %r = shard.shard %sum to %s : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// tensor.splat and tensor.empty take the sharding their user wants.
// BOTH-LABEL: func.func @creation_ops
// BOTH:         %[[SP:.*]] = tensor.splat
// BOTH-NEXT:    %[[S1:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// BOTH-NEXT:    shard.shard %[[SP]] to %[[S1]] : tensor<8x16xf32>
// BOTH:         %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// BOTH-NEXT:    %[[S2:.*]] = shard.sharding @g split_axes = {{\[\[}}], [1]] : !shard.sharding
// BOTH-NEXT:    shard.shard %[[E]] to %[[S2]] : tensor<8x16xf32>
func.func @creation_ops(%x: tensor<8x16xf32>, %c: f32) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %sp = tensor.splat %c : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.add ins(%a, %sp : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
