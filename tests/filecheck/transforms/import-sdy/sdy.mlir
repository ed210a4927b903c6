// RUN: xshard-opt %s --split-input-file -p import-sdy | filecheck %s

// jax.jit(mlp, in_shardings=(P("data"), P(None, "model")), out_shardings=P()) as JAX 0.10
// prints it, with two constraints (one open in a dim, which the annotation lists in
// xshard.open_dims; one open in every dim, which goes): the mesh becomes a grid, the
// arguments' shardings their layouts, the result's and the constraints' annotations
// for their users; jax.result_info and the module's attributes stay.
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"data"}, {"model", ?}]> : tensor<8x32xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {?}]> : tensor<8x32xf32>
    %3 = stablehlo.tanh %2 : tensor<8x32xf32>
    return %3 : tensor<8x32xf32>
  }
}
// CHECK:      builtin.module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   shard.grid @mesh(shape = 2x4)
// CHECK-NEXT:   func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<8x32xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:     %0 = shard.sharding @mesh split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:     %1 = shard.shard %arg0 to %0 : tensor<8x16xf32>
// CHECK-NEXT:     %2 = shard.sharding @mesh split_axes = {{\[\[}}], [1]] : !shard.sharding
// CHECK-NEXT:     %3 = shard.shard %arg1 to %2 : tensor<16x32xf32>
// CHECK-NEXT:     %4 = stablehlo.dot_general %1, %3
// CHECK-NEXT:     %5 = shard.sharding @mesh split_axes = {{\[\[}}0], [1]] : !shard.sharding
// CHECK-NEXT:     %6 = shard.shard %4 to %5 annotate_for_users {xshard.open_dims = array<i64: 1>} : tensor<8x32xf32>
// CHECK-NEXT:     %7 = stablehlo.tanh %6 : tensor<8x32xf32>
// CHECK-NEXT:     %8 = shard.sharding @mesh split_axes = {{\[\[}}]] : !shard.sharding
// CHECK-NEXT:     %9 = shard.shard %7 to %8 annotate_for_users : tensor<8x32xf32>
// CHECK-NEXT:     func.return %9 : tensor<8x32xf32>

// -----

// Several axes on one dim (major to minor), unreduced axes (partial sums), replicated
// axes and priorities (nothing), and an op's own sharding (a result annotation).
sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>
func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", "x"}p0, {}], replicated={"y"}>}, %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}], unreduced={"x", "z"}>}) -> tensor<8x4xf32> {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @main(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    %0 = shard.sharding @m split_axes = {{\[\[}}2, 0]] : !shard.sharding
// CHECK-NEXT:    %1 = shard.shard %a to %0 : tensor<8x4xf32>
// CHECK-NEXT:    %2 = shard.sharding @m split_axes = {{\[\[}}], [1]] partial = sum [0, 2] : !shard.sharding
// CHECK-NEXT:    %3 = shard.shard %b to %2 : tensor<8x4xf32>
// CHECK-NEXT:    %4 = stablehlo.add %1, %3 : tensor<8x4xf32>
// CHECK-NEXT:    %5 = shard.sharding @m split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:    %6 = shard.shard %4 to %5 : tensor<8x4xf32>
// CHECK-NEXT:    func.return %6 : tensor<8x4xf32>

// -----

// Nothing to import: the module is left as it is.
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
// CHECK-LABEL: func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    func.return %a : tensor<8xf32>

// -----

// A scalar whose sharding jax.jit leaves unspecified (a Python float, a learning rate)
// is laid out on Shardy's placeholder mesh `<[]>`: it says nothing, so the argument gets
// no annotation and the placeholder goes.
sdy.mesh @mesh = <["data"=2]>
sdy.mesh @empty_mesh = <[]>
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, %s: tensor<f32> {sdy.sharding = #sdy.sharding<@empty_mesh, []>}) -> tensor<8xf32> {
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.multiply %x, %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
// CHECK-LABEL: shard.grid @mesh(shape = 2)
// CHECK-NOT:   @empty_mesh
// CHECK:       func.func @main(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf32> {
// CHECK-NEXT:    %0 = shard.sharding @mesh split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:    %1 = shard.shard %x to %0 : tensor<8xf32>
// CHECK-NEXT:    %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
