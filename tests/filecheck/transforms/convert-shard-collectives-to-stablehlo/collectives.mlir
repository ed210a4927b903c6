// One pattern per collective, each over the device groups of its grid_axes: the max
// over axis 0 an all_reduce, the slice over axis 1 a dynamic_slice at partition_id %
// 4, the broadcast from column 3 a collective_broadcast whose groups start at the root,
// the rotating shift a collective_permute. The grid stays: finalize-partition-mode
// removes it. (convert-shard-to-stablehlo/ checks every collective and axis choice.)
// RUN: xshard-opt %s -p convert-shard-collectives-to-stablehlo | filecheck %s

// CHECK:       shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @collectives
// CHECK-NEXT:    %[[PID:.*]] = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT:    %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:    %[[MAX:.*]] = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}>
// CHECK:           stablehlo.maximum
// CHECK:         %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[C4]] : tensor<i64>
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %[[SLICE:.*]] = stablehlo.dynamic_slice %x, %[[ZERO]], %[[COL]], sizes = [8, 1]
// CHECK-NEXT:    %[[B:.*]] = "stablehlo.collective_broadcast"(%[[MAX]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[3, 0, 1, 2], [7, 4, 5, 6]]> : tensor<2x4xi64>}>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[}}[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>}>
// CHECK-NEXT:    func.return %[[MAX]], %[[SLICE]], %[[B]], %[[S]]
shard.grid @g(shape = 2x4)
func.func @collectives(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x1xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8x4xf32> -> tensor<8x4xf32>
  %1 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %2 = shard.broadcast %0 on @g grid_axes = [1] root = [3] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3 = shard.shift %x on @g grid_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<8x4xf32> -> tensor<8x4xf32>
  func.return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<8x1xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
