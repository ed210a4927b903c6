// RUN: xshard-opt %s -p convert-shard-to-stablehlo --split-input-file --verify-diagnostics | filecheck %s

// What has no StableHLO form is reported at the op, with the reason.

shard.grid @g(shape = 2x4)
func.func @not_partitioned(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:8:3: error: cannot convert 'shard.shard' to StableHLO: the program is not partitioned (run shard-partition first)

// -----

shard.grid @g(shape = 2x4)
func.func @send(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = shard.send %x on @g grid_axes = [1] destination = [1] : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:17:3: error: cannot convert 'shard.send' to StableHLO: point-to-point transfers have no form in SPMD partition mode, where every partition runs the same program; express the exchange as shard.shift

// -----

shard.grid @g(shape = 2x4)
func.func @recv(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = shard.recv %x on @g grid_axes = [1] source = [0] : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:26:3: error: cannot convert 'shard.recv' to StableHLO: point-to-point transfers

// -----

shard.grid @g(shape = 2x4)
func.func @dynamic_shape(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<?x3xf32> -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
// CHECK: invalid.mlir:35:3: error: cannot convert 'shard.all_gather' to StableHLO: tensor<?x3xf32> has a dynamic shape; XLA needs static shapes

// -----

shard.grid @g(shape = 2x4)
func.func @generic_reduction(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [1] reduction = generic : tensor<8xf32> -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:44:3: error: cannot convert 'shard.all_reduce' to StableHLO: reduction kind 'generic' has no StableHLO reducer

// -----

shard.grid @g(shape = 2x4)
func.func @bitwise_float(%x: tensor<8x8xf32>) -> tensor<8x2xf32> {
  %0 = shard.reduce_scatter %x on @g grid_axes = [1] reduction = bitwise_or scatter_axis = 1 : tensor<8x8xf32> -> tensor<8x2xf32>
  func.return %0 : tensor<8x2xf32>
}
// CHECK: invalid.mlir:53:3: error: cannot convert 'shard.reduce_scatter' to StableHLO: reduction kind 'bitwise_or' needs an integer element type, got f32

// -----

shard.grid @g(shape = 2x4)
func.func @average_int(%x: tensor<8xi32>) -> tensor<8xi32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = average : tensor<8xi32> -> tensor<8xi32>
  func.return %0 : tensor<8xi32>
}
// CHECK: invalid.mlir:62:3: error: cannot convert 'shard.all_reduce' to StableHLO: reduction kind 'average' needs a float element type, got i32

// -----

shard.grid @g(shape = 2x4)
func.func @memref(%x: memref<8xf32>) -> memref<8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : memref<8xf32> -> memref<8xf32>
  func.return %0 : memref<8xf32>
}
// CHECK: invalid.mlir:71:3: error: cannot convert 'shard.all_reduce' to StableHLO: memref<8xf32> is not a tensor

// -----

shard.grid @g(shape = 2x4)
func.func @index_to_call(%n: index) {
  %i = shard.process_linear_index on @g : index
  %0 = arith.addi %i, %i : index
  func.call @index_to_call(%0) : (index) -> ()
  func.return
}
// CHECK: invalid.mlir:81:3: error: cannot convert 'arith.addi' to StableHLO: its result is used by 'func.call'; values derived from process indices may only feed scalar arith, selects, scf.if conditions, collectives' dynamic operands or be returned

// -----

shard.grid @g(shape = 2x4)
func.func @halo(%x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = shard.update_halo %x on @g split_axes = [[0]] halo_sizes = [3, 1] : tensor<6xf32>
  func.return %0 : tensor<6xf32>
}
// CHECK: invalid.mlir:91:3: error: cannot convert 'shard.update_halo' to StableHLO: halos (3, 1) of dim 0 are wider than its 2 core cells

// -----

shard.grid @g(shape = 2x4)
shard.grid @h(shape = 4)
func.func @two_grids(%x: tensor<8xf32>) -> tensor<8xf32> {
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:99:1: error: cannot convert 'shard.grid' to StableHLO: its 4 devices differ from the 8 of an earlier grid; one program runs on one set of partitions

// -----

shard.grid @g(shape = 2x?)
func.func @dynamic_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:107:1: error: cannot convert 'shard.grid' to StableHLO: a dynamic grid has no fixed number of partitions

// -----

shard.grid @g(shape = 2x4)
func.func @dynamic_halo(%x: tensor<6xf32>, %h: i64) -> tensor<6xf32> {
  %0 = shard.update_halo %x on @g split_axes = [[0]] halo_sizes = [1, %h] : tensor<6xf32>
  func.return %0 : tensor<6xf32>
}
// CHECK: invalid.mlir:117:3: error: cannot convert 'shard.update_halo' to StableHLO: halo sizes must be static

// -----

// Both branches of an scf.if on a process index run everywhere: no collectives
// (nor linalg, which the export does not lower) in them.
shard.grid @g(shape = 2x4)
func.func @if_collective(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [0] : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %p -> (tensor<3xf32>) {
    scf.yield %x : tensor<3xf32>
  } else {
    %s = shard.all_reduce %x on @g grid_axes = [1] : tensor<3xf32> -> tensor<3xf32>
    scf.yield %s : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}
// CHECK: invalid.mlir:131:3: error: cannot convert 'scf.if' to StableHLO: 'shard.all_reduce' in a branch: both branches of an scf.if on a process index run on every device, so they may hold only pure StableHLO ops and scalar arith

// -----

shard.grid @g(shape = 2x4)
func.func @if_fill(%x: tensor<3xf32>) -> tensor<3xf32> {
  %i = shard.process_multi_index on @g axes = [0] : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %p -> (tensor<3xf32>) {
    scf.yield %x : tensor<3xf32>
  } else {
    %f = arith.constant 0.0 : f32
    %s = linalg.fill ins(%f : f32) outs(%x : tensor<3xf32>) -> tensor<3xf32>
    scf.yield %s : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}
// CHECK: invalid.mlir:148:3: error: cannot convert 'scf.if' to StableHLO: 'linalg.fill' in a branch

// -----

shard.grid @g(shape = 2x4)
func.func @if_index(%x: tensor<3xf32>) -> index {
  %i = shard.process_multi_index on @g axes = [0] : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %p -> (index) {
    scf.yield %i : index
  } else {
    scf.yield %c0 : index
  }
  func.return %r : index
}
// CHECK: invalid.mlir:166:3: error: cannot convert 'scf.if' to StableHLO: its result of type index is not a tensor; a condition on a process index becomes a stablehlo.select of tensors

// -----

shard.grid @g(shape = 2x4)
func.func @signed_i1() -> i1 {
  %i = shard.process_multi_index on @g axes = [0] : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %t = arith.constant true
  %q = arith.cmpi slt, %p, %t : i1
  func.return %q : i1
}
// CHECK: invalid.mlir:183:3: error: cannot convert 'arith.cmpi' to StableHLO: a signed ordering of i1 values has no StableHLO comparison

// -----

shard.grid @g(shape = 2x9223372036854775807)
func.func @huge_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  func.return %x : tensor<8xf32>
}
// CHECK: invalid.mlir:190:1: error: cannot convert 'shard.grid' to StableHLO: its 18446744073709551614 devices exceed what mhlo.num_partitions (i32) counts

// -----

shard.grid @g(shape = 2x4)
func.func @returns_a_sharding() -> !shard.sharding {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  func.return %s : !shard.sharding
}
// CHECK: invalid.mlir:{{[0-9]+}}:3: error: 'func.return' uses a !shard.sharding value, which has no StableHLO form
