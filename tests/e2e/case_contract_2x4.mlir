// lax.switch over three branches that read a batch-split activation and a weight split
// on its output features (axis 1) from above: each branch computes on the blocks; the
// branch whose dot contracts the split features settles its partial sum inside the branch.
// The case result keeps one layout, which every branch yields.
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>, %k: tensor<i32>) -> tensor<8x16xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %rows : tensor<8x16xf32>
  %cols = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %w1 = shard.shard %w to %cols : tensor<16x16xf32>
  %r = "stablehlo.case"(%k) ({
    %a = stablehlo.dot_general %x1, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %t = stablehlo.tanh %a : tensor<8x16xf32>
    stablehlo.return %t : tensor<8x16xf32>
  }, {
    %b = stablehlo.dot_general %x1, %w1, contracting_dims = [1] x [1] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    stablehlo.return %b : tensor<8x16xf32>
  }, {
    %s = stablehlo.sine %x1 : tensor<8x16xf32>
    stablehlo.return %s : tensor<8x16xf32>
  }) : (tensor<i32>) -> tensor<8x16xf32>
  %out = shard.shard %r to %rows annotate_for_users : tensor<8x16xf32>
  func.return %out : tensor<8x16xf32>
}
