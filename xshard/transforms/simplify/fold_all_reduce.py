"""`shard-fold-all-reduce`: two all-reduces of one kind in a chain become one.

`all_reduce_B(f_n(...f_1(all_reduce_A(x), c_1)...))` becomes
`all_reduce_{A∪B}(f_n(...f_1(x, c_1)...))` (axes A then B's new ones), same grid
and kind, when
- every value from the inner all-reduce up to the outer one has one use;
- each f_i commutes with a reduction at that operand (`distributivity.commutes`)
  and its other operands are replicated over A, so
  `f_i(R_A v, c) = R_A f_i(v, c)`: the inner reduction moves up to the outer one;
- then `R_B ∘ R_A = R_{A∪B}`: when A and B are disjoint each device of an A∪B
  group is counted once; when they overlap the overlap's replicas are counted
  again, which only idempotent kinds (max, min, and, or) forgive;
- the inner all-reduce keeps its element type (no accumulation-type change);
- the chain does not grow the data (a broadcast would): the outer operand has
  no more elements than the inner one, so one larger group never moves more
  bytes than the two collectives did.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, ShapedType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects.shard import AllReduceOp
from xshard.sharding.reduction import ReductionKind
from xshard.transforms.simplify.distributivity import IDEMPOTENT, commutes
from xshard.transforms.simplify.replication import is_replicated

_MAX_CHAIN = 16
"""Ops followed between the two all-reduces."""


def _inner(value: SSAValue, kind: ReductionKind, depth: int) -> AllReduceOp | None:
    """The all-reduce of `kind` that `value` comes from through single-use ops that
    commute with it, each entered at one operand, the others replicated over its axes."""
    op = value.owner
    if not value.has_one_use() or not isinstance(op, Operation):
        return None
    if isinstance(op, AllReduceOp):
        same_type = op.input.type == op.result.type
        return op if op.reduction.data == kind and same_type else None
    if depth == 0:
        return None
    for position, operand in enumerate(op.operands):
        if not commutes(op, position, kind):
            continue
        inner = _inner(operand, kind, depth - 1)
        if inner is None:
            continue
        grid, axes = inner.grid.root_reference.data, inner.grid_axes_tuple()
        others = (v for i, v in enumerate(op.operands) if i != position)
        if all(is_replicated(v, grid, axes) for v in others):
            return inner
    return None


def _grows(inner: SSAValue, outer: SSAValue) -> bool:
    if inner.type == outer.type:
        return False
    if not isinstance(inner.type, ShapedType) or not isinstance(outer.type, ShapedType):
        return True
    shapes = (inner.type.get_shape(), outer.type.get_shape())
    if any(d < 0 for shape in shapes for d in shape):
        return True
    return prod(shapes[1]) > prod(shapes[0])


class FoldAllReduceChain(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllReduceOp, rewriter: PatternRewriter) -> None:
        kind = op.reduction.data
        inner = _inner(op.input, kind, _MAX_CHAIN)
        if inner is None or inner.grid != op.grid or _grows(inner.input, op.input):
            return
        inner_axes, outer_axes = inner.grid_axes_tuple(), op.grid_axes_tuple()
        if set(inner_axes) & set(outer_axes) and kind not in IDEMPOTENT:
            return
        axes = [*inner_axes, *(a for a in outer_axes if a not in inner_axes)]
        rewriter.replace(inner, (), (inner.input,))
        rewriter.replace(op, AllReduceOp(op.input, op.grid, axes, kind, op.result.type))


def patterns() -> list[RewritePattern]:
    return [FoldAllReduceChain()]


@dataclass(frozen=True)
class FoldAllReducePass(ModulePass):
    """Fold chained same-kind all-reduces.

    Through the ops that commute with them, into one all-reduce.
    """

    name = "shard-fold-all-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns(), dce_enabled=False)
        ).rewrite_module(op)
