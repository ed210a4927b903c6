// comm-report on per-device shard-level code. One row per collective (group from
// grid_axes, bytes of one device's operand, ring-model cost), totals last; the IR
// is printed unchanged. A function without collectives says so.
// RUN: xshard-opt %s -p comm-report | filecheck %s
// RUN: rm -f %t && xshard-opt %s -p 'comm-report{file="%t"}' | filecheck %s --check-prefix=IR
// RUN: filecheck %s --input-file=%t

shard.grid @g(shape = 2x4)

// CHECK:      // comm report for @collectives
// CHECK-NEXT: // op                    at     groups       group size  bytes/device  ring cost
// 2 * 3/4 * 128
// CHECK-NEXT: // shard.all_reduce      33:3   @g [1]       4           128           192
// 3 * 32
// CHECK-NEXT: // shard.all_gather      34:3   @g [1]       4           32            96
// 7/8 * 128
// CHECK-NEXT: // shard.reduce_scatter  35:3   @g [0, 1]    8           128           112
// 1/2 * 128
// CHECK-NEXT: // shard.all_to_all      36:3   @g [0]       2           128           64
// CHECK-NEXT: // shard.broadcast       37:3   @g [1]       4           128           128
// No communication:
// CHECK-NEXT: // shard.all_slice       38:3   @g [1]       4           128           0
// CHECK-NEXT: // shard.shift           39:3   @g [1]       4           128           128
// CHECK-NEXT: // total                        7 collectives             800           720
// CHECK-NEXT: // comm report for @local
// CHECK-NEXT: // no collectives

// IR: func.func @collectives
// IR:   shard.all_reduce
// IR: func.func @local

func.func @collectives(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<2x16xf32>, tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x8xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_gather %y on @g grid_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
  %2 = shard.reduce_scatter %x on @g grid_axes = [0, 1] scatter_axis = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %3 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x8xf32> -> tensor<2x16xf32>
  %4 = shard.broadcast %x on @g grid_axes = [1] root = [0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  %6 = shard.shift %x on @g grid_axes = [1] shift_axis = 1 offset = 1 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<2x16xf32>, tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x8xf32>
}

func.func @local(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  func.return %x : tensor<4x8xf32>
}

