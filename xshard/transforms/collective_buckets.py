"""Which independent collectives of a block may share one collective, and the block's
order afterwards: the scheduling that `shard-combine-collectives` (all_gathers and
reduce_scatters, concatenated at the shard level) and `stablehlo-combine-collectives`
(variadic all_gathers and all_reduces) share, so the two cannot disagree on what is
safe.

A pass supplies a `Combiner` (which ops may share a bucket, their size, how a bucket
becomes one op). Buckets form greedily in program order: an op joins the open bucket
of its key unless one of them depends on the other through any chain of ops, checked
on the block's dependence graph with the buckets already formed (so two buckets can
never wait for each other), or the bucket would pass `max_bytes`. The block is then
put back in a dependence order that keeps every op as early as its original place
allows. Ops with side effects keep their order among themselves; the combinable
collectives are not in that chain: every device runs the same program, so moving a
collective moves it on all of them alike (XLA's combiners do the same).

Every block of the module is treated on its own (function bodies, while bodies, case
branches): only ops of one block share a bucket.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Sequence
from typing import Protocol

from xdsl.builder import Builder
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, is_side_effect_free


class Combiner(Protocol):
    def key(self, op: Operation) -> Hashable | None:
        """Ops with equal keys may share a bucket; None: `op` is never combined."""
        ...

    def size(self, op: Operation) -> int:
        """The bytes `op` adds to a bucket (per device), against `max_bytes`."""
        ...

    def combine(self, b: Builder, ops: Sequence[Operation]) -> list[SSAValue]:
        """One collective for `ops` (still in the block), built with `b`; the values
        that replace the ops' results, in order."""
        ...


class _Graph:
    """The block's ops as a DAG, with nodes merged into buckets as they are formed."""

    def __init__(self, block: Block, movable: set[int]):
        self.ops = list(block.ops)
        self.position = {op: i for i, op in enumerate(self.ops)}
        self.parent = list(range(len(self.ops)))
        self.succ: list[set[int]] = [set() for _ in self.ops]
        effectful: int | None = None
        for i, op in enumerate(self.ops):
            for inner in op.walk():
                for operand in inner.operands:
                    owner = self._top(operand)
                    if owner is not None and owner != i:
                        self.succ[owner].add(i)
            if i not in movable and not (is_side_effect_free(op) or op.has_trait(IsTerminator)):
                if effectful is not None:
                    self.succ[effectful].add(i)
                effectful = i
        last = len(self.ops) - 1
        for i in range(last):  # the terminator stays last
            self.succ[i].add(last)

    def _top(self, value: SSAValue) -> int | None:
        owner = value.owner
        while isinstance(owner, Operation):
            if owner in self.position:
                return self.position[owner]
            owner = owner.parent_op()
        return None

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def reaches(self, a: int, b: int) -> bool:
        """Whether node `b` depends on node `a` (through other nodes)."""
        a, b = self.find(a), self.find(b)
        seen, stack = {a}, [a]
        while stack:
            for s in self.succ[stack.pop()]:
                s = self.find(s)
                if s == b:
                    return True
                if s not in seen:
                    seen.add(s)
                    stack.append(s)
        return False

    def merge(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        self.parent[b] = a
        self.succ[a] |= self.succ[b]
        self.succ[a].discard(a)

    def order(self) -> list[int]:
        """Node roots in a dependence order, each as early as its first member allows."""
        roots = sorted({self.find(i) for i in range(len(self.ops))})
        first = {r: min(i for i in range(len(self.ops)) if self.find(i) == r) for r in roots}
        preds = {r: 0 for r in roots}
        succs = {r: {self.find(s) for s in self.succ[r]} - {r} for r in roots}
        for r in roots:
            for s in succs[r]:
                preds[s] += 1
        ready = [(first[r], r) for r in roots if preds[r] == 0]
        heapq.heapify(ready)
        out = []
        while ready:
            _, r = heapq.heappop(ready)
            out.append(r)
            for s in succs[r]:
                preds[s] -= 1
                if preds[s] == 0:
                    heapq.heappush(ready, (first[s], s))
        assert len(out) == len(roots), "buckets are formed only between independent ops"
        return out


def _buckets(
    graph: _Graph, keys: dict[int, Hashable], combiner: Combiner, max_bytes: int
) -> list[list[int]]:
    """Greedy: each op joins the open bucket of its key if neither depends on the other
    and the bucket stays under `max_bytes`."""
    open_: dict[Hashable, tuple[int, list[int], int]] = {}
    done: list[list[int]] = []
    for i, key in keys.items():
        size = combiner.size(graph.ops[i])
        if key in open_:
            root, members, total = open_[key]
            if (
                total + size <= max_bytes
                and not graph.reaches(root, i)
                and not graph.reaches(i, root)
            ):
                graph.merge(root, i)
                open_[key] = (graph.find(root), [*members, i], total + size)
                continue
            done.append(members)
        open_[key] = (i, [i], size)
    done += [members for _, members, _ in open_.values()]
    return [members for members in done if len(members) > 1]


def combine_block(block: Block, combiner: Combiner, max_bytes: int) -> None:
    """Bucket the block's combinable ops and reorder the block around the buckets."""
    ops = list(block.ops)
    keys = {i: key for i, op in enumerate(ops) if (key := combiner.key(op)) is not None}
    if len(keys) < 2 or not ops[-1].has_trait(IsTerminator):
        return
    graph = _Graph(block, set(keys))
    buckets = {graph.find(m[0]): m for m in _buckets(graph, keys, combiner, max_bytes)}
    if not buckets:
        return
    b = Builder(InsertPoint.at_end(block))
    for root in graph.order():  # each op (or bucket) in turn to the end of the block
        if root not in buckets:
            ops[root].detach()
            block.add_op(ops[root])
            continue
        group = [ops[i] for i in buckets[root]]
        values = combiner.combine(b, group)
        old = [result for op in group for result in op.results]
        for result, value in zip(old, values, strict=True):
            result.replace_all_uses_with(value)
        for op in group:
            block.erase_op(op)


def combine_module(module: ModuleOp, combiner: Combiner, max_bytes: int) -> None:
    """`combine_block` on every block of the module."""
    blocks = [block for op in module.walk() for region in op.regions for block in region.blocks]
    for block in blocks:
        combine_block(block, combiner, max_bytes)
