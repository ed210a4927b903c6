"""`shard-partition` preserves meaning: the partitioned program, run by XLA on 2 or 8
simulated CPU devices, computes what the unpartitioned program computes on one.

Each case is a global program with a few annotations, run by `xshard.jax.run.run_module`:
it goes through `sharding-propagation`, `shard-partition` and
`convert-shard-to-stablehlo{target=cpu}`; each device gets its block of every
argument (`simulate.distribute`) and the per-device results are put back together
(`simulate.assemble`, which also sums partial results) under the function's result
annotations. The reference is the same program with its annotations stripped, run on
one device.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.run import run_module

MLP = (Path(__file__).parents[1] / "examples" / "mlp_1d.mlir").read_text()

# dot_general split on its contracting dim (partial), a split reduce, an iota split
# along its own dim and a non-splat constant, ending in a reshard that moves a split
# to another dim (all_to_all).
MIXED = """
shard.grid @g(shape = 2x4)
func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>, tensor<8x8xf32>) {
  %sa = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %sa : tensor<8x16xf32>
  %d = stablehlo.dot_general %a1, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %i = stablehlo.iota dim = 1 : tensor<8x8xf32>
  %c = stablehlo.constant dense<[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0]> : tensor<8xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %m = stablehlo.multiply %i, %cb : tensor<8x8xf32>
  %so = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %m1 = shard.shard %m to %so : tensor<8x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%a1 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %st = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %t1 = shard.shard %t to %st annotate_for_users : tensor<8x8xf32>
  func.return %t1, %r, %m1 : tensor<8x8xf32>, tensor<8xf32>, tensor<8x8xf32>
}
"""

# Reshards the planner needs several steps for: swapping axes between dims, and
# partial max settled into a split.
RESHARDS = """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x16xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<8x8xf32>
  %e = stablehlo.exponential %x1 : tensor<8x8xf32>
  %sw = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %e1 = shard.shard %e to %sw annotate_for_users : tensor<8x8xf32>
  %sy = shard.sharding @g split_axes = [[], [0, 1]] : !shard.sharding
  %y1 = shard.shard %y to %sy : tensor<8x16xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.reduce(%y1 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %sr = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %r1 = shard.shard %r to %sr annotate_for_users : tensor<8xf32>
  func.return %e1, %r1 : tensor<8x8xf32>, tensor<8xf32>
}
"""


def parse(text: str) -> ModuleOp:
    return LocatingParser(xshard_context(), text, "<test>").parse_module()


def check(text: str, devices: int) -> None:
    report = run_module(parse(text), devices)
    assert report.match, f"max abs error {report.max_abs_error}"


@pytest.mark.parametrize("n", [2, 8])
def test_rfc_mlp(n: int) -> None:
    check(MLP.replace("shard.grid @grid0(shape = 2)", f"shard.grid @grid0(shape = {n})"), n)


def test_partial_sources_and_all_to_all() -> None:
    check(MIXED, 8)


def test_multi_step_reshards() -> None:
    check(RESHARDS, 8)
