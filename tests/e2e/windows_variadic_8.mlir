// A reduce_window over two inputs at once (a max of x and a sum of y in one body), with a
// window of 3 rows dilated by 2 (reach 5) and "same" padding (2, 2), the rows (H) split
// in 8: each input block fetches 2 rows from each neighbour, padded with its own init
// value (-inf for x, 0 for y) past the edges. Analytic minimum: 2 halo exchanges (one
// per input), each 2 collective_permutes of two 2x2x8x4 f32 rows, 2*2*8*4*4 = 512 bytes.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<2x16x8x4xf32>, %y: tensor<2x16x8x4xf32>) -> (tensor<2x16x8x4xf32>, tensor<2x16x8x4xf32>) {
  %rows = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<2x16x8x4xf32>
  %y_s = shard.shard %y to %rows : tensor<2x16x8x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %m:2 = "stablehlo.reduce_window"(%x_s, %y_s, %ninf, %zero) <{padding = dense<[[0, 0], [2, 2], [0, 0], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 2, 1, 1>, window_dimensions = array<i64: 1, 3, 1, 1>}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    %mx = stablehlo.maximum %a0, %b0 : tensor<f32>
    %s = stablehlo.add %a1, %b1 : tensor<f32>
    stablehlo.return %mx, %s : tensor<f32>, tensor<f32>
  }) : (tensor<2x16x8x4xf32>, tensor<2x16x8x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x16x8x4xf32>, tensor<2x16x8x4xf32>)
  %m0 = shard.shard %m#0 to %rows annotate_for_users : tensor<2x16x8x4xf32>
  %m1 = shard.shard %m#1 to %rows annotate_for_users : tensor<2x16x8x4xf32>
  func.return %m0, %m1 : tensor<2x16x8x4xf32>, tensor<2x16x8x4xf32>
}
