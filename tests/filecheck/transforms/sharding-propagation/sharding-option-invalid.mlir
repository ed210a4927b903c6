// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p sharding-propagation | filecheck %s

// A sharding option the op cannot take is an error at the op, never ignored.
shard.grid @g(shape = 2x2)
func.func @too_many_loops(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {shard.sharding_option = {grid = @g, loops = #shard<axisarray[[], [], [], [0]]>}} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: sharding-option-invalid.mlir:6:3: error: invalid sharding option: 4 loops given, the op has 3

// -----

shard.grid @g(shape = 2x2)
func.func @axis_twice(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {shard.sharding_option = {grid = @g, loops = #shard<axisarray[[0], [0]]>}} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: sharding-option-invalid.mlir:15:3: error: invalid sharding option: a grid axis would shard two loops

// -----

shard.grid @g(shape = 2x2)
func.func @not_a_dict(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {shard.sharding_option = [0]} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: sharding-option-invalid.mlir:24:3: error: 'shard.sharding_option' must be a dictionary {grid = @g, loops = ...}

// -----

func.func @unknown_grid(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {shard.sharding_option = {grid = @nowhere, loops = #shard<axisarray[[0]]>}} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: sharding-option-invalid.mlir:32:3: error: 'shard.sharding_option' names an undefined grid @nowhere

// -----

shard.grid @g(shape = 2x2)
func.func @axis_out_of_grid(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {shard.sharding_option = {grid = @g, loops = #shard<axisarray[[5]]>}} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: sharding-option-invalid.mlir:41:3: error: 'shard.sharding_option' uses grid axis 5, but @g has rank 2
