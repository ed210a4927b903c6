// RUN: mlir-opt --split-input-file --test-grid-all-slice-op-lowering --test-grid-simplifications --cse %s | FileCheck %s

shard.grid @grid_2x4(shape = 2x4)

// CHECK-LABEL: func.func @dynamic_tensor_on_static_axis
func.func @dynamic_tensor_on_static_axis(
  // CHECK-SAME: %[[ARG:.*]]: tensor<3x?xi32>
  %arg0: tensor<3x?xi32>
) -> tensor<3x?xi32> {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-DAG: %[[IDX:.*]] = shard.process_multi_index on @grid_2x4 axes = [1] : index
  // CHECK: %[[DIM:.*]] = tensor.dim %[[ARG]], %[[C1]] : tensor<3x?xi32>
  // CHECK: %[[REM:.*]] = arith.remui %[[DIM]], %[[C4]] : index
  // CHECK: %[[OK:.*]] = arith.cmpi eq, %[[REM]], %[[C0]] : index
  // CHECK: cf.assert %[[OK]]
  // CHECK: %[[SIZE:.*]] = arith.divui %[[DIM]], %[[C4]] : index
  // CHECK: %[[OFF:.*]] = arith.muli %[[IDX]], %[[SIZE]] : index
  // CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[ARG]][0, %[[OFF]]] [%[[C3]], %[[SIZE]]] [1, 1] : tensor<3x?xi32> to tensor<?x?xi32>
  // CHECK: %[[RES:.*]] = tensor.cast %[[SLICE]] : tensor<?x?xi32> to tensor<3x?xi32>
  %0 = shard.all_slice %arg0 on @grid_2x4 grid_axes = [1] slice_axis = 1 : tensor<3x?xi32> -> tensor<3x?xi32>
  // CHECK: return %[[RES]] : tensor<3x?xi32>
  return %0 : tensor<3x?xi32>
}

// CHECK-LABEL: func.func @static_tensor_on_two_static_axes
func.func @static_tensor_on_two_static_axes(
  // CHECK-SAME: %[[ARG:.*]]: tensor<16x3xf32>
  %arg0: tensor<16x3xf32>
) -> tensor<2x3xf32> {
  // CHECK-DAG: %[[TRUE:.*]] = arith.constant true
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK-DAG: %[[IDX:.*]]:2 = shard.process_multi_index on @grid_2x4 axes = [1, 0] : index, index
  // CHECK: cf.assert %[[TRUE]]
  // CHECK: %[[LIN:.*]] = affine.apply {{.*}}[%[[IDX]]#0, %[[C2]], %[[IDX]]#1]
  // CHECK: %[[OFF:.*]] = arith.muli %[[LIN]], %[[C2]] : index
  // CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[ARG]][%[[OFF]], 0] [%[[C2]], %[[C3]]] [1, 1] : tensor<16x3xf32> to tensor<?x?xf32>
  // CHECK: %[[RES:.*]] = tensor.cast %[[SLICE]] : tensor<?x?xf32> to tensor<2x3xf32>
  %0 = shard.all_slice %arg0 on @grid_2x4 grid_axes = [1, 0] slice_axis = 0 : tensor<16x3xf32> -> tensor<2x3xf32>
  // CHECK: return %[[RES]] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

shard.grid @grid_mixed(shape = ?x3)

// CHECK-LABEL: func.func @static_tensor_on_mixed_axes
func.func @static_tensor_on_mixed_axes(
  // CHECK-SAME: %[[ARG:.*]]: tensor<24xf16>
  %arg0: tensor<24xf16>
) -> tensor<?xf16> {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK-DAG: %[[C24:.*]] = arith.constant 24 : index
  // CHECK-DAG: %[[IDX:.*]]:2 = shard.process_multi_index on @grid_mixed axes = [0, 1] : index, index
  // CHECK-DAG: %[[N0:.*]] = shard.grid_shape @grid_mixed axes = [0] : index
  // CHECK: %[[N:.*]] = arith.muli %[[N0]], %[[C3]] : index
  // CHECK: %[[REM:.*]] = arith.remui %[[C24]], %[[N]] : index
  // CHECK: %[[OK:.*]] = arith.cmpi eq, %[[REM]], %[[C0]] : index
  // CHECK: cf.assert %[[OK]]
  // CHECK: %[[SIZE:.*]] = arith.divui %[[C24]], %[[N]] : index
  // CHECK: %[[LIN:.*]] = affine.apply {{.*}}[%[[IDX]]#0, %[[C3]], %[[IDX]]#1]
  // CHECK: %[[OFF:.*]] = arith.muli %[[LIN]], %[[SIZE]] : index
  // CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[ARG]][%[[OFF]]] [%[[SIZE]]] [1] : tensor<24xf16> to tensor<?xf16>
  %0 = shard.all_slice %arg0 on @grid_mixed grid_axes = [0, 1] slice_axis = 0 : tensor<24xf16> -> tensor<?xf16>
  // CHECK: return %[[SLICE]] : tensor<?xf16>
  return %0 : tensor<?xf16>
}
