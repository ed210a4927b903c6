// The module for XLA's partition mode: the grid and the unused sharding go, the
// partition count (the grid's 8 devices) and one replica go on the module, the only
// function becomes @main with {manual} on its argument (beside the attribute it had)
// and result; the tensor constant becomes a stablehlo.constant, the unused index
// constant goes. A module without grids is left alone.
// RUN: xshard-opt %s -p finalize-partition-mode --split-input-file | filecheck %s

// CHECK:      builtin.module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   func.func @main(%x: tensor<3xf32> {test.kept, mhlo.sharding = "{manual}"}) -> (tensor<3xf32> {mhlo.sharding = "{manual}"}) {
// CHECK-NEXT:     %[[ONES:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT:     %[[Y:.*]] = stablehlo.add %x, %[[ONES]] : tensor<3xf32>
// CHECK-NEXT:     func.return %[[Y]] : tensor<3xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
shard.grid @g(shape = 2x4)
func.func @step(%x: tensor<3xf32> {test.kept}) -> tensor<3xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %c = arith.constant 2 : index
  %ones = arith.constant dense<1.0> : tensor<3xf32>
  %0 = stablehlo.add %x, %ones : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @step(%x: tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:     %{{.*}} = arith.constant dense<1.000000e+00> : tensor<3xf32>
func.func @step(%x: tensor<3xf32>) -> tensor<3xf32> {
  %ones = arith.constant dense<1.0> : tensor<3xf32>
  %0 = stablehlo.add %x, %ones : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
