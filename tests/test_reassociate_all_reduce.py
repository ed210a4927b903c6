"""Each `// numerics` case of the shard-reassociate-all-reduce lit test computes, on
8 devices, the same before and after the pass; a select's predicate must be
replicated (without the check, the negative lit case computes something else)."""

from __future__ import annotations

from pathlib import Path

import pytest

import xshard.transforms.simplify.reassociate_all_reduce as reassociate
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass

LIT = (
    Path(__file__).parent
    / "filecheck/transforms/shard-reassociate-all-reduce/reassociate-all-reduce.mlir"
)
CASES = numerics_cases(LIT)


def test_cases_found():
    assert len(CASES) == 4


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    passes = [reassociate.ReassociateAllReducePass()]
    assert compare_pass(case.text, passes, devices=case.devices).match


def test_unreplicated_predicate_must_not_move(monkeypatch):
    monkeypatch.setattr(reassociate, "is_replicated", lambda *_: True)
    text = next(c for c in LIT.read_text().split("// -----") if "@not_all_reduced(" in c)
    comparison = compare_pass(text, [reassociate.ReassociateAllReducePass()], devices=8)
    assert not comparison.match
