"""Partitioned TCP programs run on 8 simulated devices, checked against one device.

The filecheck tests of `shard-partition` pin the per-device TCP each model writes;
these prove it computes the global program. Each case is an annotated global TCP
program that `run_module` puts through `xshard-spmd` (propagation, partition,
simplify, `convert-tcp-to-stablehlo`, `convert-shard-to-stablehlo`), runs with each
device's block of the inputs, and compares, reassembled by the result shardings,
with the unannotated program lowered and run on one device. Each case also pins a
local type and the collectives of the per-device program, so a case that ran
replicated, or settled a partial value earlier than the annotations ask, fails.
"""

from __future__ import annotations

import pytest

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.run import run_module

GRID_8 = "shard.grid @g(shape = 8)"
GRID_2X4 = "shard.grid @g(shape = 2x4)"


# (id, grid, function body, a string the per-device program must contain (a local
# type), the collectives each device runs: op -> count)
CASES = [
    (
        # Two contractions over a split K, each partial sum; add keeps the sum
        # partial, mul by a replicated operand and neg pass it through; the
        # result settles once, split.
        "elementwise-partial-flow",
        GRID_8,
        """
func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %u: tensor<4x16xf32>,
                %v: tensor<16x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sk = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %sk0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %sp = shard.sharding @g split_axes = [[], []] partial = sum [0] : !shard.sharding
  %sr = shard.sharding @g split_axes = [[], []] : !shard.sharding
  %so = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %sk : tensor<4x16xf32>
  %w1 = shard.shard %w to %sk0 : tensor<16x8xf32>
  %u1 = shard.shard %u to %sk : tensor<4x16xf32>
  %v1 = shard.shard %v to %sk0 : tensor<16x8xf32>
  %y1 = shard.shard %y to %sr : tensor<4x8xf32>
  %a = tcp.matmul %x1, %w1 : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %b = tcp.matmul %u1, %v1 : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %c = tcp.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %d = tcp.mul %c, %y1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = tcp.neg %d : tensor<4x8xf32> -> tensor<4x8xf32>
  %e1 = shard.shard %e to %sp : tensor<4x8xf32>
  %e2 = shard.shard %e1 to %so annotate_for_users : tensor<4x8xf32>
  func.return %e2 : tensor<4x8xf32>
}""",
        "tensor<4x2xf32>, tensor<2x8xf32>",
        {"reduce_scatter": 1},
    ),
    (
        "matmul-split-rows-and-columns",
        GRID_2X4,
        """
func.func @main(%x: tensor<8x6xf32>, %w: tensor<6x16xf32>) -> tensor<8x16xf32> {
  %sx = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %sw = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %so = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x1 = shard.shard %x to %sx : tensor<8x6xf32>
  %w1 = shard.shard %w to %sw : tensor<6x16xf32>
  %m = tcp.matmul %x1, %w1 : tensor<8x6xf32>, tensor<6x16xf32> -> tensor<8x16xf32>
  %m1 = shard.shard %m to %so : tensor<8x16xf32>
  func.return %m1 : tensor<8x16xf32>
}""",
        "tensor<4x4xf32>",
        {},
    ),
    (
        # K split over both axes: a sum over 8 devices; batched, batch replicated.
        "matmul-split-contracting",
        GRID_2X4,
        """
func.func @main(%x: tensor<2x4x16xf32>, %w: tensor<2x16x3xf32>) -> tensor<2x4x3xf32> {
  %sx = shard.sharding @g split_axes = [[], [], [0, 1]] : !shard.sharding
  %sw = shard.sharding @g split_axes = [[], [0, 1]] : !shard.sharding
  %so = shard.sharding @g split_axes = [[], [], []] : !shard.sharding
  %x1 = shard.shard %x to %sx : tensor<2x4x16xf32>
  %w1 = shard.shard %w to %sw : tensor<2x16x3xf32>
  %m = tcp.matmul %x1, %w1 : tensor<2x4x16xf32>, tensor<2x16x3xf32> -> tensor<2x4x3xf32>
  %m1 = shard.shard %m to %so : tensor<2x4x3xf32>
  func.return %m1 : tensor<2x4x3xf32>
}""",
        "tensor<2x4x2xf32>, tensor<2x2x3xf32>",
        {"all_reduce": 1},
    ),
    (
        # reduce_sum over a split dim (partial sum), reduce_max over a split dim
        # (partial max) and reduce_sum over a replicated dim with the kept dim split.
        "reduce-split-reduced-and-kept",
        GRID_2X4,
        """
func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>)
    -> (tensor<8x1xf32>, tensor<1x16xf32>, tensor<8x1xf32>) {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x16xf32>
  %a = tcp.reduce_sum %x1 {axes = [1]} : tensor<8x16xf32> -> tensor<8x1xf32>
  %b = tcp.reduce_max %x1 {axes = [0]} : tensor<8x16xf32> -> tensor<1x16xf32>
  %x2 = shard.shard %y to %s0 : tensor<8x16xf32>
  %c = tcp.reduce_sum %x2 {axes = [1]} : tensor<8x16xf32> -> tensor<8x1xf32>
  %a1 = shard.shard %a to %s0 : tensor<8x1xf32>
  %b1 = shard.shard %b to %s1 : tensor<1x16xf32>
  %c1 = shard.shard %c to %s0 : tensor<8x1xf32>
  func.return %a1, %b1, %c1 : tensor<8x1xf32>, tensor<1x16xf32>, tensor<8x1xf32>
}""",
        "tensor<4x1xf32>",
        {"all_reduce": 2},
    ),
    (
        # The broadcast axis split on axis 0, the kept axis on axis 1.
        "broadcast-split-broadcast-and-kept",
        GRID_2X4,
        """
func.func @main(%x: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %c8 = arith.constant 8 : index
  %b = tcp.broadcast %x, %c8 {axes = [0]} : tensor<1x16xf32>, index -> tensor<8x16xf32>
  %b1 = shard.shard %b to %s : tensor<8x16xf32>
  func.return %b1 : tensor<8x16xf32>
}""",
        "(tensor<1x4xf32>) -> tensor<4x4xf32>",
        {},
    ),
    (
        "const-splat-and-dense",
        GRID_8,
        """
func.func @main(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x2xf32>
  %k = tcp.const {value = dense<1.5> : tensor<8x2xf32>} : tensor<8x2xf32>
  %d = tcp.const {value = dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0],
                                 [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0]]>
                  : tensor<8x2xf32>} : tensor<8x2xf32>
  %a = tcp.mul %x1, %k : tensor<8x2xf32>, tensor<8x2xf32> -> tensor<8x2xf32>
  %b = tcp.add %a, %d : tensor<8x2xf32>, tensor<8x2xf32> -> tensor<8x2xf32>
  %b1 = shard.shard %b to %s : tensor<8x2xf32>
  func.return %b1 : tensor<8x2xf32>
}""",
        "tensor<1x2xf32>",
        {},
    ),
    (
        "slice-whole-split-dim",
        GRID_2X4,
        """
func.func @main(%x: tensor<8x12xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x12xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %y = tcp.slice %x1 starts(%c0, %c1) sizes(%c8, %c4) strides(%c1, %c2)
    : tensor<8x12xf32> -> tensor<8x4xf32>
  %y1 = shard.shard %y to %s : tensor<8x4xf32>
  func.return %y1 : tensor<8x4xf32>
}""",
        "(tensor<1x12xf32>) -> tensor<1x4xf32>",
        {},
    ),
    (
        # A split cast; casts of partial values, forced before the reduction: a
        # widening of a partial max, a float-to-int of a partial max, and an integer
        # truncation of a partial sum (exact mod 2^8). Max and integer sums are
        # exact, so any error is a wrong block, not rounding.
        "cast-split-and-partial",
        GRID_8,
        """
func.func @main(%x: tensor<16x4xf32>, %y: tensor<4x16xf32>, %i: tensor<4x16xi32>,
                %j: tensor<16x2xi32>)
    -> (tensor<16x4xf16>, tensor<4x1xf64>, tensor<4x1xi32>, tensor<4x2xi8>) {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %sk = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %sr = shard.sharding @g split_axes = [[], []] : !shard.sharding
  %pmax = shard.sharding @g split_axes = [[], []] partial = max [0] : !shard.sharding
  %psum = shard.sharding @g split_axes = [[], []] partial = sum [0] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<16x4xf32>
  %y1 = shard.shard %y to %sk : tensor<4x16xf32>
  %i1 = shard.shard %i to %sk : tensor<4x16xi32>
  %j1 = shard.shard %j to %s : tensor<16x2xi32>
  %h = tcp.cast %x1 : tensor<16x4xf32> -> tensor<16x4xf16>
  %m = tcp.reduce_max %y1 {axes = [1]} : tensor<4x16xf32> -> tensor<4x1xf32>
  %wide = tcp.cast %m : tensor<4x1xf32> -> tensor<4x1xf64>
  %int = tcp.cast %m {out_int_signedness = #tcp<signedness Signed>}
    : tensor<4x1xf32> -> tensor<4x1xi32>
  %n = tcp.matmul %i1, %j1 : tensor<4x16xi32>, tensor<16x2xi32> -> tensor<4x2xi32>
  %narrow = tcp.cast %n {in_int_signedness = #tcp<signedness Signed>,
                         out_int_signedness = #tcp<signedness Signed>}
    : tensor<4x2xi32> -> tensor<4x2xi8>
  %h1 = shard.shard %h to %s : tensor<16x4xf16>
  %wide1 = shard.shard %wide to %pmax : tensor<4x1xf64>
  %wide2 = shard.shard %wide1 to %sr annotate_for_users : tensor<4x1xf64>
  %int1 = shard.shard %int to %pmax : tensor<4x1xi32>
  %int2 = shard.shard %int1 to %sr annotate_for_users : tensor<4x1xi32>
  %narrow1 = shard.shard %narrow to %psum : tensor<4x2xi8>
  %narrow2 = shard.shard %narrow1 to %sr annotate_for_users : tensor<4x2xi8>
  func.return %h1, %wide2, %int2, %narrow2
    : tensor<16x4xf16>, tensor<4x1xf64>, tensor<4x1xi32>, tensor<4x2xi8>
}""",
        "(tensor<4x2xi8>) -> tensor<4x2xi8>",  # the i8 all_reduce: cast, then sum
        {"all_reduce": 3},
    ),
]


@pytest.mark.parametrize(
    ("grid", "body", "partitioned", "collectives"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_partitioned_tcp_matches_one_device(
    grid: str, body: str, partitioned: str, collectives: dict[str, int]
) -> None:
    module = LocatingParser(xshard_context(), f"{grid}\n{body}", "<tcp>").parse_module()
    report = run_module(module, 8, seed=5)
    text = str(report.stablehlo)
    assert "tcp." not in text
    assert partitioned in text
    assert {c.op: c.count for c in report.collectives} == collectives
    assert report.match, f"max abs error {report.max_abs_error}\n{text}"
