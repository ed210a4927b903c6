// Pooling with the image rows (H) split in 8, as JAX lowers flax's nn.max_pool,
// nn.avg_pool and the gradient of max pooling. The 2x2 stride-2 max pool's windows tile
// H, so each device pools its own 2 rows into 1; the 3x3 stride-1 "same" sum pool needs
// one pooled row from each neighbour (shard.update_halo, the init value 0 past the
// edges); the max pool's gradient (select_and_scatter, windows tiling H) scatters each
// device's source row into its own 2 rows; ResNet's 3x3 stride-2 max pool (flax "SAME":
// padding (0, 1), -inf past the last row) needs one input row of the next device.
// Analytic minimum: 2 collective_permutes of one 2x1x4x4 f32 row, 2*1*4*4*4 = 128 bytes
// each, and 1 of one 2x1x8x4 f32 row, 256 bytes: 512 bytes.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<2x16x8x4xf32>) -> (tensor<2x8x4x4xf32>, tensor<2x16x8x4xf32>, tensor<2x8x4x4xf32>) {
  %rows = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<2x16x8x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %init = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<f32>
  %m = "stablehlo.reduce_window"(%x_s, %init) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<2x16x8x4xf32>, tensor<f32>) -> tensor<2x8x4x4xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = "stablehlo.reduce_window"(%m, %zero) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8x4x4xf32>
  %nine = stablehlo.constant dense<9.000000e+00> : tensor<2x8x4x4xf32>
  %avg = stablehlo.divide %s, %nine : tensor<2x8x4x4xf32>
  %grad = "stablehlo.select_and_scatter"(%x_s, %avg, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<2x16x8x4xf32>, tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x16x8x4xf32>
  %stem = "stablehlo.reduce_window"(%x_s, %init) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<2x16x8x4xf32>, tensor<f32>) -> tensor<2x8x4x4xf32>
  %avg_s = shard.shard %avg to %rows annotate_for_users : tensor<2x8x4x4xf32>
  %grad_s = shard.shard %grad to %rows annotate_for_users : tensor<2x16x8x4xf32>
  %stem_s = shard.shard %stem to %rows annotate_for_users : tensor<2x8x4x4xf32>
  func.return %avg_s, %grad_s, %stem_s : tensor<2x8x4x4xf32>, tensor<2x16x8x4xf32>, tensor<2x8x4x4xf32>
}
