"""Cost-aware picks in `sharding-propagation{strategy=aggressive}`: where the layouts
around an op disagree, the loop axes whose reshards take least modeled time win, not
the ones more elements hold."""

from __future__ import annotations

import re

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.run import run_module
from xshard.transforms.propagation.factor_propagation import FactorPropagation
from xshard.transforms.propagation.sharding_propagation import ShardingPropagationPass
from xshard.transforms.propagation.sharding_report import sharding_report

# x (8192 elements) is split on the contracted dim, w (1024) on its output columns:
# one grid axis, two loops. Keeping x's split moves w (all_to_all) and leaves a
# 512x64 partial sum to all-reduce (128 KiB); keeping w's gathers x's 4 KiB blocks.
CONFLICT = """
shard.grid @g(shape = 8)
func.func @main(%x: tensor<512x16xf32>, %w: tensor<16x64xf32>) -> tensor<512x64xf32> {
  %cols = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %cols : tensor<512x16xf32>
  %w_s = shard.shard %w to %cols : tensor<16x64xf32>
  %y = stablehlo.dot_general %x_s, %w_s, contracting_dims = [1] x [0] : (tensor<512x16xf32>, tensor<16x64xf32>) -> tensor<512x64xf32>
  func.return %y : tensor<512x64xf32>
}
"""


def _collectives() -> list[tuple[str, int, int]]:
    module = LocatingParser(xshard_context(), CONFLICT, "<conflict>").parse_module()
    report = run_module(module, 8)
    assert report.match
    return [(c.op, c.count, c.bytes) for c in report.collectives]


def test_the_cheaper_loop_keeps_the_axis():
    assert _collectives() == [("all_gather", 1, 512 * 2 * 4)]


def test_without_the_cost_model_the_larger_tensor_kept_it(monkeypatch):
    monkeypatch.setattr(FactorPropagation, "cheapest", lambda self, *args: args[-1])
    assert _collectives() == [("all_to_all", 1, 16 * 8 * 4), ("all_reduce", 1, 512 * 64 * 4)]


def test_the_why_table_shows_the_choice_cheaper_than_its_best_alternative():
    module = LocatingParser(xshard_context(), CONFLICT, "<conflict>").parse_module()
    ShardingPropagationPass(strategy="aggressive").apply(xshard_context(), module)
    report = sharding_report(module)
    why = report.split("// why:")[1]
    row = next(line for line in why.splitlines() if line.startswith("// stablehlo.dot_general"))
    chosen, best = (float(x) for x in re.findall(r"\s(\d+\.\d+)", row))
    assert 0 < chosen < best, row
