// RUN: xshard-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier failures of convolution, reduce_window, select_and_scatter and reverse (the
// StableHLO spec's constraints), one per chunk, each with the message it must give.
func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op lhs and rhs must have the same rank, got 4 and 3

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op dim_numbers give input rank 5, the operands have rank 4

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 0], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op window_strides must be positive, got [1, 0]

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op window_strides must have 2 entries (spatial rank), got 1

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op padding must be a 2x2 integer tensor, got tensor<3x2xi64>

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op window_reversal must have 2 entries (spatial rank), got 1

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x4x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x4x16xf32>) -> tensor<1x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op feature_group_count (2) or batch_group_count (2) must be 1

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x2x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x2x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op input feature dimension (8) must be divisible by feature_group_count (3)

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x2x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x2x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op kernel input feature dimension (2) must be the input feature dimension (8) / feature_group_count (2)

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op input batch dimension (2) must be divisible by batch_group_count (4)

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op feature_group_count and batch_group_count must be positive, got 0 and 1

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xbf16>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xbf16>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op lhs, rhs and result must have one element type, got f32, bf16 and f32

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op result shape must be [2, 8, 8, 16], got [2, 6, 6, 16]

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: 'stablehlo.convolution' op precision_config must have 0 or 2 entries, got 1

// -----

func.func @f(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_window' op result 0 must be tensor<2x4xf32>, got tensor<2x2xf32>

// -----

func.func @f(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_window' op window_dimensions must have 2 entries (the input rank), got 1

// -----

func.func @f(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x7xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_window' op window_strides must be positive, got [0, 1]

// -----

func.func @f(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, padding = dense<0> : tensor<2x3xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x7xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_window' op padding must be a 2x2 integer tensor, got tensor<2x3xi64>

// -----

func.func @f(%x: tensor<4x8xf32>, %z: tensor<2xf32>) {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2xf32>) -> tensor<3x7xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_window' op init value 0 must be a rank-0 tensor, got tensor<2xf32>

// -----

func.func @f(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x7xf32>
  func.return
}
// CHECK: 'stablehlo.reduce_window' op reducer body must take 2 arguments, got 3

// -----

func.func @f(%x: tensor<4x8xf32>, %g: tensor<2x2xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.select_and_scatter' op source shape must be [2, 4] (the number of windows), got [2, 2]

// -----

func.func @f(%x: tensor<4x8xf32>, %g: tensor<2x4xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.select_and_scatter' op select must return one tensor<i1> with stablehlo.return

// -----

func.func @f(%x: tensor<4x8xf32>, %g: tensor<2x4xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return
}
// CHECK: 'stablehlo.select_and_scatter' op result type must be the operand type tensor<4x8xf32>, got tensor<4x4xf32>

// -----

func.func @f(%x: tensor<4x8xf32>, %g: tensor<2x4xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) <{window_dimensions = array<i64: 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.select_and_scatter' op window_dimensions must have 2 entries (the operand rank), got 3

// -----

func.func @f(%x: tensor<4x8xf32>, %g: tensor<2x4xf16>, %z: tensor<f32>) {
  %0 = "stablehlo.select_and_scatter"(%x, %g, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf16>, tensor<f32>) -> tensor<4x8xf32>
  func.return
}
// CHECK: 'stablehlo.select_and_scatter' op source has element type f16, operand has f32

// -----

func.func @f(%x: tensor<3x4xf32>) {
  %0 = stablehlo.reverse %x, dims = [0, 2] : tensor<3x4xf32>
  func.return
}
// CHECK: 'stablehlo.reverse' op dimensions contains 2, out of range [0, 2)

// -----

func.func @f(%x: tensor<3x4xf32>) {
  %0 = stablehlo.reverse %x, dims = [1, 1] : tensor<3x4xf32>
  func.return
}
// CHECK: 'stablehlo.reverse' op dimensions must be unique, got [1, 1]

// -----

func.func @f(%x: tensor<3x4xf32>) {
  %0 = stablehlo.reverse %x, dims = [1] : (tensor<3x4xf32>) -> tensor<3x4xf16>
  func.return
}
// CHECK: 'stablehlo.reverse' op result type must be the operand type tensor<3x4xf32>, got tensor<3x4xf16>
