"""Large-neighbourhood search: a plan made cheaper a few dozen groups at a time, each
few solved exactly with the rest held (Shaw, 1998; the MIP heuristics' RINS and
local branching are its kin).

On a large program `ilp.solve`'s MIP rarely closes in its time limit (the 4-layer GPT
train step at 1/4 of replication: a 98% gap after 30 s), and its start, made one group
at a time (`_improve`), misses the changes that move several groups at once: there
the plan it gave (561 µs) differed from Megatron's (491.7 µs, which fits) in 24
groups, 11 of them connected, whose change together saves 69.7 µs where each alone
costs more. A
neighbourhood is grown from the group that costs the most in the plan (its strategy,
half of each of its pairs, its share of the buckets it runs), along pairs, and the
program restricted to it (the others' choices folded into its costs, memory and
buckets) is a MIP of a few dozen groups, which HiGHS solves in well under a second.
"""

from __future__ import annotations

import heapq
import time

from xshard.transforms.propagation.auto.ilp import (
    LAZY_POINTS,
    Bucket,
    Link,
    MemoryPoint,
    Problem,
    _broken,
    _Model,
    _past,
    plan_cost,
)

SIZE = 30
"""Groups in a first neighbourhood; a pass that improves nothing doubles it (on the
GPT train steps at 1/4, 30 finds the 4-layer plan's 11-group change in 5 s, 20 never;
50 takes 7 s)."""
SECONDS = 2.0
"""The most one neighbourhood's MIP may take."""


class Neighbourhoods:
    """`p`'s groups joined by pairs, and the points and buckets each group is in."""

    def __init__(self, p: Problem):
        self.p = p
        n = len(p.linear)
        self.joined: list[set[int]] = [set() for _ in range(n)]
        self.pairs_of: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for g, h in p.pairs:
            self._join(g, h)
            self.pairs_of[g].append((g, h))
            self.pairs_of[h].append((g, h))
        self.buckets_of: list[set[int]] = [set() for _ in range(n)]
        for b, bucket in enumerate(p.buckets):
            for link in bucket.links:
                for g in link.terms:
                    self.buckets_of[g].add(b)
                for g, h in link.pairs:
                    self._join(g, h)
                    self.buckets_of[g].add(b)
                    self.buckets_of[h].add(b)
        self.points_of: list[set[int]] = [set() for _ in range(n)]
        for k, point in enumerate(p.points):
            if p.limit is not None and point.most() > p.limit:  # (else it never binds)
                for g in point.terms:
                    self.points_of[g].add(k)
                for g, h in point.pairs:
                    self.points_of[g].add(k)
                    self.points_of[h].add(k)

    def _join(self, g: int, h: int) -> None:
        self.joined[g].add(h)
        self.joined[h].add(g)

    def improve(self, choice: list[int], deadline: float) -> list[int]:
        """`choice` (within the limit, which the problem must have) made cheaper, a
        neighbourhood at a time, until the deadline or a neighbourhood as large as the
        program: seeds in order of what they cost, each skipped that an earlier
        neighbourhood of the pass held; a cheaper plan starts the pass again, a pass
        with none doubles the size. A neighbourhood that found nothing is not solved
        again while it and the groups it pairs with keep their strategies: a change
        elsewhere reaches it only through memory and shared buckets, and on the
        scanned 4-layer GPT train step at 1/4 such retries were 35 of 85 solves (in
        one run each, the solve's plan came to 486.4 µs without them, 536.5 with;
        three runs without them ended between 486.4 and 536.5)."""
        choice = list(choice)
        cost = plan_cost(self.p, choice)
        size = SIZE
        failed: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        while size < len(choice) and not _past(deadline):
            held: set[int] = set()
            for seed in self._seeds(choice):
                if seed in held:
                    continue
                if _past(deadline):
                    return choice
                free = self._grow(seed, size)
                held.update(free)
                around = sorted(set(free).union(*(self.joined[g] for g in free)))
                tried = (tuple(free), tuple(choice[g] for g in around))
                if tried in failed:
                    continue
                found = self._solve(choice, free, min(deadline, time.perf_counter() + SECONDS))
                if found is not None and (new := plan_cost(self.p, found)) < cost * (1 - 1e-9):
                    choice, cost = found, new
                    break
                failed.add(tried)
            else:
                size *= 2
        return choice

    def _seeds(self, choice: list[int]) -> list[int]:
        """The groups that cost something in `choice`, the dearest first: each its
        strategy, half of each of its pairs, and of each bucket's collectives it runs,
        the latency shared among the groups that mark it."""
        p = self.p
        blame = [row[a] for row, a in zip(p.linear, choice, strict=True)]
        for (g, h), m in p.pairs.items():
            half = float(m[choice[g], choice[h]]) / 2
            blame[g] += half
            blame[h] += half
        for bucket in p.buckets:
            for link in bucket.links:
                if link.marks(choice):
                    marking = [*link.terms, *(g for pair in link.pairs for g in pair)]
                    for g in marking:
                        blame[g] += bucket.latency / len(marking)
        return sorted((g for g, b in enumerate(blame) if b > 0), key=lambda g: -blame[g])

    def _grow(self, seed: int, size: int) -> list[int]:
        """`size` groups near `seed`: each next the nearest, a step from a group as
        long as that group has pairs (a group in many, like a weight read by every
        layer, would fill the neighbourhood with its readers alone)."""
        dist = {seed: 0}
        heap = [(0, seed)]
        grown: list[int] = []
        taken: set[int] = set()
        while heap and len(grown) < size:
            d, g = heapq.heappop(heap)
            if g in taken:
                continue
            taken.add(g)
            grown.append(g)
            far = d + len(self.joined[g])
            for h in self.joined[g]:
                if h not in dist or far < dist[h]:
                    dist[h] = far
                    heapq.heappush(heap, (far, h))
        return sorted(grown)

    def _solve(self, choice: list[int], free: list[int], deadline: float) -> list[int] | None:
        """The cheapest plan that changes only `free` (memory rows added as its plans
        break them), from `choice`; None where no plan came by the deadline."""
        q = self.within(choice, free)
        model = _Model(q)
        start = [choice[g] for g in free]
        while True:
            found, _ = model.mip(deadline, start)
            if found is None:
                return None
            over = _broken(q, found)
            if not over:
                break
            model.add_points(over[:LAZY_POINTS])
        plan = list(choice)
        for g, a in zip(free, found, strict=True):
            plan[g] = a
        return plan

    def within(self, choice: list[int], free: list[int]) -> Problem:
        """`p` over the groups `free` alone, the others taking `choice`: a pair with one
        of them becomes costs, bytes and collectives of the free group, one with none
        a constant (left out where it is a cost). Only the points a plan of `free` can
        break are kept, and only the buckets it runs collectives of."""
        import numpy as np

        p = self.p
        at = {g: i for i, g in enumerate(free)}
        q = Problem(limit=p.limit)
        q.linear = [list(p.linear[g]) for g in free]
        for g, h in {pair for f in free for pair in self.pairs_of[f]}:
            m = p.pairs[(g, h)]
            if g in at and h in at:
                q.pairs[(at[g], at[h])] = m
            elif g in at:
                q.linear[at[g]] = (np.array(q.linear[at[g]]) + m[:, choice[h]]).tolist()
            else:
                q.linear[at[h]] = (np.array(q.linear[at[h]]) + m[choice[g], :]).tolist()
        for k in sorted(set().union(*(self.points_of[g] for g in free))):
            point = p.points[k]
            kept = MemoryPoint(point.base)
            for g, per in point.terms.items():
                if g in at:
                    kept.add_terms(at[g], per)
                else:
                    kept.base += per[choice[g]]
            for (g, h), sizes in point.pairs.items():
                if g in at and h in at:
                    kept.pairs[(at[g], at[h])] = sizes
                elif g in at:
                    kept.add_terms(at[g], sizes[:, choice[h]].astype(int).tolist())
                elif h in at:
                    kept.add_terms(at[h], sizes[choice[g], :].astype(int).tolist())
                else:
                    kept.base += int(sizes[choice[g], choice[h]])
            q.points.append(kept)
        for b in sorted(set().union(*(self.buckets_of[g] for g in free))):
            bucket = p.buckets[b]
            kept_bucket = Bucket(bucket.latency, after=bucket.after)
            for link in bucket.links:
                kept_bucket.links.append(_link_within(link, choice, at))
            q.buckets.append(kept_bucket)
        return q


def _link_within(link: Link, choice: list[int], at: dict[int, int]) -> Link:
    """`link` over the groups of `at`, the others taking `choice`: it runs always where
    they run it."""
    import numpy as np

    kept = Link(always=link.always)
    for g, used in link.terms.items():
        if g in at:
            kept.terms.setdefault(at[g], set()).update(used)
        elif choice[g] in used:
            kept.always = True
    for (g, h), runs in link.pairs.items():
        if g in at and h in at:
            kept.pairs[(at[g], at[h])] = runs
        elif g in at:
            kept.terms.setdefault(at[g], set()).update(np.flatnonzero(runs[:, choice[h]]).tolist())
        elif h in at:
            kept.terms.setdefault(at[h], set()).update(np.flatnonzero(runs[choice[g], :]).tolist())
        elif runs[choice[g], choice[h]]:
            kept.always = True
    return kept

