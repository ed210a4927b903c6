"""shard-cancel-inverse-pairs keeps every device's results, and the fold it refuses
(upstream's unconditional `all_gather(all_slice(x))` -> `x`) would change them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xshard.dialects.shard import AllGatherOp, AllSliceOp
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass
from xshard.transforms.simplify.cancel_inverse_pairs import CancelInversePairsPass

LIT = (
    Path(__file__).parent
    / "filecheck/transforms/shard-cancel-inverse-pairs/cancel-inverse-pairs.mlir"
)
CASES = numerics_cases(LIT)

SLICE_THEN_GATHER = """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [1] slice_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %1 = shard.all_gather %0 on @g grid_axes = [1] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
"""


@dataclass(frozen=True)
class _UpstreamFold(ModulePass):
    """Folds every `all_gather(all_slice(x))` pair to `x`, with no replication check."""

    name = "upstream-fold"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for gather in [o for o in op.walk() if isinstance(o, AllGatherOp)]:
            inner = gather.input.owner
            assert isinstance(inner, AllSliceOp)
            gather.result.replace_all_uses_with(inner.input)
            gather.detach()
            gather.erase()


def test_cases_found():
    assert len(CASES) == 4


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    assert compare_pass(case.text, [CancelInversePairsPass()], devices=case.devices).match


def test_unchecked_fold_changes_results():
    assert compare_pass(SLICE_THEN_GATHER, [CancelInversePairsPass()], devices=8).match
    wrong = compare_pass(SLICE_THEN_GATHER, [_UpstreamFold()], devices=8)
    assert not wrong.match
    assert wrong.max_abs_error > 0.1
