// RUN: xshard-opt %s --split-input-file --verify-diagnostics -p import-sdy | filecheck %s

// Shardy and GSPMD constructs with no shard form are located errors naming them.

sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
// CHECK: invalid.mlir:6:1: error: the sub-axis "x:(1)2" has no shard form: shard splits whole grid axes

// -----

sdy.mesh @m = <["x"=2], device_ids=[1, 0]>
// CHECK: invalid.mlir:13:1: error: mesh @m lists its own device order [1, 0]; a shard.grid numbers devices row-major

// -----

func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %a <@nowhere, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:19:3: error: the sharding names mesh @nowhere, which is undeclared

// -----

sdy.mesh @m = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %a <@m, [{"y"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:28:3: error: mesh @m has no axis "y"

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<8xf32> {mhlo.sharding = "{maximal device=1}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}
// CHECK: invalid.mlir:36:3: error: a maximal sharding ('{maximal device=1}') puts the value on one device only

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<8xf32>) -> tensor<2xf32> {
    %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}
// CHECK: invalid.mlir:47:5: error: @SPMDFullToShardShape (shard_map in GSPMD form) holds per-device code, which xshard does not import

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,2]0,3,1,2}"}) -> tensor<4x4xf32> {
    return %a : tensor<4x4xf32>
  }
}
// CHECK: invalid.mlir:56:3: error: the device order of '{devices=[2,2]0,3,1,2}' is not the one of any grid

// -----

// A value placed on one device (a mesh of one device) has no shard form; JAX's host
// callbacks are the only ops xshard runs so (callbacks.mlir).
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @main(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:69:3: error: the sharding names @maximal_mesh_0, a mesh of one device: the value lives on one device only, which xshard does not partition (of ops so placed it runs JAX's host callbacks, on one device)

// -----

// Several blocks: shard-partition would refuse them next.
func.func @two_blocks(%x: tensor<8xf32>) -> tensor<8xf32> {
  cf.br ^bb1
^bb1:
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 5]]:1: error: import-sdy supports only functions with one block
