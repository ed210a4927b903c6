// Gradient accumulation over 4 microbatches (lax.scan): each trip's weight gradient is
// a partial sum over the batch axis; the accumulator is carried partial and settled
// once after the loop.
shard.grid @g(shape = 8)
func.func @main(%xs: tensor<4x16x8xf32>, %gs: tensor<4x16x8xf32>) -> tensor<8x8xf32> {
  %batch = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x = shard.shard %xs to %batch : tensor<4x16x8xf32>
  %dy = shard.shard %gs to %batch : tensor<4x16x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c0, %acc = %zero, %xa = %x, %ga = %dy) : tensor<i32>, tensor<8x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %xi = stablehlo.dynamic_slice %xa, %i, %z, %z, sizes = [1, 16, 8] : (tensor<4x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    %x2 = stablehlo.reshape %xi : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
    %gi = stablehlo.dynamic_slice %ga, %i, %z, %z, sizes = [1, 16, 8] : (tensor<4x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    %g2 = stablehlo.reshape %gi : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
    %dw = stablehlo.dot_general %x2, %g2, contracting_dims = [0] x [0] : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %next = stablehlo.add %acc, %dw : tensor<8x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %next, %xa, %ga : tensor<i32>, tensor<8x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>
  }
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %out = shard.shard %r#1 to %rep annotate_for_users : tensor<8x8xf32>
  func.return %out : tensor<8x8xf32>
}
