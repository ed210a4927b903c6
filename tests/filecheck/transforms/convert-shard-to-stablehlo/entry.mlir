// The module is set up for XLA's partition mode (jax-xla.md §3): the partition count
// of the grid and one replica on the module; {manual} shardings on every argument and
// result of the entry function @main (kept with the attributes already there), and
// on no other function. A module without grids is left alone.
// RUN: xshard-opt %s -p convert-shard-to-stablehlo --split-input-file | filecheck %s

shard.grid @g(shape = 4)
func.func @main(%x: tensor<2xf32> {my.note = 1 : i32}, %y: tensor<2xf32>) -> (tensor<8xf32>, tensor<2xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  %1 = func.call @helper(%y) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0, %1 : tensor<8xf32>, tensor<2xf32>
}
func.func @helper(%y: tensor<2xf32>) -> tensor<2xf32> {
  func.return %y : tensor<2xf32>
}
// CHECK:      builtin.module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   func.func @main(%x: tensor<2xf32> {my.note = 1 : i32, mhlo.sharding = "{manual}"}, %y: tensor<2xf32> {mhlo.sharding = "{manual}"}) -> (tensor<8xf32> {mhlo.sharding = "{manual}"}, tensor<2xf32> {mhlo.sharding = "{manual}"}) {
// CHECK:        func.func @helper(%y: tensor<2xf32>) -> tensor<2xf32> {

// -----

// The only function of a module is its entry, renamed @main (the name XLA runs).
shard.grid @g(shape = 2x2)
func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<2xf32> -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK:      builtin.module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   func.func @main(%x: tensor<2xf32> {mhlo.sharding = "{manual}"}) -> (tensor<2xf32> {mhlo.sharding = "{manual}"}) {
// CHECK:        replica_groups = dense<{{\[}}[0, 1], [2, 3]]> : tensor<2x2xi64>

// -----

func.func @no_grid(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @no_grid(%x: tensor<2xf32>) -> tensor<2xf32> {
