// convert-shard-to-stablehlo{target=cpu} writes shard.broadcast as the masked
// all_reduce (booleans with an `or` body); detect-collective-broadcast{target=gpu}
// recovers exactly the collective_broadcast that target=gpu writes directly.
// RUN: xshard-opt %s -p 'convert-shard-to-stablehlo{target=cpu},detect-collective-broadcast{target=gpu}' | filecheck %s
// RUN: xshard-opt %s -p 'convert-shard-to-stablehlo{target=gpu}' | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @main
// CHECK-NOT:     stablehlo.all_reduce
// CHECK:         %[[A:.*]] = "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[2, 0, 1, 3], [6, 4, 5, 7]]> : tensor<2x4xi64>}>
// CHECK-NOT:     stablehlo.all_reduce
// CHECK:         %[[B:.*]] = "stablehlo.collective_broadcast"(%y) <{{{.*}}replica_groups = dense<{{\[}}[4, 0], [5, 1], [6, 2], [7, 3]]> : tensor<4x2xi64>}>
// CHECK-NOT:     stablehlo.all_reduce
// CHECK:         "stablehlo.collective_broadcast"(%x) <{{{.*}}replica_groups = dense<{{\[}}[6, 0, 1, 2, 3, 4, 5, 7]]> : tensor<1x8xi64>}>
func.func @main(%x: tensor<3xf32>, %y: tensor<3xi1>) -> (tensor<3xf32>, tensor<3xi1>, tensor<3xf32>) {
  %0 = shard.broadcast %x on @g grid_axes = [1] root = [2] : (tensor<3xf32>) -> tensor<3xf32>
  %1 = shard.broadcast %y on @g grid_axes = [0] root = [1] : (tensor<3xi1>) -> tensor<3xi1>
  %2 = shard.broadcast %x on @g grid_axes = [0, 1] root = [1, 2] : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<3xi1>, tensor<3xf32>
}
