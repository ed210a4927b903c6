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

A bucket (collectives the combiners make one where none leads to another) costs its
latency once per link of the longest chain of those the plan runs: a continuous `h_k`
per collective `k`, at least `h_f` plus each strategy of a group, and each pair's
`e_uw`, that runs `k` (for each `f` that `k` follows), and a `T` costing the latency,
at least every `h_k`: `T` is that chain's length exactly (the pair classes are made
finer where needed, so that a class runs `k` or not).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import inf, isfinite
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

SCALE = 1e6
"""Costs are seconds; the solver sees microseconds, so that HiGHS's absolute tolerances
(about 1e-7) do not round small reshards to nothing."""


def _accumulate(
    pairs: dict[tuple[int, int], np.ndarray],
    g: int,
    h: int,
    matrix: np.ndarray,
    sums: Sums | None = None,
) -> None:
    """Add `matrix` (rows: `g`'s strategies) to `pairs`, keyed by the smaller group first;
    through `sums` where given."""
    if sums is not None:
        pairs[(min(g, h), max(g, h))] = sums.add(pairs.get((min(g, h), max(g, h))), g > h, matrix)
        return
    if g > h:
        g, h, matrix = h, g, matrix.T
    have = pairs.get((g, h))
    pairs[(g, h)] = matrix if have is None else have + matrix


class Sums:
    """Pair matrices added up once for all the memory points that add the same ones: a
    copy is added to every point it lives through, so those points then hold one
    matrix object, not equal ones, and telling the points' distinct matrices apart
    (`_Model`, `_Rows`) reads each once (the 12-layer GPT's points hold 115612 pair
    entries of 2016 distinct matrices)."""

    def __init__(self) -> None:
        self.made: dict[tuple[int, int, bool], tuple[np.ndarray, ...]] = {}
        """(id of what the point held, id of the matrix added, transposed) -> the sum,
        and the two (kept, so that their ids stay theirs)."""

    def add(self, have: np.ndarray | None, flip: bool, matrix: np.ndarray) -> np.ndarray:
        key = (id(have), id(matrix), flip)
        if (found := self.made.get(key)) is None:
            turned = matrix.T if flip else matrix
            found = self.made[key] = (turned if have is None else have + turned, have, matrix)
        return found[0]


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

    def add_pair(self, g: int, h: int, sizes: np.ndarray, sums: Sums | None = None) -> None:
        _accumulate(self.pairs, g, h, sizes, sums)

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

    def most(self) -> int:
        """An upper bound: each term at its most."""
        return (
            self.base
            + sum(max(m) for m in self.terms.values())
            + sum(int(m.max()) for m in self.pairs.values())
        )


@dataclass
class Link:
    """One collective of a bucket: run where group `g` takes a strategy in `terms[g]`,
    where groups `g` and `h` take `a` and `b` with `pairs[(g, h)][a, b]` 1, or always."""

    terms: dict[int, set[int]] = field(default_factory=dict)
    pairs: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    always: bool = False

    def add_pair(self, g: int, h: int, runs: np.ndarray) -> None:
        _accumulate(self.pairs, g, h, runs)
        self.pairs[min(g, h), max(g, h)] = self.pairs[min(g, h), max(g, h)].clip(max=1)

    def marks(self, choice: list[int]) -> int:
        """How many of its marks `choice` takes (more than 0: it runs)."""
        return (
            int(self.always)
            + sum(choice[g] in used for g, used in self.terms.items())
            + sum(int(m[choice[g], choice[h]]) for (g, h), m in self.pairs.items())
        )


@dataclass
class Bucket:
    """Collectives XLA's combiner makes one where no one of them leads to another, each
    combined collective paying `latency` once: a plan's running `links` need as many as
    their longest chain (a partial order's fewest antichains, Mirsky's theorem).
    `after[k]`: links that link `k` follows (those it follows only through them may
    be left out); links come in an order that puts each after those it follows."""

    latency: float
    links: list[Link] = field(default_factory=list)
    after: list[list[int]] = field(default_factory=list)

    def add(self, link: Link, after: list[int] | None = None) -> None:
        self.links.append(link)
        self.after.append(after or [])

    def chains(self, choice: list[int]) -> list[int]:
        """Per link, the longest chain of running links that ends at it."""
        ends: list[int] = []
        for link, before in zip(self.links, self.after, strict=True):
            ends.append(max((ends[f] for f in before), default=0) + (link.marks(choice) > 0))
        return ends

    def depth(self, choice: list[int]) -> int:
        """How many combined collectives `choice` runs."""
        return max(self.chains(choice), default=0)


@dataclass
class Problem:
    """`linear[g][a]`: cost of strategy `a` of group `g` (inf: forbidden); `pairs[(g, h)]`:
    cost matrix over the strategies of `g` (rows) and `h` (columns), `g < h`;
    `points`: the bytes per device live at each point of the program that may be its
    peak; `limit`: the most bytes per device at any of them; `buckets`: latencies
    paid once for the collectives that are combined."""

    linear: list[list[float]] = field(default_factory=list)
    pairs: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    points: list[MemoryPoint] = field(default_factory=list)
    limit: int | None = None
    buckets: list[Bucket] = field(default_factory=list)

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
    """The cheapest plan within the limit.

    First the plan without the memory rows (`_unlimited`): most programs' pair
    program is near integral, so its LP relaxation's plan is the MIP's, and where that
    plan breaks the limit the MIP is not solved. A plan over the limit then gets a
    start: the cheaper of the Lagrangian plans (`_lagrangian`, with the buckets'
    shares and without), which price the bytes of the point it breaks most, as
    cheaply as a price makes it fit, each improved one decision at a time within the
    limit (`_improve`); or, where cheaper, a plan of a
    lower price brought within the limit (`_repair`) and improved; or, where cheaper,
    the LP relaxation's plan with the rows of the points that plan breaks most
    (`_Model.relaxed`, in at most `RELAXED_SHARE` of the time left, and only where
    that is `SOLVED_TIMES` the first LP's), repaired and improved. Under a time limit
    the start is then made cheaper a few dozen groups at a time (`neighbourhoods.py`,
    in `NEIGHBOURHOOD_SHARE` of the time left, or all of it where the rest would be
    under `SOLVED_TIMES` the first LP's): a large
    program's MIP seldom closes in time, and one group at a time misses the changes
    several groups must make together. The memory points
    are constraints added as plans break them (`LAZY_POINTS` at a time, the most
    exceeded first), each round solving again from the start: most points never
    bind, and each one left out makes the program smaller. A plan that breaks none is
    optimal for the whole program, as it is for a program with fewer constraints; a
    round's plan that breaks some is repaired, and becomes the start where cheaper.

    With `time_limit` (seconds, for the whole solve), the best plan that holds every
    memory point when time runs out: the last round's, or else the start, or else,
    past the deadline, `_quick`'s. The gap bounds how far it may cost above the
    optimum, against the highest dual bound of the rounds and the relaxation: each is
    a bound of a program with fewer constraints, so no higher than the full optimum
    (none: 100%)."""
    if not p.linear:
        return Solution([], 0.0, p.peak([]), 0.0)
    begin = time.perf_counter()
    deadline = None if time_limit is None else begin + time_limit
    model = _Model(p)
    unlimited_from = time.perf_counter()
    choice, bound = _unlimited(model, deadline)
    start = None
    checked = time.perf_counter()
    # a memory round presolves and solves at least the LP `_unlimited` did: with less
    # time left, HiGHS runs past its limit (4.2 s for 2.8 on the scanned 12-layer GPT)
    least_round = checked - unlimited_from
    if p.limit is not None and choice is not None and (over := _broken(p, choice)):
        if deadline is not None:  # time to check the last plan and measure its peak
            deadline -= 2 * (time.perf_counter() - checked) + HIGHS_OVERRUN
        local = _Local(p)
        repairing, starts = 0.0, 0
        for shares in (True, False):
            priced, near = _lagrangian(p, over[0], plan_cost(p, choice) * SCALE, deadline, shares)
            began = time.perf_counter()
            if priced is not None and not _past(deadline):  # (the first reset builds `local`)
                priced = _improve(local.reset(priced), deadline)
                if start is None or plan_cost(p, priced) < plan_cost(p, start):
                    start = priced
            for plan in near:
                start = _cheaper(local, start, plan, deadline)
            repairing += time.perf_counter() - began
            starts += 1 + len(near)
        # time to repair the last round's plan: what making one start took
        reserve = repairing / starts
        model.add_points(over[:LAZY_POINTS])
        relaxing = _share(deadline, reserve, RELAXED_SHARE)
        if relaxing is None or relaxing - time.perf_counter() >= SOLVED_TIMES * least_round:
            rounded, found = model.relaxed(relaxing)
            bound = max((b for b in (bound, found) if b is not None), default=None)
            if rounded is not None and isfinite(plan_cost(p, rounded)):
                start = _cheaper(local, start, rounded, deadline)
        if start is not None and deadline is not None:
            from xshard.transforms.propagation.auto.neighbourhoods import Neighbourhoods

            end = _share(deadline, reserve, NEIGHBOURHOOD_SHARE)
            if end is not None and deadline - reserve - end < SOLVED_TIMES * least_round:
                end = deadline - reserve  # (no time for a round after them)
            start = Neighbourhoods(p).improve(start, end)
        while choice is not None and over:
            if deadline is not None and deadline - reserve - time.perf_counter() < least_round:
                break  # out of time for a round
            choice, found = model.mip(None if deadline is None else deadline - reserve, start)
            bound = max((b for b in (bound, found) if b is not None), default=None)
            over = _broken(p, choice) if choice is not None else over
            if over and choice is not None:
                start = _cheaper(local, start, choice, deadline)
                model.add_points(over[:LAZY_POINTS])
        if over or choice is None:  # out of time
            choice = start
    if choice is None:  # out of time before any plan
        choice = _quick(p)
    if choice is None:
        raise Infeasible(f"no plan found in time-limit={time_limit} s")
    cost = plan_cost(p, choice)
    if cost <= 0:
        gap = 0.0
    elif bound is None:  # nothing bounded the optimum in time: no cost is below 0
        gap = 1.0
    else:
        gap = max(0.0, 1 - bound / (cost * SCALE))
    if gap <= MIP_REL_GAP:  # optimal as HiGHS proves it (not a float's last digits)
        gap = 0.0
    return Solution(choice, cost, p.peak(choice), time.perf_counter() - begin, gap)


SOLVED_TIMES = 10
"""How many times the first LP's time a program with memory rows needs, at least, to
be solved: with less time left the relaxation and the memory rounds are skipped, and
the neighbourhoods take it (on the scanned 4-layer GPT at 1/4 the relaxation took
7.8 s of 30 unsolved, and the neighbourhoods' 7.8 s left the plan at 676.5 µs; with
its time and the rounds' they take 16.4 s, and bring it to 536.5)."""
RELAXED_SHARE = 0.5
"""The share of the time left (but a repair's) that the LP relaxation may take: on the
GPT train steps of 4 and 12 layers at 1/4 of replication it is not solved in 30 s, and
the neighbourhoods need the time."""
NEIGHBOURHOOD_SHARE = 2 / 3
"""The share of the time left then (but a repair's) that the neighbourhoods may take;
the memory rounds have the rest."""
LAZY_POINTS = 8
"""The memory points `solve` adds in a round."""
MIP_REL_GAP = 1e-4
"""HiGHS's `mip_rel_gap`: it stops a MIP as optimal within this relative gap."""
QUICK_SECONDS = 2.0
"""How long `_quick` may take to repair a plan, and then to improve it."""
HIGHS_OVERRUN = 1.0
"""Seconds HiGHS may run past its time limit, which a solve under `time_limit` leaves
it: it reads its clock between steps (0.12 s past on the 12-layer GPT alone, 0.3 s
beside other work; seconds when the cores are shared with several). With 0.5 the
12-layer GPT's solve inside `xshard.jit` at 1/2 took 30.6 s of 30."""


def _unlimited(model: _Model, deadline: float | None) -> tuple[list[int] | None, float | None]:
    """The plan without the memory rows, and a bound. Under a limit, first its LP
    relaxation's: where that plan breaks the limit, it stands for the MIP's, whose
    branching (18.5 s of the 30 on the scanned 12-layer GPT at 1/2) only proves a plan
    optimal that the rounds replace; else, or where it has a forbidden pair, the MIP."""
    p = model.p
    if p.limit is not None:
        rounded, bound = model.relaxed(deadline)
        if rounded is not None and isfinite(plan_cost(p, rounded)):
            if _broken(p, rounded):
                return rounded, bound
            choice, found = model.mip(deadline)
            return (rounded, bound) if choice is None else (choice, found)
    return model.mip(deadline)


def _cheaper(
    local: _Local, start: list[int] | None, over: list[int], deadline: float | None
) -> list[int] | None:
    """The cheaper of `start` and the plan `over` (which breaks the limit) repaired
    and improved (`_repair`, `_improve`) on `local`."""
    if _past(deadline) or not _repair(local.reset(over), deadline):
        return start
    fixed = _improve(local, deadline)
    if start is None or plan_cost(local.p, fixed) < plan_cost(local.p, start):
        return fixed
    return start


def _quick(p: Problem) -> list[int] | None:
    """A plan within the limit found past the deadline, where time ran out before any:
    each group in turn takes its cheapest strategy given those taken before it (its
    pairs with them: no forbidden one where any strategy avoids it), then the plan is
    repaired and improved for at most `QUICK_SECONDS` each (a penzai model's solve of
    10 s spent 8 of them on the LP relaxation and had no plan; this one took under a
    second). None where that plan has a forbidden pair or cannot be repaired."""
    import numpy as np

    local = _Local(p)
    local._build()  # its per-group strategy costs and pairs, which the plan is made by
    plan: list[int] = []
    for g, cost in enumerate(local.linear):
        for h, m in local.pairs_of[g]:
            if h < g:
                cost = cost + m[:, plan[h]]
        plan.append(int(np.argmin(cost)))
    if not isfinite(plan_cost(p, plan)):
        return None
    if not _repair(local.reset(plan), time.perf_counter() + QUICK_SECONDS):
        return None
    plan = _improve(local, time.perf_counter() + QUICK_SECONDS)
    return plan if isfinite(plan_cost(p, plan)) else None


def _share(deadline: float | None, reserve: float, share: float) -> float | None:
    """The deadline of a step that may take `share` of the time left but `reserve`."""
    now = time.perf_counter()
    return None if deadline is None else now + (deadline - reserve - now) * share


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _broken(p: Problem, choice: list[int]) -> list[MemoryPoint]:
    """The memory points `choice` holds more than the limit at, the most first."""
    assert p.limit is not None
    held = [(point.bytes(choice), i) for i, point in enumerate(p.points)]
    return [p.points[i] for m, i in sorted(held, key=lambda x: -x[0]) if m > p.limit]


class _Model:
    """`p` as a HiGHS program: the one-hot rows and the pair marginals, its memory rows
    added as `solve` needs them. One model for every round, so that its LP's basis
    carries from solve to solve."""

    def __init__(self, p: Problem):
        # Importing highspy and numpy takes ~0.2 s: only a solve pays for them
        # (`xshard-spmd` imports this module, and seldom solves).
        import highspy
        import numpy as np

        self.p = p
        self.offsets = np.cumsum([0] + [len(c) for c in p.linear])
        n_s = int(self.offsets[-1])
        cost = [c * SCALE if isfinite(c) else 0.0 for row in p.linear for c in row]
        upper = [1.0 if isfinite(c) else 0.0 for row in p.linear for c in row]
        rows: list[list[tuple[int, float]]] = [
            [(int(self.offsets[g]) + a, 1.0) for a in range(len(c))] for g, c in enumerate(p.linear)
        ]
        sums = [1.0] * len(rows)
        self.pair_vars: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
        """The variable `e_uw` of each pair of groups and classes of strategies."""
        self.classes: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        """Per pair, the class of each strategy of `g`, and of `h`."""
        self.firsts: dict[tuple[int, int], tuple[dict[int, int], dict[int, int]]] = {}
        """Per pair, the first strategy of `g` in each class, and of `h`."""
        held: dict[tuple[int, int], dict[bytes, np.ndarray]] = {}
        """Each pair's distinct copy sizes at the memory points."""
        content = _contents()
        for point in p.points:
            for pair, sizes in point.pairs.items():
                held.setdefault(pair, {})[content(sizes)] = sizes
        for link in (link for bucket in p.buckets for link in bucket.links):
            for pair, runs in link.pairs.items():  # (its marks split classes as sizes do)
                held.setdefault(pair, {})[runs.tobytes()] = runs
        for g, h in p.pairs.keys() | held.keys():
            sizes = list(held.get((g, h), {}).values())
            m = p.pairs.get((g, h))
            if m is None:
                m = np.zeros_like(sizes[0], dtype=float)
            if not sizes and np.isfinite(m).all() and not m.any():
                continue  # costs nothing, holds nothing: no variable
            # Strategies of `g` whose rows are equal in the costs and every copy size are
            # one class (they lay the value out alike), and so for `h`'s columns: `e`
            # joins classes, s_g's summed over a class standing for s_ga.
            stacked = np.concatenate([m, *sizes], axis=1), np.concatenate([m, *sizes]).T
            row_class, col_class = map(_row_classes, stacked)
            self.classes[(g, h)] = (row_class, col_class)
            first_row, first_col = self.firsts[(g, h)] = _firsts(row_class), _firsts(col_class)
            # e[u, :] sums to the s_ga of class u, e[:, w] to the s_hb of class w
            by_row = {
                u: [(int(self.offsets[g]) + a, -1.0) for a in np.flatnonzero(row_class == u)]
                for u in first_row
            }
            by_col = {
                w: [(int(self.offsets[h]) + b, -1.0) for b in np.flatnonzero(col_class == w)]
                for w in first_col
            }
            us, ws = list(first_row.items()), list(first_col.items())
            among = m[np.ix_([a for _, a in us], [b for _, b in ws])]
            for i, j in zip(*np.nonzero(np.isfinite(among)), strict=True):
                (u, _), (w, _) = us[i], ws[j]
                var = len(cost)
                self.pair_vars.setdefault((g, h), {})[(u, w)] = var
                cost.append(float(among[i, j]) * SCALE)
                upper.append(1.0)
                by_row[u].append((var, 1.0))
                by_col[w].append((var, 1.0))
            rows += [*by_row.values(), *by_col.values()]
            sums += [0.0] * (len(by_row) + len(by_col))
        chain_rows: list[list[tuple[int, float]]] = []
        chain_lower: list[float] = []
        self.bucket_vars: list[int] = []
        """Each bucket's `T`, its links' `h` following it."""
        for bucket in p.buckets:
            top = len(cost)
            self.bucket_vars.append(top)
            n = len(bucket.links)
            cost += [bucket.latency * SCALE] + [0.0] * n
            upper += [float(n)] * (1 + n)
            followed = {f for before in bucket.after for f in before}
            for k, (link, before) in enumerate(zip(bucket.links, bucket.after, strict=True)):
                h = top + 1 + k
                marks = [[]] if link.always else self._marks(link) or [[]]
                for f in before or [None]:
                    less = [(h, 1.0)] if f is None else [(h, 1.0), (top + 1 + f, -1.0)]
                    chain_rows += [less + [(var, -1.0) for var in m] for m in marks]
                    chain_lower += [float(link.always)] * len(marks)
                if k not in followed:
                    chain_rows.append([(top, 1.0), (h, -1.0)])
                    chain_lower.append(0.0)
        self.columns = len(cost)
        self.highs = highspy._Highs()  # (`Highs` prints a banner on stdout: xshard-opt's output)
        self.highs.setOptionValue("output_flag", False)
        self.highs.addVars(len(cost), np.zeros(len(cost)), np.array(upper))
        self.highs.changeColsCost(len(cost), np.arange(len(cost), dtype=np.int32), np.array(cost))
        self._add_rows(rows, sums, sums)
        if chain_rows:  # h_k at least h_f and each mark running k; T at least each h_k
            self._add_rows(chain_rows, chain_lower, [inf] * len(chain_rows))
        self.highs.changeColsIntegrality(
            n_s, np.arange(n_s, dtype=np.int32), np.full(n_s, highspy.HighsVarType.kInteger)
        )

    def _marks(self, link: Link) -> list[list[int]]:
        """The variables of each of `link`'s marks, which sum to 1 where it runs `link`."""
        found = [[int(self.offsets[g]) + a for a in used] for g, used in link.terms.items()]
        for pair, runs in link.pairs.items():
            first_row, first_col = self.firsts[pair]
            found.append(
                [
                    var
                    for (u, w), var in self.pair_vars.get(pair, {}).items()
                    if runs[first_row[u], first_col[w]]
                ]
            )
        return found

    def _add_rows(
        self, rows: list[list[tuple[int, float]]], lower: list[float], upper: list[float]
    ) -> None:
        import numpy as np

        starts = np.cumsum([0] + [len(r) for r in rows[:-1]], dtype=np.int32)
        index = np.array([c for r in rows for c, _ in r], dtype=np.int32)
        value = np.array([v for r in rows for _, v in r])
        self.highs.addRows(
            len(rows), np.array(lower), np.array(upper), len(index), starts, index, value
        )

    def memory_row(self, point: MemoryPoint) -> list[tuple[int, float]]:
        """The row of `point`'s bytes, in units of the limit (its bound is 1 less its
        base): each group's strategies, and each pair's classes that make a copy."""
        assert self.p.limit is not None
        terms = [
            (int(self.offsets[g]) + a, m / self.p.limit)
            for g, per in point.terms.items()
            for a, m in enumerate(per)
            if m
        ]
        for pair, sizes in point.pairs.items():
            # (a forbidden pair of classes has no `e`, and is never chosen)
            first_row, first_col = self.firsts[pair]
            for (u, w), var in self.pair_vars.get(pair, {}).items():
                if size := sizes[first_row[u], first_col[w]]:
                    terms.append((var, float(size) / self.p.limit))
        return terms

    def add_points(self, points: list[MemoryPoint]) -> None:
        assert self.p.limit is not None
        self._add_rows(
            [self.memory_row(point) for point in points],
            [-inf] * len(points),
            [1.0 - point.base / self.p.limit for point in points],
        )

    def _run(self, deadline: float | None) -> bool:
        """Solve as the model stands; false when the deadline has passed already."""
        left = inf if deadline is None else deadline - time.perf_counter()
        if left <= 0:
            return False
        # (a MIP's time limit runs from its run's start; an LP's would be on HiGHS's
        # clock summed over every run)
        self.highs.setOptionValue("time_limit", left)
        self.highs.run()
        return True

    def relaxed(self, deadline: float | None) -> tuple[list[int] | None, float | None]:
        """The plan of the program's LP relaxation, as it stands: each group's largest
        share, and its cost, a bound of every plan (None: not solved by the deadline).
        Where the memory rows bind, its fractions mix the layouts a cheap plan within
        them takes, and rounded (then repaired) it is often such a plan, found long
        before a MIP's first incumbent: on the one-layer GPT at 1/4 of replication,
        145.3 µs in 13 s, where the Lagrangian's was 245.3 and the MIP had none in 30 s."""
        import highspy
        import numpy as np

        n_s = int(self.offsets[-1])
        index = np.arange(n_s, dtype=np.int32)
        kinds = highspy.HighsVarType
        left = inf if deadline is None else deadline - time.perf_counter()
        if left <= 0:
            return None, None
        self.highs.changeColsIntegrality(n_s, index, np.full(n_s, kinds.kContinuous))
        try:  # (an LP's time limit is on HiGHS's clock, summed over every run)
            self.highs.setOptionValue("time_limit", self.highs.getRunTime() + left)
            self.highs.run()
            if self.highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return None, None
            return self._choice(), self.highs.getInfo().objective_function_value
        finally:
            self.highs.changeColsIntegrality(n_s, index, np.full(n_s, kinds.kInteger))

    def _choice(self) -> list[int]:
        import numpy as np

        x = np.asarray(self.highs.getSolution().col_value)
        return [
            int(np.argmax(x[self.offsets[g] : self.offsets[g + 1]]))
            for g in range(len(self.p.linear))
        ]

    def mip(
        self, deadline: float | None, start: list[int] | None = None
    ) -> tuple[list[int] | None, float | None]:
        """The best plan found by the deadline (None: none), from `start` if given, and
        the dual bound (None: the deadline had passed). Raises `Infeasible` when no plan
        meets the rows."""
        import highspy

        if start is not None:
            self._start(start)
        if not self._run(deadline):
            return None, None
        if self.highs.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
            raise Infeasible("no plan meets the memory limit with feasible reshards")
        info = self.highs.getInfo()
        if info.primal_solution_status == 0:  # no incumbent in time
            return None, info.mip_dual_bound
        return self._choice(), info.mip_dual_bound

    def _start(self, choice: list[int]) -> None:
        """Give HiGHS `choice` as its first incumbent: the s of each group, and the `e`
        of each pair of the classes `choice` takes."""
        import highspy
        import numpy as np

        x = np.zeros(self.columns)
        for g, a in enumerate(choice):
            x[int(self.offsets[g]) + a] = 1.0
        for (g, h), by_class in self.pair_vars.items():
            row_class, col_class = self.classes[(g, h)]
            var = by_class.get((int(row_class[choice[g]]), int(col_class[choice[h]])))
            if var is not None:
                x[var] = 1.0
        for top, bucket in zip(self.bucket_vars, self.p.buckets, strict=True):
            ends = bucket.chains(choice)
            x[top] = max(ends, default=0)
            x[top + 1 : top + 1 + len(ends)] = ends
        solution = highspy.HighsSolution()
        solution.col_value = x
        solution.value_valid = True
        self.highs.setSolution(solution)


def _lagrangian(
    p: Problem, point: MemoryPoint, first: float, deadline: float | None, shares: bool = True
) -> tuple[list[int] | None, list[list[int]]]:
    """A plan that holds every memory point, found without the memory rows: the plan of
    least `cost + price * bytes at the priced points` (by min-sum message passing,
    `min_sum.py`), for the least price it finds that makes the plan fit. The priced
    points start at `point`; a plan that breaks a point not priced yet adds the one it
    breaks most (pricing one point alone leaves the plan stuck where another point
    peaks). The prices start at 4 times `first`, the cost of the plan without the
    memory rows (solver units). None when no price found one by the deadline. Beside
    it, the distinct plans of the prices that broke a point (and no pair), the nearest
    to the limit first: some are cheap plans a few steps from fitting.

    Min-sum prices no buckets; with `shares`, each collective that may run in one pays
    its share of what the last plan paid (`share_buckets`), else none. `solve` tries
    both, as neither is the better everywhere: on the GPT train steps at 1/4 of
    replication, one block's improved start models 215 µs with shares, 275 without;
    four blocks' 836 and 561, twelve blocks' 2320 and 1523."""
    import numpy as np

    from xshard.transforms.propagation.auto.min_sum import MinSum

    assert p.limit is not None
    sizes = [len(row) for row in p.linear]
    links = [link for b in p.buckets for link in b.links]
    edges = sorted(
        p.pairs.keys()
        | {pair for q in p.points for pair in q.pairs}
        | {pair for link in links for pair in link.pairs}
    )
    unary = [np.array(row) * SCALE for row in p.linear]
    pairs = [
        p.pairs[(g, h)] * SCALE if (g, h) in p.pairs else np.zeros((sizes[g], sizes[h]))
        for g, h in edges
    ]
    at = {pair: k for k, pair in enumerate(edges)}
    unary_shares = [np.zeros(n) for n in sizes]
    pair_shares = [np.zeros_like(m) for m in pairs]

    def share_buckets(choice: list[int] | None) -> None:
        """Each bucket's latencies on the collectives it may run (min-sum prices no
        buckets): what the last plan paid shared among those it ran, a latency each
        where it ran none."""
        for m in (*unary_shares, *pair_shares):
            m[...] = 0.0
        for b in p.buckets:
            running = 0 if choice is None else sum(link.marks(choice) > 0 for link in b.links)
            share = b.latency * SCALE * (b.depth(choice) / running if running else 1.0)
            for link in b.links:
                for g, used in link.terms.items():
                    unary_shares[g][list(used)] += share
                for pair, runs in link.pairs.items():
                    pair_shares[at[pair]] += runs * share

    if shares:
        share_buckets(None)
    unary_bytes = [np.zeros(n) for n in sizes]
    pair_bytes = [np.zeros_like(m) for m in pairs]
    priced: list[MemoryPoint] = []

    def price_point(point: MemoryPoint) -> None:
        priced.append(point)
        for g, per in point.terms.items():
            unary_bytes[g] += np.array(per) / p.limit
        for pair, held in point.pairs.items():
            pair_bytes[at[pair]] += held / p.limit

    price_point(point)
    solver = MinSum(sizes, edges)
    best: tuple[float, list[int]] | None = None
    near: list[list[int]] = []
    low, high = 0.0, None
    price = 4 * max(1.0, first)
    longest = 0.0  # a price's step: none starts that would end past the deadline
    for _ in range(LAGRANGIAN_STEPS):
        began = time.perf_counter()
        if deadline is not None and began + longest > deadline:
            break
        solver.set_costs(
            [u + s + price * m for u, s, m in zip(unary, unary_shares, unary_bytes, strict=True)],
            [c + s + price * m for c, s, m in zip(pairs, pair_shares, pair_bytes, strict=True)],
        )
        solver.sweep(SWEEPS)
        choice = solver.plan()
        if shares:
            share_buckets(choice)
        cost = plan_cost(p, choice)
        if broken := _broken(p, choice):
            low = price
            if isfinite(cost):
                near.append(choice)
            if not any(broken[0] is q for q in priced):
                price_point(broken[0])
        elif isfinite(cost):
            high = price
            if best is None or cost < best[0]:
                best = cost, choice
        else:  # a forbidden pair: no news of the price
            low = price
        longest = max(longest, time.perf_counter() - began)
        price = 4 * price if high is None else (low * high) ** 0.5 if low else high / 4
    distinct = {tuple(plan): plan for plan in near}
    return None if best is None else best[1], sorted(distinct.values(), key=p.peak)


class _Rows:
    """The rows (buckets or memory points) one group is in, as one matrix over its
    strategies: row `r` is the row of id `ids[r]`, `own` its terms, and per other group
    `h` with pairs in them, `distinct[b][which]` added at the rows `at` when `h` takes
    `b`. A copy's sizes are the same matrix at every point it lives through, so each
    distinct matrix is kept once (the 12-layer GPT's 41264 pairs at its points are
    1130 matrices)."""

    def __init__(
        self,
        size: int,
        own: dict[int, np.ndarray],
        pairs: dict[int, list[tuple[int, np.ndarray, bool]]],
        content: Callable[[np.ndarray], bytes],
    ):
        """`pairs[h]`: (row id, matrix, whether its rows are `h`'s strategies);
        `content(m)`: `m`'s bytes, the same for matrices alike."""
        import numpy as np

        self.ids = np.array(
            sorted(own.keys() | {k for ks in pairs.values() for k, _, _ in ks}), dtype=int
        )
        row = {int(k): r for r, k in enumerate(self.ids)}
        self.own = np.zeros((len(self.ids), size))
        for k, vec in own.items():
            self.own[row[k]] = vec
        self.along = []
        for h, ks in pairs.items():
            index: dict[bytes, int] = {}
            matrices = []
            which = []
            for _, m, theirs in ks:
                key = content(m)
                if key not in index:
                    index[key] = len(matrices)
                    matrices.append(m if theirs else m.T)
                which.append(index[key])
            at = np.array([row[k] for k, _, _ in ks], dtype=int)
            self.along.append((h, at, np.array(which), np.stack(matrices, axis=1)))

    def at(self, choice: list[int]) -> np.ndarray:
        """Each row over the group's strategies, the other groups taking `choice`."""
        rows = self.own.copy()
        for h, at, which, distinct in self.along:
            rows[at] += distinct[choice[h]][which]
        return rows


class _Local:
    """A plan changed one group at a time: per group, what each of its strategies costs
    given the others' (their pairs and buckets) and holds at each memory point it is
    in, with the bytes each point holds and the collectives each bucket runs kept up
    to date as groups move. The per-group structure is built once for the problem, as
    matrices over a group's rows (`_Rows`), by the first `reset`, which starts each plan
    on it: a solve out of time before it has a plan to improve builds none."""

    def __init__(self, p: Problem):
        self.p = p
        self.built = False

    def _build(self) -> None:
        import numpy as np

        p = self.p
        self.built = True
        self.sizes = sizes = [len(row) for row in p.linear]
        self.linear = [np.array(row, dtype=float) for row in p.linear]
        self.pairs_of: list[list[tuple[int, np.ndarray]]] = [[] for _ in sizes]
        for (g, h), m in p.pairs.items():
            self.pairs_of[g].append((h, m))
            self.pairs_of[h].append((g, m.T))
        self.related = [_related(b) for b in p.buckets]
        terms = [{g: np.array(per, dtype=float) for g, per in q.terms.items()} for q in p.points]
        self.points_of = self._rows(terms, [q.pairs for q in p.points])
        self.groups_at: list[set[int]] = [set() for _ in p.points]
        for g, rows in enumerate(self.points_of):
            for k in rows.ids:
                self.groups_at[k].add(g)
        self.limit = inf if p.limit is None else p.limit

    def _rows(self, terms: list[dict], pairs: list[dict]) -> list[_Rows]:
        """Per group, the rows of those given (a row's own terms by group, and its
        pairs) that it is in."""
        own: list[dict[int, np.ndarray]] = [{} for _ in self.sizes]
        along: list[dict[int, list]] = [{} for _ in self.sizes]
        for k, (row, row_pairs) in enumerate(zip(terms, pairs, strict=True)):
            for g, vec in row.items():
                own[g][k] = vec
            for (g, h), m in row_pairs.items():
                along[g].setdefault(h, []).append((k, m, False))
                along[h].setdefault(g, []).append((k, m, True))
        content = _contents()
        return [
            _Rows(n, o, a, content) for n, o, a in zip(self.sizes, own, along, strict=True)
        ]

    def reset(self, choice: list[int]) -> _Local:
        """Start again from `choice` (the structure above is the problem's, built once)."""
        import numpy as np

        if not self.built:
            self._build()
        self.choice = list(choice)
        self.held = np.array([q.bytes(choice) for q in self.p.points], dtype=float)
        self._classes(choice)
        return self

    def _classes(self, choice: list[int]) -> None:
        """Each bucket's links in classes that price `choice` exactly: a running link
        in the class of its longest chain's length (links of one length are
        independent), then each other link in the first class it is independent of;
        a class pays the bucket's latency where any of its links runs. A move from
        `choice` is priced on these classes, at or above its cost."""
        import numpy as np

        self.classes: list[list[Link]] = []
        latency = []
        running: list[int] = []
        for b, related in zip(self.p.buckets, self.related, strict=True):
            marks = [link.marks(choice) for link in b.links]
            ends = b.chains(choice)
            found: list[list[Link]] = [[] for _ in range(max(ends, default=0))]
            members = [0] * len(found)
            counts = [0] * len(found)
            for k in sorted(range(len(marks)), key=lambda k: not marks[k]):  # running first
                if marks[k]:
                    c = ends[k] - 1
                else:
                    c = next((c for c, m in enumerate(members) if not related[k] & m), len(found))
                if c == len(found):
                    members.append(0)
                    counts.append(0)
                    found.append([])
                members[c] |= 1 << k
                counts[c] += marks[k]
                found[c].append(b.links[k])
            self.classes += found
            running += counts
            latency += [b.latency] * len(found)
        self.latency = np.array(latency)
        terms: list[dict[int, np.ndarray]] = []
        pairs: list[dict[tuple[int, int], np.ndarray]] = []
        for links in self.classes:
            own: dict[int, np.ndarray] = {}
            along: dict[tuple[int, int], np.ndarray] = {}
            for link in links:
                for g, used in link.terms.items():
                    own[g] = own.get(g, 0) + self._marks(g, used)
                for pair, m in link.pairs.items():
                    _accumulate(along, *pair, m)
            terms.append(own)
            pairs.append(along)
        self.buckets_of = self._rows(terms, pairs)
        self.running = np.array(running, dtype=float)

    def _marks(self, g: int, used: set[int]) -> np.ndarray:
        import numpy as np

        vec = np.zeros(self.sizes[g])
        vec[list(used)] = 1.0
        return vec

    def options(self, g: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cost of each strategy of `g` given the others', and the collectives of
        each bucket and the bytes of each memory point `g` is in (rows as `_Rows` has
        them), under each strategy."""
        now = self.choice[g]
        cost = self.linear[g].copy()
        for h, m in self.pairs_of[g]:
            cost += m[:, self.choice[h]]
        buckets = self.buckets_of[g]
        runs = buckets.at(self.choice)
        if len(buckets.ids):
            others = self.running[buckets.ids] - runs[:, now]
            cost += self.latency[buckets.ids] @ (others[:, None] + runs > 0)
        return cost, runs, self.points_of[g].at(self.choice)

    def held_if(self, g: int, held: np.ndarray) -> np.ndarray:
        """The bytes of each point `g` is in, under each of its strategies (`held` as
        `options(g)` gave it)."""
        ids = self.points_of[g].ids
        return (self.held[ids] - held[:, self.choice[g]])[:, None] + held

    def move(self, g: int, a: int, runs: np.ndarray, held: np.ndarray) -> None:
        """`g` takes `a` (`runs` and `held` as `options(g)` gave them)."""
        now = self.choice[g]
        self.running[self.buckets_of[g].ids] += runs[:, a] - runs[:, now]
        self.held[self.points_of[g].ids] += held[:, a] - held[:, now]
        self.choice[g] = a


def _related(bucket: Bucket) -> list[int]:
    """Per link of `bucket`, the links it follows or that follow it, as bits."""
    before: list[int] = []
    for after in bucket.after:
        before.append(0)
        for f in after:
            before[-1] |= before[f] | 1 << f
    later = [0] * len(before)
    for k in reversed(range(len(before))):
        for f in bucket.after[k]:
            later[f] |= later[k] | 1 << k
    return [b | a for b, a in zip(before, later, strict=True)]


def _improve(local: _Local, deadline: float | None) -> list[int]:
    """`local`'s plan made cheaper one group at a time: each takes its cheapest strategy
    given the others' (their pairs, buckets and memory points), among those that keep
    every point within the limit, until a sweep changes nothing or time runs out:
    message passing is a heuristic, and its plan often leaves a reshard or a bucket
    that one decision's change saves."""
    import numpy as np

    changed = True
    while changed:
        changed = False
        for g in range(len(local.sizes)):
            if _past(deadline):
                return local.choice
            now = local.choice[g]
            cost, runs, held = local.options(g)
            cost[~(local.held_if(g, held) <= local.limit).all(axis=0)] = inf
            best = int(np.argmin(cost))
            if cost[best] < cost[now] * (1 - 1e-9) - 1e-15:
                local.move(g, best, runs, held)
                changed = True
    return local.choice


def _repair(local: _Local, deadline: float | None) -> bool:
    """Bring `local`'s plan within the limit, a round of steps at a time: each round
    ranks the strategies of the groups of the points over the limit by the bytes over
    it (summed over the points) they shed per second they add, then takes them in that
    order, each if it still sheds some, until no point is over. A plan found without
    some memory rows often breaks them by a little, and a few steps make it a plan
    cheaper than the start; `_improve` then takes back the steps it did not need.
    False when a round sheds nothing or time runs out."""
    import numpy as np

    def shed(g: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        now = local.choice[g]
        cost, runs, held = local.options(g)
        excess = np.maximum(0.0, local.held[local.points_of[g].ids] - local.limit)
        gone = (excess[:, None] - np.maximum(0.0, local.held_if(g, held) - local.limit)).sum(axis=0)
        gone[~np.isfinite(cost)] = 0.0
        return (cost - cost[now]) / np.where(gone > 0, gone, 1.0), gone, runs, held

    while (over := np.flatnonzero(local.held > local.limit)).size:
        ranked = []
        for g in sorted(set().union(*(local.groups_at[k] for k in over))):
            if _past(deadline):
                return False
            ratio, gone, _, _ = shed(g)
            if (gone > 0).any():
                ranked.append((ratio[gone > 0].min(), g))
        moved = False
        for _, g in sorted(ranked):
            if not (local.held > local.limit).any():
                break
            if _past(deadline):
                return False
            ratio, gone, runs, held = shed(g)
            if (gone > 0).any():
                ratio[gone <= 0] = inf
                local.move(g, int(np.argmin(ratio)), runs, held)
                moved = True
        if not moved:
            return False
    return True


LAGRANGIAN_STEPS = 16
"""The most prices `_lagrangian` tries: from 4 times the plan's cost without the memory
rows, 4 times the last until one fits, then the geometric middle of the highest that
did not and the lowest that did."""
SWEEPS = 20
"""Message-passing sweeps per price, each warm from the last price's messages."""


def coarsen(p: Problem, rep: list[int]) -> tuple[Problem, list[int]]:
    """`p` with the groups of equal `rep[g]` made one group (they must have the same
    strategies, index for index), and each group's index in it: costs and memory terms
    add up, and a pair within one group keeps its diagonal (both take the same
    strategy). Every plan of the result is a plan of `p` at the same cost and peak."""
    index: dict[int, int] = {}
    back = [index.setdefault(r, len(index)) for r in rep]
    q = Problem(limit=p.limit)
    sums = Sums()
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
                merged.add_pair(back[g], back[h], sizes, sums)
        q.points.append(merged)
    for bucket in p.buckets:
        joined = Bucket(bucket.latency, after=bucket.after)
        for link in bucket.links:
            moved = Link(always=link.always)
            for g, used in link.terms.items():
                moved.terms.setdefault(back[g], set()).update(used)
            for (g, h), runs in link.pairs.items():
                if back[g] == back[h]:
                    diagonal = {a for a in range(len(runs)) if runs[a, a]}
                    moved.terms.setdefault(back[g], set()).update(diagonal)
                else:
                    moved.add_pair(back[g], back[h], runs)
            joined.links.append(moved)
        q.buckets.append(joined)
    return q, back


def _contents() -> Callable[[np.ndarray], bytes]:
    """A matrix's entries as bytes (of floats), read once per object: a copy's sizes are
    one object at every memory point it lives through (`Sums`), so equal matrices are
    told apart by content at the cost of telling distinct objects apart."""
    import numpy as np

    seen: dict[int, tuple[bytes, np.ndarray]] = {}  # (the matrix kept: its id stays its own)

    def content(m: np.ndarray) -> bytes:
        if (found := seen.get(id(m))) is None:
            found = seen[id(m)] = (np.asarray(m, dtype=float).tobytes(), m)
        return found[0]

    return content


def _row_classes(x: np.ndarray) -> np.ndarray:
    """Each row's class, numbered as they first come: rows equal entry for entry share
    one (a dict of their bytes: `np.unique(axis=0)` sorts them, 11 ms a pair on the
    12-layer GPT)."""
    import numpy as np

    seen: dict[bytes, int] = {}
    return np.array([seen.setdefault(row.tobytes(), len(seen)) for row in np.ascontiguousarray(x)])


def _firsts(classes: np.ndarray) -> dict[int, int]:
    """The first index of each class."""
    return {int(c): i for i, c in reversed(list(enumerate(classes)))}


def plan_cost(p: Problem, choice: list[int]) -> float:
    """The modeled seconds of one choice per group."""
    total = sum(c[a] for c, a in zip(p.linear, choice, strict=True))
    total += sum(b.latency * b.depth(choice) for b in p.buckets)
    return total + sum(float(m[choice[g], choice[h]]) for (g, h), m in p.pairs.items())
