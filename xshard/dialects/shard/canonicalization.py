"""Canonicalization patterns of the `shard` dialect, as upstream MLIR has them.

They live next to the dialect, as MLIR keeps them with the ops. The ops carry the
traits of `traits.py`, and this module, which the package imports, fills those in:
imports run from the patterns to the ops, never back.

- `RemoveEmptyGridAxesCollective`: a collective over no grid axes is the
  identity when its input and result types agree (not `shard.shift`, as
  upstream).
- `FoldDuplicateShardOp`: a value annotated by several `shard.shard` ops keeps
  one chain: a later equal annotation is replaced by the earlier one, a later
  different one is re-chained onto it.
- `NormalizeSharding`: constant SSA halo sizes and offsets move into the static
  lists; all-zero halos and equidistant offsets (no more than the default) go.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xshard.dialects.shard.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    ReduceScatterOp,
)
from xshard.dialects.shard.rooted_collectives import (
    BroadcastOp,
    GatherOp,
    RecvOp,
    ReduceOp,
    ScatterOp,
    SendOp,
)
from xshard.dialects.shard.sharding_ops import ShardingOp, ShardOp
from xshard.dialects.shard.traits import (
    EmptyGridAxesCanonicalization,
    ShardCanonicalization,
    ShardingCanonicalization,
)

_RemovableCollective = (
    AllGatherOp
    | AllReduceOp
    | AllSliceOp
    | AllToAllOp
    | BroadcastOp
    | GatherOp
    | RecvOp
    | ReduceOp
    | ReduceScatterOp
    | ScatterOp
    | SendOp
)


class RemoveEmptyGridAxesCollective(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: _RemovableCollective, rewriter: PatternRewriter) -> None:
        if op.grid_axes_tuple() or op.input.type != op.result.type:
            return
        rewriter.replace(op, [], [op.input])


def _same_sharding(lhs: SSAValue, rhs: SSAValue) -> bool:
    """Upstream's `Sharding ==`: trailing replicated dims do not count; the SSA
    halo and offset values must be the same values."""
    if lhs is rhs:
        return True
    a, b = lhs.owner, rhs.owner
    if not isinstance(a, ShardingOp) or not isinstance(b, ShardingOp):
        return False

    def split_axes(op: ShardingOp) -> tuple[tuple[int, ...], ...]:
        axes = list(op.split_axes_lists())
        while axes and not axes[-1]:
            axes.pop()
        return tuple(axes)

    return (
        a.grid == b.grid
        and split_axes(a) == split_axes(b)
        and a.partial_axes_tuple() == b.partial_axes_tuple()
        and (not a.partial_axes_tuple() or a.partial_kind() == b.partial_kind())
        and a.mixed_halo_sizes() == b.mixed_halo_sizes()
        and a.mixed_sharded_dims_offsets() == b.mixed_sharded_dims_offsets()
    )


def _last_other_use(value: SSAValue, op: Operation, block: Block) -> Operation | None:
    """The last user of `value` in `block` other than `op`; None if a user lies
    in another block (upstream crashes there, llvm-project#223332)."""
    users = [use.operation for use in value.uses if use.operation is not op]
    if not users or any(user.parent_block() is not block for user in users):
        return None
    return max(users, key=block.get_operation_index)


class FoldDuplicateShardOp(RewritePattern):
    """Upstream's rule: `op` must be the last user of its source, and the user
    just before it must be another `shard.shard`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ShardOp, rewriter: PatternRewriter) -> None:
        value, block = op.src, op.parent_block()
        if block is None or isinstance(value.owner, ShardOp):
            return
        other = _last_other_use(value, op, block)
        if not isinstance(other, ShardOp) or not other.is_before_in_block(op):
            return
        if _same_sharding(op.sharding, other.sharding):
            rewriter.replace(op, [], [other.result])
            return
        rechained = ShardOp(other.result, op.sharding, op.annotate_for_users is not None)
        rewriter.replace(op, [rechained])


def _fold_constants(values: Sequence[int | SSAValue]) -> tuple[list[int | SSAValue], bool]:
    """Replace SSA values defined by non-negative integer constants by the constants."""
    folded: list[int | SSAValue] = []
    changed = False
    for value in values:
        owner = value.owner if isinstance(value, SSAValue) else None
        if (
            isinstance(owner, arith.ConstantOp)
            and isinstance(owner.value, IntegerAttr)
            and owner.value.value.data >= 0
        ):
            folded.append(owner.value.value.data)
            changed = True
        else:
            folded.append(value)
    return folded, changed


def _is_static(values: Sequence[int | SSAValue]) -> bool:
    return all(isinstance(v, int) and v != DYNAMIC_INDEX for v in values)


class NormalizeSharding(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ShardingOp, rewriter: PatternRewriter) -> None:
        halos, halos_folded = _fold_constants(op.mixed_halo_sizes())
        offsets, offsets_folded = _fold_constants(op.mixed_sharded_dims_offsets())
        changed = halos_folded or offsets_folded
        if halos and _is_static(halos) and all(h == 0 for h in halos):
            halos, changed = [], True
        if len(offsets) > 2 and _is_static(offsets):
            steps = {b - a for a, b in pairwise(offsets)}  # type: ignore[operator]
            if len(steps) == 1:
                offsets, changed = [], True
        if not changed:
            return
        normalized = ShardingOp(
            op.grid,
            op.split_axes_lists(),
            op.partial_axes_tuple(),
            op.partial_kind(),
            halos,
            offsets,
        )
        rewriter.replace(op, [normalized])


EmptyGridAxesCanonicalization.patterns = (RemoveEmptyGridAxesCollective(),)
ShardingCanonicalization.patterns = (NormalizeSharding(),)
ShardCanonicalization.patterns = (FoldDuplicateShardOp(),)
