// Partial sums through the ops of a convolution's gradient, kept unreduced until the end.
// The convolution's input features are split in 8, so each device holds a partial sum
// of y; a 2x2 sum pooling, a select_and_scatter adding the pooled sums (linear in its
// source; the operand it selects with is replicated), a pad with 0 and a reverse all keep
// it partial (the annotations ask for it). The init values (1 and 0.5) are folded in
// once: on one device, 0 on the others (computed locally, no communication).
// Analytic minimum: 1 all_reduce of the 2x10x8x8 f32 result, 2*10*8*8*4 = 5120 bytes.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<2x8x8x16xf32>, %w: tensor<3x3x16x8xf32>, %a: tensor<2x8x8x8xf32>) -> tensor<2x10x8x8xf32> {
  %chan = shard.sharding @g split_axes = [[], [], [], [0]] : !shard.sharding
  %x_s = shard.shard %x to %chan : tensor<2x8x8x16xf32>
  %rows = shard.sharding @g split_axes = [[], [], [0]] : !shard.sharding
  %w_s = shard.shard %w to %rows : tensor<3x3x16x8xf32>
  %partial = shard.sharding @g split_axes = [] partial = sum [0] : !shard.sharding
  %y = stablehlo.convolution(%x_s, %w_s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x16xf32>, tensor<3x3x16x8xf32>) -> tensor<2x8x8x8xf32>
  %y_s = shard.shard %y to %partial : tensor<2x8x8x8xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %p = "stablehlo.reduce_window"(%y_s, %one) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x4x4x8xf32>
  %p_s = shard.shard %p to %partial : tensor<2x4x4x8xf32>
  %half = stablehlo.constant dense<5.000000e-01> : tensor<f32>
  %g = "stablehlo.select_and_scatter"(%a, %p_s, %half) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %c = stablehlo.compare GE, %l, %r, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x8x8x8xf32>, tensor<2x4x4x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
  %g_s = shard.shard %g to %partial : tensor<2x8x8x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %q = stablehlo.pad %g_s, %zero, low = [0, 1, 0, 0], high = [0, 1, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x10x8x8xf32>
  %q_s = shard.shard %q to %partial : tensor<2x10x8x8xf32>
  %r = stablehlo.reverse %q_s, dims = [1] : tensor<2x10x8x8xf32>
  %r_p = shard.shard %r to %partial : tensor<2x10x8x8xf32>
  %rep = shard.sharding @g split_axes = [] : !shard.sharding
  %r_s = shard.shard %r_p to %rep annotate_for_users : tensor<2x10x8x8xf32>
  func.return %r_s : tensor<2x10x8x8xf32>
}
