// Traversals: backward-forward, forward, backward, forward-backward
// Elementwise tosa ops on a 2x4 grid: shardings from a definition, a use, a graph
// input and a graph output; an arrow-shaped DAG; an elementwise chain.
shard.grid @g2x4(shape = 2x4)

func.func @no_annotation(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tosa.tanh %arg0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

func.func @from_def(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tosa.abs %arg0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = shard.sharding @g2x4 split_axes = [[1], [0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @from_use(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x4 split_axes = [[], [0, 1]] : !shard.sharding
  %0 = shard.shard %arg0 to %s annotate_for_users : tensor<8x16xf32>
  %1 = tosa.sigmoid %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @from_graph_input(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<8x16xf32>
  %1 = tosa.tanh %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = tosa.abs %1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

func.func @from_graph_output(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tosa.sigmoid %arg0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = tosa.tanh %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = shard.sharding @g2x4 split_axes = [[1]] : !shard.sharding
  %2 = shard.shard %1 to %s annotate_for_users : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

func.func @arrow(%arg0: tensor<8x16xf32>, %zp0: tensor<1xf32>, %zp1: tensor<1xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = tosa.sigmoid %arg0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = tosa.tanh %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = tosa.negate %0, %zp0, %zp1 : (tensor<8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16xf32>
  %s = shard.sharding @g2x4 split_axes = [[1], [0]] : !shard.sharding
  %3 = shard.shard %2 to %s : tensor<8x16xf32>
  return %1, %3 : tensor<8x16xf32>, tensor<8x16xf32>
}

func.func @chain_binary(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g2x4 split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<8x16xf32>
  %1 = tosa.add %0, %arg1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = tosa.exp %1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = tosa.sub %2, %arg1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = tosa.abs %3 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

func.func @two_annotations_disagree(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s0 = shard.sharding @g2x4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s0 : tensor<8x16xf32>
  %s1 = shard.sharding @g2x4 split_axes = [[], [1]] : !shard.sharding
  %1 = shard.shard %arg1 to %s1 annotate_for_users : tensor<8x16xf32>
  %2 = tosa.add %0, %1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = tosa.tanh %2 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
