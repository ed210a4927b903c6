// update_halo: per split dim, the lower halo receives the last core cells of the
// previous device of the group and the upper halo the first core cells of the next
// (collective_permute); the group's first / last device keeps its outer halo (select).
// RUN: xshard-opt %s -p convert-shard-to-stablehlo | filecheck %s

shard.grid @g(shape = 2x4)

// Local 7 rows = 1 + 4 core + 2 along grid axis 1.
// CHECK-LABEL: func.func @rows
// CHECK:       %[[ID:.*]] = stablehlo.convert
// CHECK-NEXT:  %[[LAST:.*]] = stablehlo.slice %x [4:5, 0:3] : (tensor<7x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:  %[[GOT:.*]] = "stablehlo.collective_permute"(%[[LAST]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[}}[0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7]]> : tensor<6x2xi64>}>
// CHECK-NEXT:  %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT:  %[[COL:.*]] = stablehlo.remainder %[[ID]], %[[C4]] : tensor<i64>
// CHECK-NEXT:  %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %[[FIRST:.*]] = stablehlo.compare EQ, %[[COL]], %[[C0]], SIGNED
// CHECK-NEXT:  %[[OLD:.*]] = stablehlo.slice %x [0:1, 0:3]
// CHECK-NEXT:  %[[LO:.*]] = stablehlo.select %[[FIRST]], %[[OLD]], %[[GOT]] : tensor<i1>, tensor<1x3xf32>
// CHECK-NEXT:  %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %[[AT:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %[[X1:.*]] = stablehlo.dynamic_update_slice %x, %[[LO]], %[[AT]], %[[Z]]
// CHECK-NEXT:  %[[HEAD:.*]] = stablehlo.slice %[[X1]] [1:3, 0:3] : (tensor<7x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %[[GOT2:.*]] = "stablehlo.collective_permute"(%[[HEAD]]) <{{{.*}}source_target_pairs = dense<{{\[}}[1, 0], [2, 1], [3, 2], [5, 4], [6, 5], [7, 6]]> : tensor<6x2xi64>}>
// CHECK:       %[[C3:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:  %[[LASTDEV:.*]] = stablehlo.compare EQ, %{{.*}}, %[[C3]], SIGNED
// CHECK-NEXT:  %[[OLD2:.*]] = stablehlo.slice %[[X1]] [5:7, 0:3]
// CHECK-NEXT:  %[[HI:.*]] = stablehlo.select %[[LASTDEV]], %[[OLD2]], %[[GOT2]]
// CHECK-NEXT:  %{{.*}} = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:  %[[AT2:.*]] = stablehlo.constant dense<5> : tensor<i64>
// CHECK-NEXT:  %[[X2:.*]] = stablehlo.dynamic_update_slice %[[X1]], %[[HI]], %[[AT2]], %{{.*}}
// CHECK-NEXT:  func.return %[[X2]]
func.func @rows(%x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %0 = shard.update_halo %x on @g split_axes = [[1]] halo_sizes = [1, 2] : tensor<7x3xf32>
  func.return %0 : tensor<7x3xf32>
}

// Two split dims: the second reads the buffer the first filled (corners). A dim with a
// zero halo exchanges nothing.
// CHECK-LABEL: func.func @two_dims
// CHECK:       "stablehlo.collective_permute"({{.*}}source_target_pairs = dense<{{\[}}[0, 4], [1, 5], [2, 6], [3, 7]]>
// CHECK-SAME:    (tensor<1x8xf32>)
// CHECK:       %[[D0:.*]] = stablehlo.dynamic_update_slice %x
// CHECK:       %[[COLS:.*]] = stablehlo.slice %[[D0]] [0:4, 7:8] : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:  "stablehlo.collective_permute"(%[[COLS]]) <{{{.*}}source_target_pairs = dense<{{\[}}[0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7]]>
// CHECK-NOT:   stablehlo.collective_permute
// CHECK:       func.return
func.func @two_dims(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.update_halo %x on @g split_axes = [[0], [1]] halo_sizes = [1, 0, 1, 0] : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
