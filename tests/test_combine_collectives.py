"""Each `// numerics` case of the shard-combine-collectives lit test computes, on 8
devices, the same before and after the pass; and the pass in shard-simplify brings the
data-parallel gradient of a 3-layer MLP down to one all-reduce."""

from __future__ import annotations

from pathlib import Path

import pytest

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.run import run_module
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass
from xshard.transforms.simplify.combine_collectives import CombineCollectivesPass

LIT = (
    Path(__file__).parent
    / "filecheck/transforms/shard-combine-collectives/combine-collectives.mlir"
)
CASES = numerics_cases(LIT)


def test_cases_found():
    assert len(CASES) == 6


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    assert compare_pass(case.text, [CombineCollectivesPass()], devices=case.devices).match


GRADIENT = """
shard.grid @g(shape = 8)
func.func @main(%x: tensor<32x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>, %w3: tensor<16x4xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x4xf32>) {
  %b = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %b : tensor<32x16xf32>
  %h1 = stablehlo.dot_general %xs, %w1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %h2 = stablehlo.dot_general %h1, %w2, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %y = stablehlo.dot_general %h2, %w3, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x4xf32>) -> tensor<32x4xf32>
  %g3 = stablehlo.dot_general %h2, %y, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x4xf32>) -> tensor<16x4xf32>
  %d2 = stablehlo.dot_general %y, %w3, contracting_dims = [1] x [1] : (tensor<32x4xf32>, tensor<16x4xf32>) -> tensor<32x16xf32>
  %g2 = stablehlo.dot_general %h1, %d2, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
  %d1 = stablehlo.dot_general %d2, %w2, contracting_dims = [1] x [1] : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %g1 = stablehlo.dot_general %xs, %d1, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
  return %g1, %g2, %g3 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x4xf32>
}
"""


@pytest.mark.parametrize("simplify", [False, True])
def test_gradient_all_reduces_are_combined_by_shard_simplify(simplify):
    module = LocatingParser(xshard_context(), GRADIENT, "<gradient>").parse_module()
    report = run_module(module, 8, simplify=simplify)
    assert report.match
    assert report.count("all_reduce") == (1 if simplify else 3)
