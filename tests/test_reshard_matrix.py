"""The resharding matrix (issue 5): every ordered pair of 18 shardings of an 8x16 tensor
on a 2x4 grid is planned, partitioned, converted and run on 8 simulated CPU devices by
`tools/reshard_matrix.py` (one XLA compile per source sharding). Each result must equal
the global tensor exactly, and the converted program must hold the plan's steps, no
more and no fewer. None is refused: a target partial over an axis where the source is
not is reached by `make_partial`, which needs no collective.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

from xshard.sharding.matrix import matrix_shardings, refusal_counts, step_counts
from xshard.sharding.resharding import MakePartial

_TOOL = Path(__file__).parents[1] / "tools" / "reshard_matrix.py"
_spec = importlib.util.spec_from_file_location("reshard_matrix", _TOOL)
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = tool  # its dataclasses look their module up
_spec.loader.exec_module(tool)


@pytest.fixture(scope="module")
def matrix():
    pairs, runs = tool.run_matrix()
    print("\n" + tool.report(pairs, runs, tool.SHAPE))
    return pairs, runs


def test_the_family_is_the_issue_s():
    family = matrix_shardings(tool.GRID)
    assert len(set(family)) == len(family) == 18
    splits = {s.split_axes for s in family if not s.is_partial}
    assert len(splits) == 11  # 1 unsplit, 4 + 4 with one split dim, 2 with both
    assert sum(s.is_partial for s in family) == 7  # 3 of the unsplit, 1 each of 4 splits


def test_every_pair_is_planned_and_run(matrix):
    pairs, runs = matrix
    assert len(pairs) == len(runs) == 324
    assert not refusal_counts(pairs)


def test_new_partial_axes_and_only_they_are_made_partial(matrix):
    pairs, _ = matrix
    made = {
        (p.src, p.dst)
        for p in pairs
        if p.plan and any(isinstance(s, MakePartial) for s in p.plan.steps)
    }
    new_partial = {
        (p.src, p.dst) for p in pairs if not set(p.dst.partial_axes) <= set(p.src.partial_axes)
    }
    assert made == new_partial and len(made) == 101


def test_every_collective_kind_is_exercised(matrix):
    pairs, _ = matrix
    assert step_counts(pairs) == {
        "all_gather": 148,
        "all_reduce": 27,
        "all_slice": 76,
        "all_to_all": 202,
        "make_partial": 101,
        "reduce_scatter": 80,
    }


def test_every_planned_pair_gives_back_the_global_tensor(matrix):
    _, runs = matrix
    wrong = [f"{r.pair.src} -> {r.pair.dst}: {r.error}" for r in runs if r.error]
    assert not wrong, "\n".join(wrong)


def test_the_converted_program_runs_the_plan(matrix):
    _, runs = matrix
    extra = [
        f"{r.pair.src} -> {r.pair.dst}: planned {tool.expected_ops(r.plan)}, ran {r.ops}"
        for r in runs
        if r.ops != tool.expected_ops(r.plan)
    ]
    assert not extra, "\n".join(extra)
