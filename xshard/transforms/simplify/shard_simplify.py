"""`shard-simplify`: every collective rewrite of issue 6 to a fixed point, plus
upstream's `grid_shape` folding and the removal of collectives over one device; then
`shard-split-all-reduce` splits an all_reduce over several axes where its pieces can
join independent ones, and `shard-combine-collectives` buckets the independent
all_gathers and reduce_scatters that are left (XLA combines all_reduces itself, with
no copy).

The rewrites come from their own passes' `patterns()`; this pass only adds:
- `FoldGridShape` (upstream's GridShapeFolder): sizes of static grid axes become
  `arith.constant`s; dynamic axes are still queried;
- `RemoveSingleDeviceCollective`: a pure collective whose group is one device
  (grid axes all of size 1, or none) and whose type does not change is its input;
  with upstream's canonicalization for empty grid axes on the other collectives;
- `RemoveIdempotentAllReduce`: an `all_reduce` of max, min, and or or over axes
  where its input is provably the same on every device (`replication`) is its
  input (such a value is what a partial max, made from a whole one, holds).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects.shard import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    BroadcastOp,
    GridShapeOp,
    ReduceScatterOp,
    group_size,
    lookup_grid,
)
from xshard.dialects.shard.canonicalization import RemoveEmptyGridAxesCollective
from xshard.sharding.reduction import ReductionKind
from xshard.transforms.simplify import (
    cancel_inverse_pairs,
    combine_collectives,
    fold_all_reduce,
    fuse_reduce_scatter,
    move_all_gather_down,
    reassociate_all_reduce,
    reassociate_reduce_scatter,
    split_all_reduce,
)
from xshard.transforms.simplify.replication import is_replicated

_REWRITES = (
    fold_all_reduce,
    reassociate_all_reduce,
    reassociate_reduce_scatter,
    move_all_gather_down,
    cancel_inverse_pairs,
    fuse_reduce_scatter,
)
"""The passes whose `patterns()` shard-simplify runs, in priority order."""


class FoldGridShape(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GridShapeOp, rewriter: PatternRewriter) -> None:
        grid = lookup_grid(op, op.grid)
        if grid is None:
            return
        shape = grid.shape_tuple()
        axes = op.axes.get_values() or tuple(range(len(shape)))
        dynamic = [a for a in axes if shape[a] is None]
        if len(dynamic) == len(axes):
            return
        new_ops: list[Operation] = []
        queried = iter(())
        if dynamic:
            new_ops.append(GridShapeOp(op.grid, dynamic))
            queried = iter(new_ops[0].results)
        values: list[SSAValue] = []
        for axis in axes:
            size = shape[axis]
            if size is None:
                values.append(next(queried))
            else:
                new_ops.append(arith.ConstantOp.from_int_and_width(size, IndexType()))
                values.append(new_ops[-1].results[0])
        rewriter.replace(op, new_ops, values)


_Collective = AllGatherOp | AllReduceOp | AllSliceOp | AllToAllOp | BroadcastOp | ReduceScatterOp


class RemoveSingleDeviceCollective(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: _Collective, rewriter: PatternRewriter) -> None:
        grid = lookup_grid(op, op.grid)
        if (
            grid is None
            or op.input.type != op.result.type
            or group_size(op.grid_axes_tuple(), grid.shape.get_values()) != 1
        ):
            return
        rewriter.replace(op, [], [op.input])


_IDEMPOTENT = frozenset(
    {
        ReductionKind.MAX,
        ReductionKind.MIN,
        ReductionKind.BITWISE_AND,
        ReductionKind.BITWISE_OR,
    }
)


class RemoveIdempotentAllReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllReduceOp, rewriter: PatternRewriter) -> None:
        if (
            op.reduction.data in _IDEMPOTENT
            and op.input.type == op.result.type
            and is_replicated(op.input, op.grid.root_reference.data, op.grid_axes_tuple())
        ):
            rewriter.replace(op, [], [op.input])


def patterns() -> list[RewritePattern]:
    rewrites = [p for module in _REWRITES for p in module.patterns()]
    return [
        *rewrites,
        FoldGridShape(),
        RemoveSingleDeviceCollective(),
        RemoveIdempotentAllReduce(),
        RemoveEmptyGridAxesCollective(),
    ]


@dataclass(frozen=True)
class ShardSimplifyPass(ModulePass):
    """The simplify passes, to a fixed point.

    Options: `bucket-bytes`, the largest bucket `shard-combine-collectives` makes, per
    device (default: its `max-bytes`)."""

    name = "shard-simplify"

    bucket_bytes: int = combine_collectives.CombineCollectivesPass.max_bytes

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns())).rewrite_module(op)
        split_all_reduce.SplitAllReducePass().apply(ctx, op)
        combine_collectives.CombineCollectivesPass(self.bucket_bytes).apply(ctx, op)
