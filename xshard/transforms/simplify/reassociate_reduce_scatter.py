"""`shard-reassociate-reduce-scatter`: `op(reduce_scatter(x), reduce_scatter(y))`
becomes `reduce_scatter(op(x, y))`.

The rule of `shard-reassociate-all-reduce` (same grid, axes and kind, here also
the same scatter axis), for elementwise ops only: `op` then runs on the
unscattered operands, so each of its operands must either be one of the
reduce-scatters or a rank-0 value replicated over the axes (a select's scalar
predicate). Slicing commutes with elementwise ops, so
`op(slice R x, slice R y) = slice R op(x, y)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from xshard.dialects.shard import ReduceScatterOp
from xshard.transforms.simplify.reassociate_all_reduce import erase_reductions, joint_reductions


def _key(op: ReduceScatterOp) -> object:
    return (op.grid, op.grid_axes, op.reduction, op.scatter_axis, op.input.type, op.result.type)


def _elementwise(op: Operation, positions: tuple[int, ...]) -> bool:
    """Each operand has the result's shape (the joint ones) or rank 0 (the others)."""
    if len(op.results) != 1 or not isinstance(op.results[0].type, TensorType):
        return False
    shape = op.results[0].type.get_shape()
    for i, value in enumerate(op.operands):
        if not isinstance(value.type, TensorType):
            return False
        if value.type.get_shape() != (shape if i in positions else ()):
            return False
    return True


class ReassociateReduceScatter(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        found = joint_reductions(op, ReduceScatterOp, _key)
        if found is None or not _elementwise(op, found[1]):
            return
        reductions, positions = found
        first = reductions[0]
        operands = list(op.operands)
        for position, reduction in zip(positions, reductions, strict=True):
            operands[position] = reduction.input
        result = op.results[0].type
        new_op = type(op).create(
            operands=operands,
            result_types=[TensorType(result.get_element_type(), first.input.type.get_shape())],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        new_scatter = ReduceScatterOp(
            new_op.results[0],
            first.grid,
            first.grid_axes_tuple(),
            first.scatter_axis.value.data,
            result,
            first.reduction.data,
        )
        rewriter.replace(op, [new_op, new_scatter], [new_scatter.result])
        erase_reductions(reductions, rewriter)


def patterns() -> list[RewritePattern]:
    return [ReassociateReduceScatter()]


@dataclass(frozen=True)
class ReassociateReduceScatterPass(ModulePass):
    """Pull reduce-scatters below pointwise ops.

    `op(reduce_scatter(x), reduce_scatter(y))` to `reduce_scatter(op(x, y))` where the
    elementwise op distributes over the reduction's kind.
    """

    name = "shard-reassociate-reduce-scatter"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns(), dce_enabled=False)
        ).rewrite_module(op)
