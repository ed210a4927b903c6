// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p sharding-propagation | filecheck %s

// TCP's region ops have a model that refuses them with a reason, at the op.

func.func @group(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.group {
    %s = tcp.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    tcp.yield %s : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: tcp-invalid.mlir:6:3: error: 'tcp.group' cannot be sharded: propagation does not enter regions; shard the ops before grouping them

// -----

func.func @isolated_group(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.isolated_group %a {
  ^bb0(%p: tensor<4xf32>):
    %m = tcp.mul %p, %p : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    tcp.yield %m : tensor<4xf32>
  } : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: tcp-invalid.mlir:17:3: error: 'tcp.isolated_group' cannot be sharded: propagation does not enter regions; shard the ops before grouping them

// -----

func.func @custom_op(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0, %1 = tcp.custom_op("torch.aten.topk") %x {k = 2 : i64} : tensor<?x3xf32> -> tensor<?x3xf32>, tensor<?x3xi64>
  return %0 : tensor<?x3xf32>
}
// CHECK: tcp-invalid.mlir:29:3: error: 'tcp.custom_op' cannot be sharded: what an opaque custom op computes is unknown
