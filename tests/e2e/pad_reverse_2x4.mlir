// pad and reverse on a 2x4 grid, batch split on axis 0 and the rows (H) on axis 1: padding
// the columns (W) and reversing them leave the split rows where they are; padding the rows
// cannot be done block by block (where a row lands depends on the whole dim), so H is
// gathered first. Analytic minimum: 1 all_gather over axis 1 of the 2x2x8x4 f32 block,
// 2*2*8*4*4 = 512 bytes.
shard.grid @g(shape = 2x4)

func.func @main(%x: tensor<4x8x6x4xf32>) -> tensor<4x10x8x4xf32> {
  %rows = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %rows : tensor<4x8x6x4xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %p = stablehlo.pad %x_s, %zero, low = [0, 0, 1, 0], high = [0, 0, 1, 0], interior = [0, 0, 0, 0] : (tensor<4x8x6x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
  %r = stablehlo.reverse %p, dims = [2] : tensor<4x8x8x4xf32>
  %r_s = shard.shard %r to %rows : tensor<4x8x8x4xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %q = stablehlo.pad %r_s, %one, low = [0, 1, 0, 0], high = [0, 1, 0, 0], interior = [0, 0, 0, 0] : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x10x8x4xf32>
  %batch = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %q_s = shard.shard %q to %batch annotate_for_users : tensor<4x10x8x4xf32>
  func.return %q_s : tensor<4x10x8x4xf32>
}
