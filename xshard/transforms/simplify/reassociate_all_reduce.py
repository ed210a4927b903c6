"""`shard-reassociate-all-reduce`: `op(all_reduce(x), all_reduce(y))` becomes
`all_reduce(op(x, y))`, one collective instead of two.

It fires when `op` distributes over the reduction kind jointly
(`distributivity.joint_positions`: add and subtract for sum, maximum for max,
minimum for min, multiply for product, and / or / xor for the bitwise kinds,
concatenate for sum, max and min), every operand at those positions is an
all-reduce on the same grid, axes and kind that keeps its element type and
feeds only `op`, and `op`'s other operands (a select's predicate) are
replicated over the axes: then `op(R x, R y) = R op(x, y)` pointwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from xshard.dialects.shard import AllReduceOp, ReduceScatterOp
from xshard.transforms.simplify.distributivity import joint_positions
from xshard.transforms.simplify.replication import is_replicated

_Reduction = TypeVar("_Reduction", AllReduceOp, ReduceScatterOp)


def joint_reductions(
    op: Operation, cls: type[_Reduction], key: Callable[[_Reduction], object]
) -> tuple[list[_Reduction], tuple[int, ...]] | None:
    """The reductions of class `cls` that `op` takes at all its joint positions
    (at least two), alike under `key`, with the positions; None if there are none.

    Each must keep its element type and feed only `op`; `op`'s other operands
    must be replicated over their axes.
    """
    for value in op.operands:
        first = value.owner
        if not isinstance(first, cls):
            continue
        positions = joint_positions(op, first.reduction.data)
        if positions is None or len(positions) < 2:
            continue
        reductions = [op.operands[p].owner for p in positions]
        if not all(
            isinstance(r, cls)
            and key(r) == key(first)
            and r.input.type.get_element_type() == r.result.type.get_element_type()
            and all(use.operation is op for use in r.result.uses)
            for r in reductions
        ):
            continue
        grid, axes = first.grid.root_reference.data, first.grid_axes_tuple()
        others = (v for i, v in enumerate(op.operands) if i not in positions)
        if all(is_replicated(v, grid, axes) for v in others):
            return reductions, positions
    return None


def erase_reductions(reductions: Sequence[Operation], rewriter: PatternRewriter) -> None:
    for reduction in dict.fromkeys(reductions):
        rewriter.erase(reduction)


def _all_reduce_key(op: AllReduceOp) -> object:
    return (op.grid, op.grid_axes, op.reduction, op.input.type)


class ReassociateAllReduce(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        found = joint_reductions(op, AllReduceOp, _all_reduce_key)
        if found is None:
            return
        reductions, positions = found
        first = reductions[0]
        new_op = op.clone()
        for position, reduction in zip(positions, reductions, strict=True):
            new_op.operands[position] = reduction.input
        new_reduce = AllReduceOp(
            new_op.results[0],
            first.grid,
            first.grid_axes_tuple(),
            first.reduction.data,
            op.results[0].type,
        )
        rewriter.replace(op, [new_op, new_reduce], [new_reduce.result])
        erase_reductions(reductions, rewriter)


def patterns() -> list[RewritePattern]:
    return [ReassociateAllReduce()]


@dataclass(frozen=True)
class ReassociateAllReducePass(ModulePass):
    """Pull all-reduces below distributing ops.

    `op(all_reduce(x), all_reduce(y))` to `all_reduce(op(x, y))` where op distributes
    over the all-reduce's kind.
    """

    name = "shard-reassociate-all-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns(), dce_enabled=False)
        ).rewrite_module(op)
