// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// gather and scatter as JAX 0.10 prints them (generic form, the only one upstream has),
// with and without batching dims: they must print back the same.

func.func @take_along_axis(%x: tensor<4x8x16xf32>, %i: tensor<4x8x1x1xi32>, %u: tensor<4x8x1xf32>) -> (tensor<4x8x1xf32>, tensor<4x8x16xf32>) {
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x16xf32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1xf32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) : (tensor<4x8x16xf32>, tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
  func.return %g, %s : tensor<4x8x1xf32>, tensor<4x8x16xf32>
}
// CHECK-LABEL: func.func @take_along_axis
// CHECK-NEXT:  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x16xf32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1xf32>
// CHECK-NEXT:  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
// CHECK-NEXT:  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:    %sum = stablehlo.add %a, %b : tensor<f32>
// CHECK-NEXT:    stablehlo.return %sum : tensor<f32>
// CHECK-NEXT:  }) : (tensor<4x8x16xf32>, tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
// CHECK-GENERIC: "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}>
// CHECK-GENERIC: "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({

func.func @embedding(%table: tensor<16x8xf32>, %ids: tensor<4x6xi32>, %v: tensor<1xi32>, %w: tensor<16x8xf32>) -> (tensor<4x6x8xf32>, tensor<16x8xf32>, tensor<16xf32>) {
  // Fields in another order than upstream prints them, index_vector_dim = 0 written out.
  %e = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<index_vector_dim = 2, start_index_map = [0], offset_dims = [2], collapsed_slice_dims = [0]>, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x6xi32>) -> tensor<4x6x8xf32>
  %s = "stablehlo.scatter"(%table, %v, %w) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<16x8xf32>, tensor<1xi32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %row = "stablehlo.gather"(%w, %v) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = true, slice_sizes = array<i64: 16, 1>}> : (tensor<16x8xf32>, tensor<1xi32>) -> tensor<16xf32>
  func.return %e, %s, %row : tensor<4x6x8xf32>, tensor<16x8xf32>, tensor<16xf32>
}
// CHECK-LABEL: func.func @embedding
// CHECK-NEXT:  %e = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x6xi32>) -> tensor<4x6x8xf32>
// CHECK-NEXT:  %s = "stablehlo.scatter"(%table, %v, %w) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], scatter_dims_to_operand_dims = [0]>}> ({
// CHECK:       %row = "stablehlo.gather"(%w, %v) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = true, slice_sizes = array<i64: 16, 1>}> : (tensor<16x8xf32>, tensor<1xi32>) -> tensor<16xf32>
