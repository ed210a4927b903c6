// RUN: xshard-opt %s -p convert-shard-queries-to-stablehlo --split-input-file --verify-diagnostics | filecheck %s

// A value derived from a process index has no StableHLO form outside scalar arith,
// selects, scf.if conditions, shard ops and returns: reported where it is defined.
shard.grid @g(shape = 2x4)
func.func @index_to_call(%n: index) {
  %i = shard.process_linear_index on @g : index
  %0 = arith.addi %i, %n : index
  func.return
}
// CHECK: invalid.mlir:8:3: error: cannot convert 'arith.addi' to StableHLO: an index operand must be an arith.constant, a shard process query or scalar arith on them, got the result of 'a block'

// -----

shard.grid @g(shape = 2x4)
func.func @index_to_call(%n: index) {
  %i = shard.process_linear_index on @g : index
  func.call @index_to_call(%i) : (index) -> ()
  func.return
}
// CHECK: invalid.mlir:17:3: error: cannot convert 'shard.process_linear_index' to StableHLO: its result is used by 'func.call'; values derived from process indices may only feed scalar arith, selects, scf.if conditions, collectives' dynamic operands or be returned
