"""Each `// numerics` case of the shard-move-all-gather-down lit test computes, on 8
devices, the same before and after the pass; moving a gather past an operand that
differs per device would not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xshard.sharding.arrays import random_inputs
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass, parse, run_per_device
from xshard.transforms.export.entry import entry_function
from xshard.transforms.simplify.move_all_gather_down import MoveAllGatherDownPass

LIT = (
    Path(__file__).parent
    / "filecheck/transforms/shard-move-all-gather-down/move-all-gather-down.mlir"
)
CASES = numerics_cases(LIT)

# What the pass would emit for `add(all_gather(x), y)` without the replication check.
UNCHECKED_BEFORE = """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<2xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  %1 = stablehlo.add %0, %y : tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
"""
UNCHECKED_AFTER = """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<2xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = shard.all_slice %y on @g grid_axes = [1] slice_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %1 = stablehlo.add %x, %0 : tensor<2xf32>
  %2 = shard.all_gather %1 on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  func.return %2 : tensor<8xf32>
}
"""


def test_cases_found():
    assert len(CASES) == 9


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    assert compare_pass(case.text, [MoveAllGatherDownPass()], devices=case.devices).match


def test_unreplicated_operand_would_change_results():
    before, after = parse(UNCHECKED_BEFORE), parse(UNCHECKED_AFTER)
    rng = np.random.default_rng(0)
    per_device = [random_inputs(entry_function(before), rng) for _ in range(8)]
    inputs = [[per_device[d][i] for d in range(8)] for i in range(2)]
    (b,) = run_per_device(before, 8, inputs)
    (a,) = run_per_device(after, 8, inputs)
    assert max(float(np.abs(x - y).max()) for x, y in zip(b, a, strict=True)) > 0.1
