// `--verify-diagnostics` checks `expected-error` annotations as mlir-opt does: this
// file passes (exit 0, no diagnostic printed), and with one annotation's text changed
// the run fails, naming the expectation not met and the error not expected. The
// same RUN line holds with mlir-opt-22 on the first two chunks (same messages).
// RUN: xshard-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=PASS
// RUN: sed 's/grid axis duplicated/something else/' %s > %t.mlir
// RUN: not xshard-opt %t.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=FAIL

// PASS-NOT: error

shard.grid @g(shape = 2)

// expected-error @+1 {{grid axis duplicated}}
%s = shard.sharding @g split_axes = [[0, 0]] : !shard.sharding

// FAIL: expected-diagnostics.mlir.tmp.mlir:14: error: expected error "something else" was not produced
// FAIL-NEXT: expected-diagnostics.mlir.tmp.mlir:14:1: error: unexpected error: grid axis duplicated

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = shard.sharding @nope split_axes = [[0]] : !shard.sharding // expected-error {{Undefined required grid symbol "nope"}}
  func.return %x : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2)
// expected-error @below {{halo sizes must be non-negative}}
%t = shard.sharding @g split_axes = [[0]] halo_sizes = [-1, 1] : !shard.sharding
