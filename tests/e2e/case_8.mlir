// lax.cond as JAX lowers it: the branches read %x1 (a split annotation) and %y (an
// argument that arrives split) from above. The branches are partitioned in place and
// run on the blocks; the index is a whole value.
shard.grid @g(shape = 8)
func.func @main(%x: tensor<16x4xf32>, %y: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<16x4xf32>
  %y1 = shard.shard %y to %rows : tensor<16x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x1 init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x4xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.compare GT, %s, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %i = stablehlo.convert %p : (tensor<i1>) -> tensor<i32>
  %r = "stablehlo.case"(%i) ({
    %e = stablehlo.exponential %x1 : tensor<16x4xf32>
    stablehlo.return %e : tensor<16x4xf32>
  }, {
    %m = stablehlo.multiply %x1, %y : tensor<16x4xf32>
    stablehlo.return %m : tensor<16x4xf32>
  }) : (tensor<i32>) -> tensor<16x4xf32>
  %r1 = shard.shard %r to %rows : tensor<16x4xf32>
  func.return %r1 : tensor<16x4xf32>
}
