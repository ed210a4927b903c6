"""The integer program behind `auto-sharding`, free of IR: groups of strategies, costs, memory.

Alpa's formulation: a one-hot binary vector `s_g` per decision group `g`; each pair of
groups joined by edges gets one continuous variable `e_ab` per pair of strategies with
`sum_b e_ab = s_ga` and `sum_a e_ab = s_hb`, which forces `e_ab = s_ga * s_hb` once the
`s` are integral, so the product costs stay linear. A pair that cannot be resharded
(an infinite cost) gets no variable: the equalities then forbid it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import inf, isfinite
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

SCALE = 1e6
"""Costs are seconds; the solver sees microseconds, so that HiGHS's absolute tolerances
(about 1e-7) do not round small reshards to nothing."""


@dataclass
class Problem:
    """`linear[g][a]`: cost of strategy `a` of group `g` (inf: forbidden); `pairs[(g, h)]`:
    cost matrix over the strategies of `g` (rows) and `h` (columns), `g < h`;
    `memory[g][a]`: bytes per device; `limit`: the most bytes per device, with `base`
    bytes no decision changes."""

    linear: list[list[float]] = field(default_factory=list)
    pairs: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    memory: list[list[int]] = field(default_factory=list)
    base: int = 0
    limit: int | None = None

    def add_group(self, size: int) -> int:
        self.linear.append([0.0] * size)
        self.memory.append([0] * size)
        return len(self.linear) - 1

    def add_pair(self, g: int, h: int, costs: np.ndarray) -> None:
        """Add `costs[a, b]`, the cost of `g` taking `a` while `h` takes `b` (`g != h`)."""
        if g > h:
            g, h, costs = h, g, costs.T
        have = self.pairs.get((g, h))
        self.pairs[(g, h)] = costs if have is None else have + costs

    def least_memory(self) -> int:
        return self.base + sum(min(m) for m in self.memory)


@dataclass(frozen=True)
class Solution:
    choice: list[int]
    cost: float
    """Modeled seconds of the chosen plan."""
    memory: int
    """Bytes per device of the chosen plan."""
    seconds: float
    """Solver wall time."""


class Infeasible(Exception):
    """No plan meets the memory limit with feasible reshards."""


def solve(p: Problem) -> Solution:
    # Importing scipy takes ~0.5 s and ~50 MiB, numpy ~0.1 s and ~11 MiB: only a solve
    # pays for them (`xshard-spmd` imports this module, and seldom solves).
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_array

    if not p.linear:
        return Solution([], 0.0, p.base, 0.0)
    offsets = np.cumsum([0] + [len(c) for c in p.linear])
    n_s = int(offsets[-1])
    cost = [c * SCALE if isfinite(c) else 0.0 for row in p.linear for c in row]
    upper = [1.0 if isfinite(c) else 0.0 for row in p.linear for c in row]
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    lower_b: list[float] = []
    upper_b: list[float] = []

    def row(entries: list[tuple[int, float]], lo: float, hi: float) -> None:
        r = len(lower_b)
        for col, val in entries:
            rows.append(r)
            cols.append(col)
            vals.append(val)
        lower_b.append(lo)
        upper_b.append(hi)

    for g, c in enumerate(p.linear):
        row([(int(offsets[g]) + a, 1.0) for a in range(len(c))], 1.0, 1.0)
    for (g, h), m in p.pairs.items():
        # e[a, :] sums to s_ga, e[:, b] to s_hb
        by_row = [[(int(offsets[g]) + a, -1.0)] for a in range(m.shape[0])]
        by_col = [[(int(offsets[h]) + b, -1.0)] for b in range(m.shape[1])]
        for a, b in zip(*np.nonzero(np.isfinite(m)), strict=True):
            var = len(cost)
            cost.append(float(m[a, b]) * SCALE)
            upper.append(1.0)
            by_row[a].append((var, 1.0))
            by_col[b].append((var, 1.0))
        for entries in (*by_row, *by_col):
            row(entries, 0.0, 0.0)
    if p.limit is not None:
        mem = [(i, float(m) / p.limit) for i, m in enumerate(x for r in p.memory for x in r)]
        row(mem, -inf, 1.0 - p.base / p.limit)
    n = len(cost)
    matrix = coo_array((vals, (rows, cols)), shape=(len(lower_b), n)).tocsr()
    integrality = np.zeros(n)
    integrality[:n_s] = 1
    start = time.perf_counter()
    result = milp(
        np.array(cost),
        integrality=integrality,
        bounds=Bounds(np.zeros(n), np.array(upper)),
        constraints=LinearConstraint(matrix, lower_b, upper_b),
    )
    seconds = time.perf_counter() - start
    if result.x is None:
        raise Infeasible(result.message)
    x = result.x[:n_s]
    choice = [int(np.argmax(x[offsets[g] : offsets[g + 1]])) for g in range(len(p.linear))]
    memory = p.base + sum(m[a] for m, a in zip(p.memory, choice, strict=True))
    return Solution(choice, plan_cost(p, choice), memory, seconds)


def plan_cost(p: Problem, choice: list[int]) -> float:
    """The modeled seconds of one choice per group."""
    total = sum(c[a] for c, a in zip(p.linear, choice, strict=True))
    return total + sum(float(m[choice[g], choice[h]]) for (g, h), m in p.pairs.items())
