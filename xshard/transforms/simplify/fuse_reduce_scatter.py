"""`shard-fuse-reduce-scatter`: `all_slice(all_reduce(x))` over the same axes is a
`reduce_scatter`, as in upstream's `shard-simplify`.

A ring reduce-scatter moves (n-1)/n of the tensor per device, half of what the
all-reduce moves, and no device ever holds the whole reduced tensor. The
all-reduce must have no other use (else it stays and the fusion only adds
traffic); grid and grid axes (in order) must be the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects.shard import AllReduceOp, AllSliceOp, ReduceScatterOp


class FuseAllReduceAllSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllSliceOp, rewriter: PatternRewriter) -> None:
        reduce = op.input.owner
        if (
            not isinstance(reduce, AllReduceOp)
            or reduce.grid != op.grid
            or reduce.grid_axes_tuple() != op.grid_axes_tuple()
            or not reduce.result.has_one_use()
        ):
            return
        fused = ReduceScatterOp(
            reduce.input,
            op.grid,
            op.grid_axes_tuple(),
            op.slice_axis.value.data,
            op.result.type,
            reduce.reduction.data,
        )
        rewriter.replace(op, fused)
        rewriter.erase(reduce)


def patterns() -> list[RewritePattern]:
    return [FuseAllReduceAllSlice()]


@dataclass(frozen=True)
class FuseReduceScatterPass(ModulePass):
    """Fuse all-reduce+slice to reduce-scatter."""

    name = "shard-fuse-reduce-scatter"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns())).rewrite_module(op)
