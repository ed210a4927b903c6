"""Each `// numerics` case of the shard-reassociate-reduce-scatter lit test computes,
on 8 devices, the same before and after the pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass
from xshard.transforms.simplify.reassociate_reduce_scatter import ReassociateReduceScatterPass

LIT = (
    Path(__file__).parent
    / "filecheck/transforms/shard-reassociate-reduce-scatter/reassociate-reduce-scatter.mlir"
)
CASES = numerics_cases(LIT)


def test_cases_found():
    assert len(CASES) == 3


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case):
    passes = [ReassociateReduceScatterPass()]
    assert compare_pass(case.text, passes, devices=case.devices).match
