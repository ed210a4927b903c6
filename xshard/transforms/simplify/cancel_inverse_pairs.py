"""`shard-cancel-inverse-pairs`: an `all_gather` and an `all_slice` on the same grid,
grid axes (in order) and tensor dim undo each other, where that is sound.

- `all_slice(all_gather(x))` is `x` always: each device gathers the group's blocks
  and keeps its own, which is the `x` it sent.
- `all_gather(all_slice(x))` is `x` only when `x` is the same on every device of
  the group (`replication.is_replicated`): otherwise device k gets the
  concatenation of the other devices' slices of *their* `x`, not its own `x`.
  Upstream folds this pair unconditionally, which is wrong for such an `x`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects.shard import AllGatherOp, AllSliceOp
from xshard.transforms.simplify.replication import is_replicated


def _inverse(outer: AllGatherOp | AllSliceOp, inner: Operation) -> bool:
    """Whether `inner` is the opposite collective of `outer` on the same group and dim."""
    if isinstance(outer, AllGatherOp):
        if not isinstance(inner, AllSliceOp):
            return False
        outer_dim, inner_dim = outer.gather_axis, inner.slice_axis
    else:
        if not isinstance(inner, AllGatherOp):
            return False
        outer_dim, inner_dim = outer.slice_axis, inner.gather_axis
    return (
        inner.grid == outer.grid
        and inner.grid_axes_tuple() == outer.grid_axes_tuple()
        and inner_dim.value.data == outer_dim.value.data
        and inner.input.type == outer.result.type
    )


def _replace_by_source(op: AllGatherOp | AllSliceOp, rewriter: PatternRewriter) -> None:
    inner = op.input.owner
    assert isinstance(inner, AllGatherOp | AllSliceOp)
    rewriter.replace(op, [], [inner.input])
    if inner.result.first_use is None:
        rewriter.erase(inner)


class CancelSliceOfGather(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllSliceOp, rewriter: PatternRewriter) -> None:
        if _inverse(op, op.input.owner):
            _replace_by_source(op, rewriter)


class CancelGatherOfSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllGatherOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if (
            isinstance(inner, AllSliceOp)
            and _inverse(op, inner)
            and is_replicated(inner.input, op.grid.root_reference.data, op.grid_axes_tuple())
        ):
            _replace_by_source(op, rewriter)


def patterns() -> list[RewritePattern]:
    return [CancelSliceOfGather(), CancelGatherOfSlice()]


@dataclass(frozen=True)
class CancelInversePairsPass(ModulePass):
    """Cancel all-gather/all-slice inverses."""

    name = "shard-cancel-inverse-pairs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns())).rewrite_module(op)
