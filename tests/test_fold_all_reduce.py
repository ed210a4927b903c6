"""Each `// numerics` case of the shard-fold-all-reduce lit test computes, on 8
devices, the same before and after the pass; and the rule's two side conditions
are needed: dropping either makes a negative lit case compute something else."""

from __future__ import annotations

from pathlib import Path

import pytest

import xshard.transforms.simplify.fold_all_reduce as fold
from xshard.sharding.reduction import ReductionKind
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass

LIT = Path(__file__).parent / "filecheck/transforms/shard-fold-all-reduce/fold-all-reduce.mlir"
CASES = numerics_cases(LIT)


def _chunk(function: str) -> str:
    return next(c for c in LIT.read_text().split("// -----") if f"@{function}(" in c)


def test_cases_found():
    assert len(CASES) == 6


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    assert compare_pass(case.text, [fold.FoldAllReducePass()], devices=case.devices).match


def test_sum_over_overlapping_axes_must_not_fold(monkeypatch):
    monkeypatch.setattr(fold, "IDEMPOTENT", frozenset(ReductionKind))
    comparison = compare_pass(_chunk("sum_overlap"), [fold.FoldAllReducePass()], devices=8)
    assert not comparison.match


def test_unreplicated_factor_must_not_move(monkeypatch):
    monkeypatch.setattr(fold, "is_replicated", lambda *_: True)
    text = _chunk("factor_not_replicated")
    after = compare_pass(text, [fold.FoldAllReducePass()], devices=8)
    assert not after.match
