// RUN: xshard-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Pretty convolutions that must be refused while parsing, with a message saying why.

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, b]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  func.return
}
// CHECK: error: unexpected dimension b, expecting one of f

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  func.return
}
// CHECK: error: expected dimensions f not specified

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  func.return
}
// CHECK: error: spatial dimensions must be 0..1, got [0, 2]

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  func.return
}
// CHECK: error: unexpected or duplicate window field 'stride'

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  func.return
}
// CHECK: error: expected [low, high], got 3 values

// -----

func.func @f(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  func.return
}
// CHECK: error: unexpected or duplicate window field 'dilate'
