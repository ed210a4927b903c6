"""The resharding matrix: every ordered pair of a family of 2-D shardings, planned.

The family, for a 2-D grid: each tensor dim unsplit, split on axis 0, on axis 1, or
on both in either order (no grid axis used twice), plus a sum-partial variant over
each non-empty set of the axes the split leaves free. `reshard_matrix` plans each
ordered pair; a pair the planner refuses (only a dim that its shards do not divide)
keeps the reason, with the axis lists blanked so that refusals of one kind share one
reason.
"""

import re
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, product

from xshard.sharding.grid import Grid
from xshard.sharding.resharding import ReshardError, ReshardPlan, plan_reshard
from xshard.sharding.sharding import Sharding

__all__ = ["MatrixPair", "matrix_shardings", "refusal_counts", "reshard_matrix", "step_counts"]


def _dim_choices(rank: int) -> list[tuple[int, ...]]:
    """Unsplit, each axis alone, and every ordered pair of axes."""
    return [
        (),
        *((a,) for a in range(rank)),
        *(p for p in product(range(rank), repeat=2) if p[0] != p[1]),
    ]


def matrix_shardings(grid: Grid) -> list[Sharding]:
    """The family above for a 2-D tensor on `grid`, splits first, then partial variants."""
    splits = [
        (d0, d1) for d0, d1 in product(_dim_choices(grid.rank), repeat=2) if not set(d0) & set(d1)
    ]
    shardings = [Sharding(grid.name, split) for split in splits]
    for split in splits:
        free = [a for a in range(grid.rank) if a not in (*split[0], *split[1])]
        for k in range(1, len(free) + 1):
            for axes in combinations(free, k):
                shardings.append(Sharding(grid.name, split, axes))
    return shardings


@dataclass(frozen=True)
class MatrixPair:
    """One ordered pair: its plan, or why the planner refuses it."""

    src: Sharding
    dst: Sharding
    plan: ReshardPlan | None
    refusal: str | None = None


def _reason(error: ReshardError) -> str:
    text = str(error).split(": ", 1)[-1]
    return re.sub(r"\[[\d, ]*\]", "[..]", text)


def reshard_matrix(grid: Grid, shape: tuple[int, int], elem_bytes: int = 4) -> list[MatrixPair]:
    """Every ordered pair of `matrix_shardings(grid)` for a tensor of `shape`."""
    family = matrix_shardings(grid)
    pairs = []
    for src, dst in product(family, repeat=2):
        try:
            pairs.append(MatrixPair(src, dst, plan_reshard(src, dst, shape, grid, elem_bytes)))
        except ReshardError as error:
            pairs.append(MatrixPair(src, dst, None, _reason(error)))
    return pairs


def refusal_counts(pairs: list[MatrixPair]) -> Counter[str]:
    return Counter(p.refusal for p in pairs if p.refusal is not None)


def step_counts(pairs: list[MatrixPair]) -> Counter[str]:
    """How often each collective appears over all plans, by its shard op name."""
    return Counter(
        str(step).split(" ", 1)[0] for p in pairs if p.plan is not None for step in p.plan.steps
    )
