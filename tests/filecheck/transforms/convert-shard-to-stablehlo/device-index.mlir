// all_slice and the process queries become partition_id arithmetic. partition_id is
// read once per function (with {manual}, which XLA needs for it), converted to the
// tensor<i64> that stands for `index`, and a grid coordinate is (id / stride) % size.
// RUN: xshard-opt %s -p convert-shard-to-stablehlo | filecheck %s

shard.grid @g(shape = 2x4)

// CHECK-LABEL: func.func @slice_axis_1
// CHECK-NEXT:  %[[PID:.*]] = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT:  %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:  %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[FOUR]] : tensor<i64>
// CHECK-NEXT:  %[[SIZE:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:  %[[OFF:.*]] = stablehlo.multiply %[[COL]], %[[SIZE]] : tensor<i64>
// CHECK-NEXT:  %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.dynamic_slice %x, %[[ZERO]], %[[OFF]], sizes = [3, 2] : (tensor<3x8xf32>, tensor<i64>, tensor<i64>) -> tensor<3x2xf32>
// CHECK-NEXT:  func.return %[[S]]
func.func @slice_axis_1(%x: tensor<3x8xf32>) -> tensor<3x2xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 1 : tensor<3x8xf32> -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// Axis 0 is the outermost: id / 4, no remainder.
// CHECK-LABEL: func.func @slice_axis_0
// CHECK:       %[[ID:.*]] = stablehlo.convert
// CHECK:       %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[ROW:.*]] = stablehlo.divide %[[ID]], %[[FOUR]] : tensor<i64>
// CHECK-NEXT:  %[[SIZE:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:  %[[OFF:.*]] = stablehlo.multiply %[[ROW]], %[[SIZE]] : tensor<i64>
// CHECK-NEXT:  %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %{{.*}} = stablehlo.dynamic_slice %x, %[[OFF]], %[[ZERO]], sizes = [3, 8] : (tensor<6x8xf32>, tensor<i64>, tensor<i64>) -> tensor<3x8xf32>
func.func @slice_axis_0(%x: tensor<6x8xf32>) -> tensor<3x8xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [0] slice_axis = 0 : tensor<6x8xf32> -> tensor<3x8xf32>
  func.return %0 : tensor<3x8xf32>
}

// Both axes, row-major: the in-group index is the partition id itself.
// CHECK-LABEL: func.func @slice_both_axes
// CHECK:       %[[ID:.*]] = stablehlo.convert
// CHECK-NEXT:  %[[SIZE:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:  %[[OFF:.*]] = stablehlo.multiply %[[ID]], %[[SIZE]] : tensor<i64>
// CHECK-NEXT:  %{{.*}} = stablehlo.dynamic_slice %x, %[[OFF]], sizes = [2] : (tensor<16xf32>, tensor<i64>) -> tensor<2xf32>
func.func @slice_both_axes(%x: tensor<16xf32>) -> tensor<2xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [0, 1] slice_axis = 0 : tensor<16xf32> -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// grid_axes = [1, 0]: index = col * 2 + row.
// CHECK-LABEL: func.func @slice_axes_reversed
// CHECK:       %[[ID:.*]] = stablehlo.convert
// CHECK:       %[[COL:.*]] = stablehlo.remainder %[[ID]], %{{.*}} : tensor<i64>
// CHECK:       %[[ROW:.*]] = stablehlo.divide %[[ID]], %{{.*}} : tensor<i64>
// CHECK-NEXT:  %[[TWO:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:  %[[HI:.*]] = stablehlo.multiply %[[COL]], %[[TWO]] : tensor<i64>
// CHECK-NEXT:  %[[IDX:.*]] = stablehlo.add %[[HI]], %[[ROW]] : tensor<i64>
// CHECK:       stablehlo.multiply %[[IDX]]
func.func @slice_axes_reversed(%x: tensor<16xf32>) -> tensor<2xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [1, 0] slice_axis = 0 : tensor<16xf32> -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// Returned index values turn the function's results into tensor<i64>.
// CHECK-LABEL: func.func @queries() -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>)
// CHECK-NEXT:  %[[PID:.*]] = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT:  %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:  %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[ROW:.*]] = stablehlo.divide %[[ID]], %[[C4]] : tensor<i64>
// CHECK-NEXT:  %[[C4B:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[C4B]] : tensor<i64>
// CHECK-NEXT:  %[[N0:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:  %[[N1:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[C4C:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[COL1:.*]] = stablehlo.remainder %[[ID]], %[[C4C]] : tensor<i64>
// CHECK-NEXT:  func.return %[[ID]], %[[ROW]], %[[COL]], %[[N0]], %[[N1]], %[[COL1]] : tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>
func.func @queries() -> (index, index, index, index, index, index) {
  %l = shard.process_linear_index on @g : index
  %i:2 = shard.process_multi_index on @g : index, index
  %n:2 = shard.grid_shape @g : index, index
  %j = shard.process_multi_index on @g axes = [1] : index
  func.return %l, %i#0, %i#1, %n#0, %n#1, %j : index, index, index, index, index, index
}

// CHECK-NOT: shard.
