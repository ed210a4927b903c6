// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p sharding-propagation | filecheck %s

// A payload op without a sharding model is an error at the op, never replicated silently.
shard.grid @g(shape = 2)
func.func @no_model(%x: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x16xf32>
  %0 = tensor.extract_slice %a[0, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
  func.return %0 : tensor<4x16xf32>
}
// CHECK: payload-invalid.mlir:8:3: error: 'tensor.extract_slice' has no sharding model

// -----

shard.grid @g(shape = 2)
func.func @tosa_no_model(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<16x16xf32> {
  %0 = tosa.concat %x, %y {axis = 0 : i32} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  func.return %0 : tensor<16x16xf32>
}
// CHECK: payload-invalid.mlir:17:3: error: 'tosa.concat' has no sharding model
