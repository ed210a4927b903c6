// A root given as an SSA value is compared at run time on target=cpu (on GPUs,
// collective_broadcast needs it static: invalid.mlir). Here row i broadcasts from
// its column i, the same root across each group as SPMD requires; a root from an
// index constant becomes a StableHLO constant and the arith.constant goes. (The
// module's only function is its entry: it is renamed @main, as XLA wants.)
// RUN: xshard-opt %s -p convert-shard-to-stablehlo | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @main
// CHECK:       %[[ID:.*]] = stablehlo.convert
// CHECK-NEXT:  %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[ROW:.*]] = stablehlo.divide %[[ID]], %[[C4]] : tensor<i64>
// CHECK-NEXT:  %[[C4B:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[C4B]] : tensor<i64>
// CHECK-NEXT:  %[[IS:.*]] = stablehlo.compare EQ, %[[COL]], %[[ROW]], SIGNED
// CHECK-NEXT:  %[[Z:.*]] = stablehlo.constant
// CHECK-NEXT:  %[[M:.*]] = stablehlo.select %[[IS]], %x, %[[Z]]
// CHECK-NEXT:  %[[B0:.*]] = "stablehlo.all_reduce"(%[[M]]) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]>
// CHECK:       %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK:       stablehlo.compare EQ, %{{.*}}, %[[ONE]], SIGNED
// CHECK-NOT:   arith.constant
// CHECK:       func.return
func.func @broadcast_dynamic_root(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %row = shard.process_multi_index on @g axes = [0] : index
  %0 = shard.broadcast %x on @g grid_axes = [1] root = [%row] : (tensor<3xf32>, index) -> tensor<3xf32>
  %c1 = arith.constant 1 : index
  %1 = shard.broadcast %x on @g grid_axes = [1] root = [%c1] : (tensor<3xf32>, index) -> tensor<3xf32>
  func.return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
