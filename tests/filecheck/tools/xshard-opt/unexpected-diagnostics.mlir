// Under --verify-diagnostics, a file that carries expected-error annotations is
// checked as mlir-opt checks it, every chunk of it: a chunk without annotations must
// report nothing, so its error, a verifier's or a parser's, fails the run (exit 1) as
// an unexpected error. The annotated chunk still passes, and the valid one prints.
// (A file without any annotation keeps xshard's printing mode: expected-diagnostics.mlir.)
// RUN: not xshard-opt %s --split-input-file --verify-diagnostics 2>%t.err | filecheck %s --check-prefix=OUT
// RUN: filecheck %s --input-file=%t.err --check-prefix=ERR

shard.grid @g(shape = 2)
// expected-error @+1 {{grid axis duplicated}}
%s = shard.sharding @g split_axes = [[0, 0]] : !shard.sharding

// -----

shard.grid @g(shape = 2)
%s = shard.sharding @g split_axes = [[0, 0]] : !shard.sharding

// -----

func.func @valid() {
  return
}

// -----

func.func @unclosed(

// OUT:     func.func @valid()
// OUT-NOT: error

// ERR:      unexpected-diagnostics.mlir:16:1: error: unexpected error: grid axis duplicated
// ERR-NEXT: unexpected-diagnostics.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unexpected error:
// ERR-NOT:  error
