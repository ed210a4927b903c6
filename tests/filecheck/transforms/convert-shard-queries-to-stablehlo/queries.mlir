// Process queries become partition_id arithmetic on tensor<i64> (read once, at the top
// of the function), grid_shape a constant, and scalar arith on them StableHLO on
// rank-0 tensors; an arith.select of tensors on such a predicate is a
// stablehlo.select. The shard op still taking a derived index (a dynamic root) reads
// it through an unrealized_conversion_cast, which the broadcast's lowering looks
// through; a returned index becomes a tensor<i64> result. Collectives, tensor and
// unused constants are left to the later export passes.
// RUN: xshard-opt %s -p convert-shard-queries-to-stablehlo | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @queries(%x: tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>)
// CHECK-NEXT:    %[[PID:.*]] = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT:    %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:    %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %[[ROW:.*]] = stablehlo.divide %[[ID]], %[[C4]] : tensor<i64>
// CHECK-NEXT:    %[[C4B:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[C4B]] : tensor<i64>
// CHECK-NEXT:    %[[ROOT:.*]] = builtin.unrealized_conversion_cast %[[ROW]] : tensor<i64> to index
// CHECK-NEXT:    %[[N:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[LAST:.*]] = stablehlo.subtract %[[N]], %[[ONE]] : tensor<i64>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.compare EQ, %[[COL]], %[[LAST]], SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.select %[[P]], %x, %[[Z]] : tensor<i1>, tensor<3xf32>
// CHECK-NEXT:    %[[B:.*]] = shard.broadcast %[[M]] on @g grid_axes = [1] root = [%[[ROOT]]]
// CHECK-NEXT:    func.return %[[ROW]], %[[B]] : tensor<i64>, tensor<3xf32>
func.func @queries(%x: tensor<3xf32>) -> (index, tensor<3xf32>) {
  %row, %col = shard.process_multi_index on @g : index, index
  %n = shard.grid_shape @g axes = [1] : index
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  %p = arith.cmpi eq, %col, %last : index
  %zeros = arith.constant dense<0.0> : tensor<3xf32>
  %masked = arith.select %p, %x, %zeros : tensor<3xf32>
  %b = shard.broadcast %masked on @g grid_axes = [1] root = [%row] : (tensor<3xf32>, index) -> tensor<3xf32>
  func.return %row, %b : index, tensor<3xf32>
}
