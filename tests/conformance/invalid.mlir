// RUN: mlir-opt --split-input-file --verify-diagnostics %s

shard.grid @g(shape = 2x2)

func.func @axis_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{0-based grid axis index 3 is out of bounds. The referenced grid "g" is of rank 2.}}
  %0 = shard.all_reduce %x on @g grid_axes = [3] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2x2)

func.func @wrong_gathered_size(%x: tensor<4xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{Dimension size mismatch for result axis 0. Expected 8, but got 6.}}
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// expected-error @+1 {{rank of grid is expected to be a positive integer}}
shard.grid @empty(shape = [])
