// tosa elementwise ops in the style of upstream's partition.mlir: unary and binary
// ops on split operands, an operand that needs a reshard, chains, full replication,
// zero points, and a scalar (non-tensor) value next to sharded tensors.
shard.grid @g4(shape = 4)
shard.grid @g2x2(shape = 2x2)

func.func @unary(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x6xf32>
  %x2 = shard.shard %x1 to %s annotate_for_users : tensor<8x6xf32>
  %0 = tosa.abs %x2 : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = shard.shard %0 to %s : tensor<8x6xf32>
  %2 = shard.shard %1 to %s annotate_for_users : tensor<8x6xf32>
  return %2 : tensor<8x6xf32>
}

func.func @binary(%a: tensor<8x6xf32>, %b: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g2x2 split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf32>
  %b1 = shard.shard %b to %s : tensor<8x6xf32>
  %0 = tosa.add %a1, %b1 : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

func.func @binary_reshard_operand(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %t = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x16xf32>
  %b1 = shard.shard %b to %t : tensor<8x16xf32>
  %b2 = shard.shard %b1 to %s annotate_for_users : tensor<8x16xf32>
  %0 = tosa.add %a1, %b2 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

func.func @chain_with_reshards(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %0 = tosa.sigmoid %x1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %t = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %1 = shard.shard %0 to %t annotate_for_users : tensor<8x16xf32>
  %2 = tosa.tanh %1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %3 = shard.shard %2 to %r annotate_for_users : tensor<8x16xf32>
  %4 = tosa.abs %3 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

func.func @replicated(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %r = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %x1 = shard.shard %x to %r : tensor<8x6xf32>
  %0 = tosa.abs %x1 : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

func.func @negate_zero_points(%x: tensor<8x6xf32>, %zp: tensor<1xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g2x2 split_axes = [[1, 0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x6xf32>
  %0 = tosa.negate %x1, %zp, %zp : (tensor<8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

func.func @scalars_alongside(%x: tensor<8x6xf32>, %i: i32) -> (tensor<8x6xf32>, i32) {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x6xf32>
  %0 = tosa.abs %x1 : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0, %i : tensor<8x6xf32>, i32
}
