"""Each `// numerics` case of the shard-split-all-reduce lit test computes, on 8
devices, the same before and after the pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass
from xshard.transforms.simplify.split_all_reduce import SplitAllReducePass

LIT = Path(__file__).parent / "filecheck/transforms/shard-split-all-reduce/split-all-reduce.mlir"
CASES = numerics_cases(LIT)


def test_cases_found():
    assert len(CASES) == 1


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    assert compare_pass(case.text, [SplitAllReducePass()], devices=case.devices).match
