// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier failures of gather and scatter (the spec's constraints), one per chunk.

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xi32>
  func.return
}
// CHECK: 'stablehlo.gather' op requires the same element type for operand and result, got f32 and i32

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op offset_dims, collapsed_slice_dims and operand_batching_dims must have operand rank (2) entries together, got 1

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op index_vector_dim 3 is out of range [0, 2]

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op start_index_map must have 1 entries (the size of the index vector), got 2

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op slice size of dim 0 in collapsed_slice_dims must be 0 or 1, got 2

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 9>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x9xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op slice size 9 of dim 1 is out of bounds [0, 8]

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op result shape must be [3, 8], got [3, 4]

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op start_index_map contains 2, out of range [0, 2)

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [1], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op offset_dims, collapsed_slice_dims and operand_batching_dims must have operand rank (2) entries together, got 3

// -----

func.func @f(%x: tensor<4x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %b) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x3x1xi32>) -> tensor<4x3xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op operand batching dim 0 (4) and start_indices batching dim 1 (3) must have the same size

// -----

func.func @f(%x: tensor<4x8xf32>, %b: tensor<4x3x1xi32>) {
  %0 = "stablehlo.gather"(%x, %b) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x3x1xi32>) -> tensor<4x3xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op index_vector_dim 2 must not be a batching dim

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xf32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.gather' op start_indices must have an integer element type, got tensor<3x1xf32>

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x9xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<3x9xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op update window dim 1 (9) is larger than the input dim it covers (8)

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<2x8xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<2x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op update scatter dim 0 must have the size of the index batch (3), got 2

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8x1xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<3x8x1xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op updates must have rank 2 (index batch dims plus window dims), got 3

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op update_window_dims, inserted_window_dims and input_batching_dims must have input rank (2) entries together, got 1

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op scatter_dims_to_operand_dims must have 1 entries (the size of the index vector), got 2

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [3], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op scatter_dims_to_operand_dims contains 3, out of range [0, 2)

// -----

func.func @f(%x: tensor<4x8xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<3x1xi32>, tensor<3x8xf32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.scatter' op reducer must return (tensor<f32>), got (tensor<i1>)

// -----

func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x9xf32>, %i: tensor<3x1xi32>, %u: tensor<3x8xf32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    stablehlo.return %c, %d : tensor<f32>, tensor<f32>
  }) : (tensor<4x8xf32>, tensor<4x9xf32>, tensor<3x1xi32>, tensor<3x8xf32>, tensor<3x8xf32>) -> (tensor<4x8xf32>, tensor<4x9xf32>)
  func.return
}
// CHECK: 'stablehlo.scatter' op input 1 is tensor<4x9xf32>, but its shape must be [4, 8]
