// With arguments=global an argument is the whole value on every device, so its
// annotation cannot make it partial.
// RUN: xshard-opt %s --verify-diagnostics -p 'shard-partition{arguments=global}' | filecheck %s

shard.grid @g(shape = 2)
func.func @partial_argument(%x: tensor<8xf32>) -> tensor<8xf32> {
  %p = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %0 = shard.shard %x to %p : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: arguments-global-invalid.mlir:8:3: error: with arguments=global an argument cannot be partial
