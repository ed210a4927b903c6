// Broadcasts become masked all_reduces, which XLA:CPU runs. shard.broadcast: the
// device whose in-group index (partition_id % 4 on axis 1) equals the root keeps its
// value, the others contribute zeros; scatter is that, then this device's block.
// stablehlo.collective_broadcast: the sources (first id of each group, here 3, 0, 5
// and 6) come from a table read at partition_id; i1 values combine with `or`.
// RUN: xshard-opt %s -p convert-broadcast-to-all-reduce | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @broadcasts
// CHECK-NEXT:    %[[PID:.*]] = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT:    %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:    %[[ROOT:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[C4]] : tensor<i64>
// CHECK-NEXT:    %[[IS:.*]] = stablehlo.compare EQ, %[[COL]], %[[ROOT]], SIGNED
// CHECK-NEXT:    %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4x2xf32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.select %[[IS]], %x, %[[Z]] : tensor<i1>, tensor<4x2xf32>
// CHECK-NEXT:    %[[B:.*]] = "stablehlo.all_reduce"(%[[M]]) <{{{.*}}replica_groups = dense<{{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}>
// CHECK:           stablehlo.add
// CHECK:         %[[WHOLE:.*]] = "stablehlo.all_reduce"
// CHECK:         %[[OFF:.*]] = stablehlo.remainder %[[ID]]
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.dynamic_slice %[[WHOLE]], %[[OFF]], %[[ZERO]], sizes = [1, 2]
// CHECK-NEXT:    %[[T:.*]] = stablehlo.constant dense<[true, false, false, true, false, true, true, false]> : tensor<8xi1>
// CHECK-NEXT:    %[[SLOT:.*]] = stablehlo.dynamic_slice %[[T]], %[[ID]], sizes = [1] : (tensor<8xi1>, tensor<i64>) -> tensor<1xi1>
// CHECK-NEXT:    %[[SRC:.*]] = stablehlo.reshape %[[SLOT]] : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.constant dense<false> : tensor<2xi1>
// CHECK-NEXT:    %[[MF:.*]] = stablehlo.select %[[SRC]], %flags, %[[F]]
// CHECK-NEXT:    %[[BF:.*]] = "stablehlo.all_reduce"(%[[MF]]) <{{{.*}}replica_groups = dense<{{\[}}[3, 1], [0, 2], [5, 4], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}>
// CHECK:           stablehlo.or
// CHECK:         func.return %[[B]], %[[S]], %[[BF]]
func.func @broadcasts(%x: tensor<4x2xf32>, %flags: tensor<2xi1>) -> (tensor<4x2xf32>, tensor<1x2xf32>, tensor<2xi1>) {
  %0 = shard.broadcast %x on @g grid_axes = [1] root = [3] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = shard.scatter %x on @g grid_axes = [1] scatter_axis = 0 root = [0] : (tensor<4x2xf32>) -> tensor<1x2xf32>
  %2 = "stablehlo.collective_broadcast"(%flags) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[3, 1], [0, 2], [5, 4], [6, 7]]> : tensor<4x2xi64>}> : (tensor<2xi1>) -> tensor<2xi1>
  func.return %0, %1, %2 : tensor<4x2xf32>, tensor<1x2xf32>, tensor<2xi1>
}
