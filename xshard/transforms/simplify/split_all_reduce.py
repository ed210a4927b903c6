"""`shard-split-all-reduce`: an all_reduce over several grid axes, split into one per
axis where every piece can ride along with an all_reduce over that axis alone.

XLA's all-reduce combiner merges independent all-reduces over the same device groups
into one tuple all-reduce after xshard's program reaches it. An all_reduce over axes
[0, 1] (a loss left partial over the batch axis and, through a vocabulary-parallel
cross entropy, the model axis) has no partner over its groups, while the gradients are
settled over [0] and the vocabulary sums over [1]. A reduction over a product of groups
is the reduction over one factor, then the other, so split into an all_reduce over
[1] and one over [0], each piece joins one of them: one collective fewer, as XLA
itself settles such a loss.

A piece's partner must be independent of the op (neither reads the other through any
chain of ops in the block), and an earlier piece's partner must not read a later
piece's, or the merged collectives would wait for each other: the pieces go in the
order of their partners, the latest independent all_reduce over each axis. The cost
model decides:
the pieces cost their bytes alone (they add no latency step to their partners), the op
its whole modeled time; the split is taken when the pieces are cheaper, which holds for
the small, latency-bound values (a scalar loss) this is for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.dialects.shard import AllReduceOp, lookup_grid
from xshard.sharding.cost_model import CostModel, collective_bytes
from xshard.sharding.grid import Grid
from xshard.sharding.resharding import nominal_group
from xshard.sharding.tensor_bytes import tensor_bytes

MODEL = CostModel()


def _top(op: Operation, block: Block) -> Operation | None:
    """`op`, or the op of `block` that holds it."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _reach(op: Operation, forward: bool) -> set[Operation]:
    """The ops of `op`'s block that read `op` (forward) or that `op` reads, through any
    chain of ops."""
    block = op.parent_block()
    assert block is not None
    found: set[Operation] = set()
    stack = [op]
    while stack:
        current = stack.pop()
        nested = list(current.walk())
        if forward:
            nexts = [use.operation for inner in nested for r in inner.results for use in r.uses]
        else:
            nexts = [v.owner for inner in nested for v in inner.operands]
        for other in nexts:
            if isinstance(other, Operation) and (top := _top(other, block)) is not None:
                if top is not op and top not in found:
                    found.add(top)
                    stack.append(top)
    return found


def _key(op: AllReduceOp) -> tuple[object, ...]:
    return (op.grid.root_reference.data, op.reduction.data, op.input.type.element_type)  # type: ignore[union-attr]


@dataclass(frozen=True)
class SplitAllReducePass(ModulePass):
    """Split all-reduces over several axes.

    Splits where the cost model says the pieces, merged, cost less (module docstring)."""

    name = "shard-split-all-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if isinstance(o, AllReduceOp)]:
            if len(candidate.grid_axes_tuple()) > 1:
                _split(candidate)


def _split(op: AllReduceOp) -> None:
    block = op.parent_block()
    found = lookup_grid(op, op.grid)
    t = op.input.type
    if block is None or found is None or not isinstance(t, TensorType):
        return
    size = tensor_bytes(t)
    if size is None or None in found.shape_tuple():
        return
    grid = Grid(found.sym_name.data, found.shape_tuple())
    axes = op.grid_axes_tuple()
    if not _worth_it(axes, size, grid):
        return
    related = _reach(op, True) | _reach(op, False)
    position = {o: i for i, o in enumerate(block.ops)}
    last = {  # the latest candidate partner over each single axis
        other.grid_axes_tuple()[0]: other
        for other in block.ops
        if isinstance(other, AllReduceOp)
        and other is not op
        and len(other.grid_axes_tuple()) == 1
        and _key(other) == _key(op)
        and other not in related
    }
    if any(a not in last for a in axes):
        return
    # Pieces in the order of their partners: a later partner (the gradients' reduction
    # at the end of a train step) takes the later piece, so no merge waits on another.
    order = sorted(axes, key=lambda a: position[last[a]])
    if _acyclic([last[a] for a in order]):
        _rewrite(op, order)


def _worth_it(axes: Sequence[int], size: int, grid: Grid) -> bool:
    """The pieces' bytes alone against the op's modeled time."""
    whole = MODEL.collective_time("all_reduce", size, axes, grid)
    pieces = sum(
        collective_bytes("all_reduce", size, nominal_group((a,), grid)) / MODEL.link(a).bandwidth
        for a in axes
    )
    return pieces < whole


def _acyclic(partners: Sequence[AllReduceOp]) -> bool:
    """No earlier piece's partner reads a later piece's partner."""
    return all(
        later not in _reach(earlier, False)
        for i, earlier in enumerate(partners)
        for later in partners[i + 1 :]
    )


def _rewrite(op: AllReduceOp, order: Sequence[int]) -> None:
    value = op.input
    pieces = []
    for axis in order:
        piece = AllReduceOp(value, op.grid, [axis], op.reduction.data, op.result.type)
        pieces.append(piece)
        value = piece.result
    Rewriter().insert_op(pieces, InsertPoint.before(op))
    op.result.replace_all_uses_with(value)
    Rewriter.erase_op(op)
