"""The integer program behind `auto-sharding`, free of IR: groups of strategies, costs, memory.

Alpa's formulation: a one-hot binary vector `s_g` per decision group `g`; each pair of
groups joined by edges gets one continuous variable `e_ab` per pair of strategies with
`sum_b e_ab = s_ga` and `sum_a e_ab = s_hb`, which forces `e_ab = s_ga * s_hb` once the
`s` are integral, so the product costs stay linear. A pair that cannot be resharded
(an infinite cost) gets no variable: the equalities then forbid it.

The pair variables join classes of strategies, not strategies: strategies of `g`
whose rows of the pair's costs (and copy sizes) are equal, as when they lay the
values between the two groups out alike, are one class `u`, and `sum_w e_uw` equals
the sum of their `s_ga` (so for `h`). The marginals are still one-hot once the `s` are
integral, so `e_uw` is still the product, with as many variables as distinct layouts
meet: on a 2x4 grid at 1/2 of replication, the transformer block's 57665 became 30040.
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


def _accumulate(
    pairs: dict[tuple[int, int], np.ndarray], g: int, h: int, matrix: np.ndarray
) -> None:
    """Add `matrix` (rows: `g`'s strategies) to `pairs`, keyed by the smaller group first."""
    if g > h:
        g, h, matrix = h, g, matrix.T
    have = pairs.get((g, h))
    pairs[(g, h)] = matrix if have is None else have + matrix


@dataclass
class MemoryPoint:
    """The bytes per device live at one point of the program: `base`, which no decision
    changes, `terms[g][a]` when group `g` takes strategy `a`, and `pairs[(g, h)][a, b]`
    when `g` takes `a` while `h` takes `b` (a copy a reshard between them makes)."""

    base: int = 0
    terms: dict[int, list[int]] = field(default_factory=dict)
    pairs: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)

    def add_terms(self, g: int, per: list[int]) -> None:
        """Add `per[a]` bytes where group `g` takes strategy `a`."""
        have = self.terms.setdefault(g, [0] * len(per))
        for a, m in enumerate(per):
            have[a] += m

    def add_pair(self, g: int, h: int, sizes: np.ndarray) -> None:
        _accumulate(self.pairs, g, h, sizes)

    def bytes(self, choice: list[int]) -> int:
        return (
            self.base
            + sum(m[choice[g]] for g, m in self.terms.items())
            + sum(int(m[choice[g], choice[h]]) for (g, h), m in self.pairs.items())
        )

    def least(self) -> int:
        """A lower bound: each term at its least, whatever the others take."""
        return (
            self.base
            + sum(min(m) for m in self.terms.values())
            + sum(int(m.min()) for m in self.pairs.values())
        )


@dataclass
class Problem:
    """`linear[g][a]`: cost of strategy `a` of group `g` (inf: forbidden); `pairs[(g, h)]`:
    cost matrix over the strategies of `g` (rows) and `h` (columns), `g < h`;
    `points`: the bytes per device live at each point of the program that may be its
    peak; `limit`: the most bytes per device at any of them."""

    linear: list[list[float]] = field(default_factory=list)
    pairs: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    points: list[MemoryPoint] = field(default_factory=list)
    limit: int | None = None

    def add_group(self, size: int) -> int:
        self.linear.append([0.0] * size)
        return len(self.linear) - 1

    def add_pair(self, g: int, h: int, costs: np.ndarray) -> None:
        """Add `costs[a, b]`, the cost of `g` taking `a` while `h` takes `b` (`g != h`)."""
        _accumulate(self.pairs, g, h, costs)

    def least_memory(self) -> int:
        """A lower bound of every plan's peak: no point can hold less."""
        return max((point.least() for point in self.points), default=0)

    def peak(self, choice: list[int]) -> int:
        return max((point.bytes(choice) for point in self.points), default=0)


@dataclass(frozen=True)
class Solution:
    choice: list[int]
    cost: float
    """Modeled seconds of the chosen plan."""
    memory: int
    """Peak bytes per device of the chosen plan."""
    seconds: float
    """Solver wall time."""
    gap: float = 0.0
    """How far the cost may be above the optimum, relative: 0 when proven optimal; above
    0 when a solve ran out of its time limit and gave the best plan it had found."""


class Infeasible(Exception):
    """No plan meets the memory limit with feasible reshards."""


def solve(p: Problem, time_limit: float | None = None) -> Solution:
    """The cheapest plan within the limit. The memory points are constraints added as
    plans break them (`LAZY_POINTS` at a time, the most exceeded first), each round
    solving again: most points never bind, and each one left out makes the program
    smaller. A plan that breaks none is optimal for the whole program, as it is for a
    program with fewer constraints.

    With `time_limit` (seconds per round), a round that runs out gives the best plan
    its solver found. The plan still holds every memory point, and the last round's
    gap bounds how far it may cost above the optimum: that round's dual bound is one of
    a program with fewer constraints, so no higher than the full program's optimum."""
    if not p.linear:
        return Solution([], 0.0, p.peak([]), 0.0)
    active: list[MemoryPoint] = []
    seconds = 0.0
    while True:
        choice, took, gap = _solve(p, active, time_limit)
        seconds += took
        if p.limit is None:
            break
        over = [point for point in p.points if point.bytes(choice) > p.limit]
        if not over:
            break
        over.sort(key=lambda point: -point.bytes(choice))
        active += over[:LAZY_POINTS]
    return Solution(choice, plan_cost(p, choice), p.peak(choice), seconds, gap)


LAZY_POINTS = 8
"""The memory points `solve` adds in a round."""


def _solve(
    p: Problem, points: list[MemoryPoint], time_limit: float | None
) -> tuple[list[int], float, float]:
    """The cheapest plan that holds at most `p.limit` at each of `points` (the best
    found within `time_limit`), the solver's seconds, and its relative gap."""
    # Importing scipy takes ~0.5 s and ~50 MiB, numpy ~0.1 s and ~11 MiB: only a solve
    # pays for them (`xshard-spmd` imports this module, and seldom solves).
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_array

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
    memory: dict[tuple[int, int], list[np.ndarray]] = {}
    """Each pair's copy sizes at the memory points that hold one."""
    for point in points:
        for pair, sizes in point.pairs.items():
            memory.setdefault(pair, []).append(sizes)
    pair_vars: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    """The variable `e_uw` of each pair of groups and classes of strategies."""
    firsts: dict[tuple[int, int], tuple[dict[int, int], dict[int, int]]] = {}
    """Per pair, the first strategy of `g` in each class, and of `h`."""
    for g, h in p.pairs.keys() | memory.keys():
        m = p.pairs.get((g, h))
        if m is None:
            m = np.zeros_like(memory[(g, h)][0], dtype=float)
        held = memory.get((g, h), [])
        if not held and np.isfinite(m).all() and not m.any():
            continue  # costs nothing, holds nothing: no variable
        # Strategies of `g` whose rows are equal in the costs and every copy size are
        # one class (they lay the value out alike), and so for `h`'s columns: `e`
        # joins classes, s_g's summed over a class standing for s_ga.
        stacked = np.concatenate([m, *held], axis=1), np.concatenate([m, *held], axis=0).T
        row_class, col_class = (
            np.unique(x, axis=0, return_inverse=True)[1].reshape(-1) for x in stacked
        )
        first_row, first_col = _firsts(row_class), _firsts(col_class)
        firsts[(g, h)] = (first_row, first_col)
        # e[u, :] sums to the s_ga of class u, e[:, w] to the s_hb of class w
        by_row = {
            u: [(int(offsets[g]) + a, -1.0) for a in np.flatnonzero(row_class == u)]
            for u in first_row
        }
        by_col = {
            w: [(int(offsets[h]) + b, -1.0) for b in np.flatnonzero(col_class == w)]
            for w in first_col
        }
        for u, a in first_row.items():
            for w, b in first_col.items():
                if not isfinite(m[a, b]):
                    continue
                var = len(cost)
                pair_vars.setdefault((g, h), {})[(u, w)] = var
                cost.append(float(m[a, b]) * SCALE)
                upper.append(1.0)
                by_row[u].append((var, 1.0))
                by_col[w].append((var, 1.0))
        for entries in (*by_row.values(), *by_col.values()):
            row(entries, 0.0, 0.0)
    if p.limit is not None:
        for point in points:
            terms = [
                (int(offsets[g]) + a, m / p.limit)
                for g, per in point.terms.items()
                for a, m in enumerate(per)
                if m
            ]
            for pair, sizes in point.pairs.items():
                # (a forbidden pair of classes has no `e`, and is never chosen)
                first_row, first_col = firsts[pair]
                for (u, w), var in pair_vars.get(pair, {}).items():
                    if size := sizes[first_row[u], first_col[w]]:
                        terms.append((var, float(size) / p.limit))
            row(terms, -inf, 1.0 - point.base / p.limit)
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
        options={} if time_limit is None else {"time_limit": time_limit},
    )
    seconds = time.perf_counter() - start
    if result.x is None:
        raise Infeasible(
            f"no plan found in time-limit={time_limit} s" if result.status == 1 else result.message
        )
    x = result.x[:n_s]
    choice = [int(np.argmax(x[offsets[g] : offsets[g + 1]])) for g in range(len(p.linear))]
    return choice, seconds, float(result.mip_gap or 0.0) if result.status == 1 else 0.0


def coarsen(p: Problem, rep: list[int]) -> tuple[Problem, list[int]]:
    """`p` with the groups of equal `rep[g]` made one group (they must have the same
    strategies, index for index), and each group's index in it: costs and memory terms
    add up, and a pair within one group keeps its diagonal (both take the same
    strategy). Every plan of the result is a plan of `p` at the same cost and peak."""
    index: dict[int, int] = {}
    back = [index.setdefault(r, len(index)) for r in rep]
    q = Problem(limit=p.limit)
    for g, costs in enumerate(p.linear):
        if back[g] == len(q.linear):
            q.linear.append(list(costs))
        else:
            q.linear[back[g]] = [x + y for x, y in zip(q.linear[back[g]], costs, strict=True)]
    for (g, h), m in p.pairs.items():
        if back[g] == back[h]:
            q.linear[back[g]] = [x + float(m[a, a]) for a, x in enumerate(q.linear[back[g]])]
        else:
            q.add_pair(back[g], back[h], m)
    for point in p.points:
        merged = MemoryPoint(point.base)
        for g, per in point.terms.items():
            merged.add_terms(back[g], per)
        for (g, h), sizes in point.pairs.items():
            if back[g] == back[h]:
                merged.add_terms(back[g], [int(sizes[a, a]) for a in range(len(sizes))])
            else:
                merged.add_pair(back[g], back[h], sizes)
        q.points.append(merged)
    return q, back


def _firsts(classes: np.ndarray) -> dict[int, int]:
    """The first index of each class."""
    return {int(c): i for i, c in reversed(list(enumerate(classes)))}


def plan_cost(p: Problem, choice: list[int]) -> float:
    """The modeled seconds of one choice per group."""
    total = sum(c[a] for c, a in zip(p.linear, choice, strict=True))
    return total + sum(float(m[choice[g], choice[h]]) for (g, h), m in p.pairs.items())
