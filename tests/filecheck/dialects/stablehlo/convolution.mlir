// RUN: XSHARD_ROUNDTRIP
// RUN: XSHARD_GENERIC_ROUNDTRIP

// The ops of convolutional models (convolution, reduce_window, select_and_scatter, reverse),
// as JAX 0.10.2 prints them for flax / equinox conv blocks and their gradients: each must
// print back the same after a trip through the generic form. CHECK-GENERIC pins the generic
// spellings (those upstream StableHLO and XLA read).

func.func @convolution(%x: tensor<2x8x8x8xf32>, %w: tensor<3x3x8x16xf32>, %dw: tensor<3x3x1x8xf32>, %g: tensor<2x8x8x8xf32>, %v: tensor<16x8x3x3xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
  %1 = stablehlo.convolution(%x, %dw) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x1x8xf32>) -> tensor<2x4x4x8xf32>
  %2 = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 8 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<3x3x1x8xf32>
  %3 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
  %4 = stablehlo.convolution(%x, %v) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 2], rhs_dilate = [2, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, mhlo.frontend_attributes = {a = "b"}} : (tensor<2x8x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x11x13xf32>
  func.return
}
// CHECK-LABEL: func.func @convolution
// CHECK-NEXT:  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
// CHECK-NEXT:  %1 = stablehlo.convolution(%x, %dw) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x1x8xf32>) -> tensor<2x4x4x8xf32>
// CHECK-NEXT:  %2 = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 8 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<3x3x1x8xf32>
// CHECK-NEXT:  %3 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x6x6x16xf32>
// CHECK-NEXT:  %4 = stablehlo.convolution(%x, %v) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 2], rhs_dilate = [2, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, mhlo.frontend_attributes = {a = "b"}} : (tensor<2x8x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x11x13xf32>
// CHECK-GENERIC:  "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x8x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
// CHECK-GENERIC:  "stablehlo.convolution"(%x, %dw) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 8 : i64, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>}>
// CHECK-GENERIC:  "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64}>
// CHECK-GENERIC:  window_reversal = array<i1: true, false>

func.func @windows(%x: tensor<2x8x8x8xf32>, %g: tensor<2x4x4x8xf32>, %k: tensor<3x3x8x8xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %ninf) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x4x4x8xf32>
  %1 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
  %2 = "stablehlo.select_and_scatter"(%x, %g, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x8x8x8xf32>, tensor<2x4x4x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
  %3 = stablehlo.reverse %k, dims = [0, 1] : tensor<3x3x8x8xf32>
  func.return
}
// CHECK-LABEL: func.func @windows
// CHECK:       %0 = "stablehlo.reduce_window"(%x, %ninf) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
// CHECK-NEXT:  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:    %m = stablehlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:    stablehlo.return %m : tensor<f32>
// CHECK-NEXT:  }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x4x4x8xf32>
// CHECK-NEXT:  %1 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<{{\[\[0, 0\], \[1, 1\], \[1, 1\], \[0, 0\]\]}}> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>}> ({
// CHECK:       %2 = "stablehlo.select_and_scatter"(%x, %g, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
// CHECK-NEXT:  ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:    %c = stablehlo.compare GE, %a_2, %b_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %c : tensor<i1>
// CHECK-NEXT:  }, {
// CHECK:       }) : (tensor<2x8x8x8xf32>, tensor<2x4x4x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
// CHECK-NEXT:  %3 = stablehlo.reverse %k, dims = [0, 1] : tensor<3x3x8x8xf32>
// CHECK-GENERIC: "stablehlo.reverse"(%k) <{dimensions = array<i64: 0, 1>}> : (tensor<3x3x8x8xf32>) -> tensor<3x3x8x8xf32>
