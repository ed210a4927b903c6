// RUN: xshard-opt %s -p canonicalize | filecheck %s

// canonicalize makes equal constants of a block one before xDSL's patterns and folders
// run, as MLIR's canonicalizer does; the shard ops reading them then merge. Constants
// in another block, or differing in value or type, stay apart.

shard.grid @g(shape = 2)

// CHECK-LABEL: func.func @merged
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] : !shard.sharding
// CHECK-NEXT:    %[[A:.*]] = shard.shard %[[C]] to %[[S]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[A]], %[[A]] : tensor<4xf32>, tensor<4xf32>
func.func @merged() -> (tensor<4xf32>, tensor<4xf32>) {
  %c1 = arith.constant dense<1.0> : tensor<4xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a = shard.shard %c1 to %s : tensor<4xf32>
  %c2 = arith.constant dense<1.0> : tensor<4xf32>
  %b = shard.shard %c2 to %s : tensor<4xf32>
  func.return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @kept_apart
// CHECK-NEXT:    %{{.*}} = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant dense<1.000000e+00> : tensor<4xf64>
func.func @kept_apart() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) {
  %c1 = arith.constant dense<1.0> : tensor<4xf32>
  %c2 = arith.constant dense<2.0> : tensor<4xf32>
  %c3 = arith.constant dense<1.0> : tensor<4xf64>
  func.return %c1, %c2, %c3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf64>
}
