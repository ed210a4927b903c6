// A partial max through a pad: the row maxima of x, whose columns are split in 8, are
// partial (each device holds the maxima of its columns); padding them with 1 on every
// device keeps them partial, since max is idempotent (max(1, 1) = 1), so the maxima are
// settled after the pad. Analytic minimum: 1 all_reduce (max) of the padded 10 f32
// values, 40 bytes.
shard.grid @g(shape = 8)

func.func @main(%x: tensor<8x16xf32>) -> tensor<10xf32> {
  %cols = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %cols : tensor<8x16xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x_s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %partial = shard.sharding @g split_axes = [] partial = max [0] : !shard.sharding
  %m_s = shard.shard %m to %partial : tensor<8xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %p = stablehlo.pad %m_s, %one, low = [1], high = [1], interior = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<10xf32>
  %p_p = shard.shard %p to %partial : tensor<10xf32>
  %rep = shard.sharding @g split_axes = [] : !shard.sharding
  %p_s = shard.shard %p_p to %rep annotate_for_users : tensor<10xf32>
  func.return %p_s : tensor<10xf32>
}
