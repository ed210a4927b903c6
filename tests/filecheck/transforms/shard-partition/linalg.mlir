// linalg payloads. Ops that read their DPS init (matmul, reduce, a reducing generic)
// with a partial result get the init on the first device of the partial axes only,
// chosen by scf.if on shard.process_multi_index (a neutral linalg.fill elsewhere), as
// upstream does; unlike upstream the result stays partial, and the collective comes
// where a user wants it settled. No scf.if when the init is a neutral fill or the kind
// is idempotent (max). Elementwise ops, tensor.empty and splat constants become local.
// RUN: xshard-opt %s -p 'sharding-propagation,shard-partition' | filecheck %s

shard.grid @g(shape = 4)
shard.grid @g2(shape = 2x2)

func.func @matmul_split_k(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8x4xf32>
  func.return %1 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @matmul_split_k(%a: tensor<8x4xf32>, %b: tensor<4x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    %0 = shard.process_multi_index on @g axes = [0] : index
// CHECK-NEXT:    %1 = arith.constant 0 : index
// CHECK-NEXT:    %2 = arith.cmpi eq, %0, %1 : index
// CHECK-NEXT:    %3 = scf.if %2 -> (tensor<8x4xf32>) {
// CHECK-NEXT:    scf.yield %c : tensor<8x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    %4 = tensor.empty() : tensor<8x4xf32>
// CHECK-NEXT:    %5 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %6 = linalg.fill ins(%5 : f32) outs(%4 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    scf.yield %6 : tensor<8x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %7 = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x4xf32>) outs(%3 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %8 = shard.all_reduce %7 on @g grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %8 : tensor<8x4xf32>

// A neutral fill as init needs no scf.if; the partial result is reduce-scattered for
// a user that wants it split (upstream: all_reduce, then all_slice).
func.func @matmul_zero_init(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %0 = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %1 = shard.shard %0 to %p : tensor<8x4xf32>
  %r = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %2 = shard.shard %1 to %r annotate_for_users : tensor<8x4xf32>
  func.return %2 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @matmul_zero_init(%a: tensor<8x4xf32>, %b: tensor<4x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    %0 = tensor.empty() : tensor<8x4xf32>
// CHECK-NEXT:    %z = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %1 = linalg.fill ins(%z : f32) outs(%0 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %2 = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x4xf32>) outs(%1 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %3 = shard.reduce_scatter %2 on @g grid_axes = [0] scatter_axis = 0 : tensor<8x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %3 : tensor<2x4xf32>

// max is idempotent: the init may enter on every device, so no scf.if.
func.func @reduce_max(%x: tensor<8x16xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %0 = linalg.reduce ins(%x1 : tensor<8x16xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
// CHECK-LABEL: func.func @reduce_max(%x: tensor<8x4xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %0 = linalg.reduce ins(%x:tensor<8x4xf32>) outs(%init:tensor<8xf32>) dimensions = [1]
// CHECK-NEXT:    (%in: f32, %acc: f32) {
// CHECK-NEXT:    %m = arith.maximumf %in, %acc : f32
// CHECK-NEXT:    linalg.yield %m : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = shard.all_reduce %0 on @g grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
// CHECK-NEXT:    func.return %1 : tensor<8xf32>

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Partial over two axes: the init stays on the device at (0, 0) of each group.
func.func @generic_sum_two_axes(%x: tensor<8x16xi32>, %init: tensor<8xi32>) -> tensor<8xi32> {
  %s = shard.sharding @g2 split_axes = [[], [0, 1]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xi32>
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x1 : tensor<8x16xi32>) outs(%init : tensor<8xi32>) {
    ^bb0(%in: i32, %acc: i32):
      %sum = arith.addi %in, %acc : i32
      linalg.yield %sum : i32
    } -> tensor<8xi32>
  %r = shard.sharding @g2 split_axes = [[]] : !shard.sharding
  %1 = shard.shard %0 to %r annotate_for_users : tensor<8xi32>
  func.return %1 : tensor<8xi32>
}
// CHECK-LABEL: func.func @generic_sum_two_axes(%x: tensor<8x4xi32>, %init: tensor<8xi32>) -> tensor<8xi32> {
// CHECK-NEXT:    %0:2 = shard.process_multi_index on @g2 axes = [0, 1] : index, index
// CHECK-NEXT:    %1 = arith.constant 0 : index
// CHECK-NEXT:    %2 = arith.cmpi eq, %0#0, %1 : index
// CHECK-NEXT:    %3 = arith.cmpi eq, %0#1, %1 : index
// CHECK-NEXT:    %4 = arith.andi %2, %3 : i1
// CHECK-NEXT:    %5 = scf.if %4 -> (tensor<8xi32>) {
// CHECK-NEXT:    scf.yield %init : tensor<8xi32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    %6 = tensor.empty() : tensor<8xi32>
// CHECK-NEXT:    %7 = arith.constant 0 : i32
// CHECK-NEXT:    %8 = linalg.fill ins(%7 : i32) outs(%6 : tensor<8xi32>) -> tensor<8xi32>
// CHECK-NEXT:    scf.yield %8 : tensor<8xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x4xi32>) outs(%5 : tensor<8xi32>) {
// CHECK-NEXT:    ^bb0(%in: i32, %acc: i32):
// CHECK-NEXT:    %sum = arith.addi %in, %acc : i32
// CHECK-NEXT:    linalg.yield %sum : i32
// CHECK-NEXT:    } -> tensor<8xi32>
// CHECK-NEXT:    %10 = shard.all_reduce %9 on @g2 grid_axes = [0, 1] : tensor<8xi32> -> tensor<8xi32>
// CHECK-NEXT:    func.return %10 : tensor<8xi32>

func.func @elementwise(%a: tensor<8x6xf32>, %b: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g2 split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %0 = linalg.add ins(%a1, %b : tensor<8x6xf32>, tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  func.return %0 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @elementwise(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4x3xf32>
// CHECK-NEXT:    %1 = linalg.add ins(%a, %b : tensor<4x3xf32>, tensor<4x3xf32>) outs(%0 : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %1 : tensor<4x3xf32>

func.func @constants() -> (tensor<8x6xf32>, tensor<2x4xi32>) {
  %c = arith.constant dense<1.5> : tensor<8x6xf32>
  %s = shard.sharding @g2 split_axes = [[0], [1]] : !shard.sharding
  %c1 = shard.shard %c to %s : tensor<8x6xf32>
  %d = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
  %t = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %d1 = shard.shard %d to %t : tensor<2x4xi32>
  func.return %c1, %d1 : tensor<8x6xf32>, tensor<2x4xi32>
}
// CHECK-LABEL: func.func @constants() -> (tensor<4x3xf32>, tensor<2x1xi32>) {
// CHECK-NEXT:    %0 = arith.constant dense<1.500000e+00> : tensor<4x3xf32>
// CHECK-NEXT:    %1 = arith.constant dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
// CHECK-NEXT:    %2 = shard.all_slice %1 on @g grid_axes = [0] slice_axis = 1 : tensor<2x4xi32> -> tensor<2x1xi32>
// CHECK-NEXT:    func.return %0, %2 : tensor<4x3xf32>, tensor<2x1xi32>

// A body reading a scalar defined outside keeps reading it (its local copy).
#ew = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_captures_scalar(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x6xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %0 = linalg.generic {indexing_maps = [#ew, #ew], iterator_types = ["parallel", "parallel"]}
      ins(%x1 : tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %z : f32
      linalg.yield %m : f32
    } -> tensor<8x6xf32>
  func.return %0 : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @generic_captures_scalar(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
// CHECK-NEXT:    %z = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %0 = tensor.empty() : tensor<2x6xf32>
// CHECK-NEXT:    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x6xf32>) outs(%0 : tensor<2x6xf32>) {
// CHECK-NEXT:    ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:    %m = arith.maximumf %in, %z : f32
// CHECK-NEXT:    linalg.yield %m : f32
// CHECK-NEXT:    } -> tensor<2x6xf32>
// CHECK-NEXT:    func.return %1 : tensor<2x6xf32>

// Annotated the upstream way (no partial shardings): the result says replicated while
// k is split, so the pass settles it right after the op, as 22.1.8 does.
func.func @upstream_style_annotations(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %a2 = shard.shard %a1 to %s annotate_for_users : tensor<8x16xf32>
  %t = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %b1 = shard.shard %b to %t : tensor<16x4xf32>
  %b2 = shard.shard %b1 to %t annotate_for_users : tensor<16x4xf32>
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %c1 = shard.shard %c to %r : tensor<8x4xf32>
  %c2 = shard.shard %c1 to %r annotate_for_users : tensor<8x4xf32>
  %0 = linalg.matmul ins(%a2, %b2 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = shard.shard %0 to %r : tensor<8x4xf32>
  %2 = shard.shard %1 to %r annotate_for_users : tensor<8x4xf32>
  func.return %2 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @upstream_style_annotations(%a: tensor<8x4xf32>, %b: tensor<4x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    %0 = shard.process_multi_index on @g axes = [0] : index
// CHECK-NEXT:    %1 = arith.constant 0 : index
// CHECK-NEXT:    %2 = arith.cmpi eq, %0, %1 : index
// CHECK-NEXT:    %3 = scf.if %2 -> (tensor<8x4xf32>) {
// CHECK-NEXT:    scf.yield %c : tensor<8x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    %4 = tensor.empty() : tensor<8x4xf32>
// CHECK-NEXT:    %5 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %6 = linalg.fill ins(%5 : f32) outs(%4 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    scf.yield %6 : tensor<8x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %7 = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x4xf32>) outs(%3 : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %8 = shard.all_reduce %7 on @g grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %8 : tensor<8x4xf32>
