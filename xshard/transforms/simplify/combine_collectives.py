"""`shard-combine-collectives`: one collective for several independent ones, as XLA's
all-reduce, all-gather and reduce-scatter combiners do.

Collectives of the same kind over the same device groups (grid, grid axes, reduction,
element type), none of which depends on another, are bucketed: each operand is
flattened, the flat operands are concatenated, one collective moves the bucket, and
each result is cut back out and reshaped. A gradient of N parameters then costs one
all-reduce instead of N. The shard dialect's collectives take one tensor each (as
upstream's), so the bucket is that one tensor; it is what data-parallel trainers do
by hand (gradient bucketing).

The block is then put back in a dependence order that keeps every op as early as
its original place allows; ops with side effects keep their order among themselves.
Buckets stop growing at `max-bytes` (per device, before the collective).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, is_side_effect_free

from xshard.dialects import stablehlo as hlo
from xshard.dialects.shard import AllGatherOp, AllReduceOp, ReduceScatterOp, lookup_grid
from xshard.sharding.tensor_bytes import element_bytes

Combinable = AllReduceOp | AllGatherOp | ReduceScatterOp


def _key(op: Combinable) -> tuple[object, ...] | None:
    """Collectives with equal keys may share one bucket."""
    t = op.input.type
    if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
        return None
    reduction = getattr(op, "reduction", None)
    return (
        type(op),
        op.grid.root_reference.data,
        op.grid_axes_tuple(),
        None if reduction is None else reduction.data,
        t.element_type,
    )


def _bytes(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, TensorType)
    return prod(t.get_shape()) * element_bytes(t)


class _Graph:
    """The block's ops as a DAG, with nodes merged into buckets as they are formed."""

    def __init__(self, block: Block):
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
            if not (is_side_effect_free(op) or op.has_trait(IsTerminator)):
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


def _buckets(graph: _Graph, max_bytes: int) -> list[list[int]]:
    """Greedy: each collective joins the open bucket of its key if neither depends on
    the other and the bucket stays under `max_bytes`."""
    open_: dict[tuple[object, ...], tuple[int, list[int], int]] = {}
    done: list[list[int]] = []
    for i, op in enumerate(graph.ops):
        if not isinstance(op, Combinable) or (key := _key(op)) is None:
            continue
        size = _bytes(op.input)
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


def _flat(b: Builder, value: SSAValue) -> SSAValue:
    t = value.type
    assert isinstance(t, TensorType)
    return _reshape(b, value, [prod(t.get_shape())])


def _unpack(b: Builder, bucket: SSAValue, shapes: Sequence[Sequence[int]]) -> list[SSAValue]:
    """Consecutive pieces of the bucket's last dim, each reshaped to its shape (which
    keeps the bucket's leading dims)."""
    t = bucket.type
    assert isinstance(t, TensorType)
    lead = list(t.get_shape()[:-1])
    out, start = [], 0
    for shape in shapes:
        size = prod(shape) // prod(lead)
        piece = b.insert(hlo.SliceOp(bucket, [0] * len(lead) + [start], [*lead, start + size]))
        out.append(_reshape(b, piece.results[0], shape))
        start += size
    return out


def _concat(b: Builder, values: list[SSAValue], dim: int) -> SSAValue:
    return b.insert(hlo.ConcatenateOp(values, dim)).results[0]


def _move_dim(b: Builder, value: SSAValue, src: int, dst: int) -> SSAValue:
    t = value.type
    assert isinstance(t, TensorType)
    perm = list(range(len(t.get_shape())))
    perm.insert(dst, perm.pop(src))
    if perm == sorted(perm):
        return value
    shape = [t.get_shape()[p] for p in perm]
    return b.insert(hlo.TransposeOp(value, perm, TensorType(t.element_type, shape))).results[0]


def _reshape(b: Builder, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    t = value.type
    assert isinstance(t, TensorType)
    if list(t.get_shape()) == list(shape):
        return value
    return b.insert(hlo.ReshapeOp(value, TensorType(t.element_type, list(shape)))).results[0]


def _combine(b: Builder, ops: list[Combinable], n: int) -> list[SSAValue]:
    """The ops' results, from one collective over the bucket of their operands."""
    first = ops[0]
    grid, axes = first.grid, first.grid_axes_tuple()
    element = first.input.type.element_type  # type: ignore[union-attr]
    if isinstance(first, AllReduceOp):
        bucket = _concat(b, [_flat(b, op.input) for op in ops], 0)
        reduced = b.insert(
            AllReduceOp(bucket, grid, axes, first.reduction.data, bucket.type)
        ).results[0]
        return _unpack(b, reduced, [op.input.type.get_shape() for op in ops])  # type: ignore[union-attr]
    if isinstance(first, AllGatherOp):
        bucket = _concat(b, [_flat(b, op.input) for op in ops], 0)
        total = bucket.type.get_shape()[0]  # type: ignore[union-attr]
        gathered = b.insert(
            AllGatherOp(bucket, grid, axes, 0, TensorType(element, [n * total]))
        ).results[0]
        shapes = [list(op.input.type.get_shape()) for op in ops]  # type: ignore[union-attr]
        pieces = _unpack(b, _reshape(b, gathered, [n, total]), [[n, *s] for s in shapes])
        out = []
        for op, shape, piece in zip(ops, shapes, pieces, strict=True):
            d = op.gather_axis.value.data
            merged = shape[:d] + [n * shape[d]] + shape[d + 1 :]
            out.append(_reshape(b, _move_dim(b, piece, 0, d), merged))
        return out
    # reduce_scatter: each operand's n chunks along its scatter dim become n rows.
    rows_of = []
    for op in ops:
        shape = list(op.input.type.get_shape())  # type: ignore[union-attr]
        d = op.scatter_axis.value.data
        split = _reshape(b, op.input, shape[:d] + [n, shape[d] // n] + shape[d + 1 :])
        front = _move_dim(b, split, d, 0)
        rows_of.append(_reshape(b, front, [n, prod(shape) // n]))
    bucket = _concat(b, rows_of, 1)
    width = bucket.type.get_shape()[1]  # type: ignore[union-attr]
    flat = _reshape(b, bucket, [n * width])
    scattered = b.insert(
        ReduceScatterOp(flat, grid, axes, 0, TensorType(element, [width]), first.reduction.data)
    ).results[0]
    return _unpack(b, scattered, [op.result.type.get_shape() for op in ops])  # type: ignore[union-attr]

def combine_block(block: Block, max_bytes: int) -> int:
    """Bucket the block's combinable collectives; returns how many were removed."""
    if not block.ops or not isinstance(block.last_op, Operation):
        return 0
    graph = _Graph(block)
    buckets = _buckets(graph, max_bytes)
    if not buckets:
        return 0
    ops = graph.ops
    order = graph.order()
    members = {graph.find(m[0]): m for m in buckets}
    for op in ops:
        op.detach()
    b = Builder(InsertPoint.at_end(block))
    removed = 0
    for root in order:
        if root not in members:
            block.add_op(ops[root])
            continue
        group: list[Combinable] = [ops[i] for i in members[root]]  # type: ignore[misc]
        grid = lookup_grid(block.parent_op(), group[0].grid)  # type: ignore[arg-type]
        assert grid is not None
        sizes = grid.shape.get_values()
        n = prod(sizes[a] for a in group[0].grid_axes_tuple())
        values = _combine(b, group, n)
        for op, value in zip(group, values, strict=True):
            op.result.replace_all_uses_with(value)
            op.erase()
        removed += len(group) - 1
    return removed


@dataclass(frozen=True)
class CombineCollectivesPass(ModulePass):
    """Options: `max-bytes`, the largest bucket per device (default 32 MiB, XLA's
    order of magnitude)."""

    name = "shard-combine-collectives"

    max_bytes: int = 32 * 1024 * 1024

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.walk():
            if isinstance(fn, func.FuncOp) and len(fn.body.blocks) == 1:
                combine_block(fn.body.block, self.max_bytes)

