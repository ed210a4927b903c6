"""`detect-collective-broadcast`: a sum all-reduce of a value that only one device of
each group contributes is a broadcast from that device (the collective_broadcast
RFC's "psum hack").

The idiom is `all_reduce(sum)` (or `or` / `xor`, for which 0 is neutral too) of
`select(is_root, x, 0)` (either branch order) or of `x * onehot`, where `is_root`
and `onehot` depend on nothing but the device: `shard.process_multi_index`,
`process_linear_index` or `stablehlo.partition_id`, constants and arithmetic.
Instead of matching one spelling of that arithmetic, the mask is evaluated on
every device (`device_values.py`); the pattern fires when each group has exactly
one device where it is 1 (true) and 0 (false) on the others, the zero branch
being 0 on every device. Then the sum over the group is that device's `x`: the
other summands are exact zeros.

- shard level: `shard.all_reduce` -> `shard.broadcast` with `root` = the in-group
  coordinates of that device over `grid_axes`, which must be the same in every
  group (the op has one static root).
- StableHLO level (`target=gpu` only): `stablehlo.all_reduce` ->
  `stablehlo.collective_broadcast` over the same groups, each reordered to start
  with its root, the spec's source; each group may have its own root. XLA:CPU
  cannot run `collective_broadcast`, so with `target=cpu` (the default, as in
  `convert-shard-to-stablehlo`) StableHLO all-reduces are left alone.

The multiply form differs from a broadcast only when a non-root device holds an
infinity or NaN (`inf * 0` is NaN); the rewrite drops that NaN. The masked value
keeps any other users; the all-reduce goes in any case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.collectives import id_rows
from xshard.sharding.groups import device_groups
from xshard.sharding.reduction import ReductionKind
from xshard.transforms.simplify.device_values import DeviceValues

Target = Literal["cpu", "gpu"]

_SELECTS = (hlo.SelectOp, arith.SelectOp)
_MULTIPLIES = (hlo.MultiplyOp, arith.MulfOp, arith.MuliOp)
_MAX_DEVICES = 4096
_ZERO_IS_NEUTRAL = {ReductionKind.SUM, ReductionKind.BITWISE_OR, ReductionKind.BITWISE_XOR}
"""Kinds whose reduction of x and zeros is x (`or` is how booleans are summed)."""


def _sources(masked: SSAValue, devices: int) -> tuple[SSAValue, list[bool]] | None:
    """`x` and, per device, whether it contributes `x` (True) or exact zeros (False)."""
    op = masked.owner
    values = [DeviceValues(d) for d in range(devices)]
    if isinstance(op, _SELECTS):
        pred, on_true, on_false = op.operands
        for x, zero, keep in ((on_true, on_false, True), (on_false, on_true, False)):
            if all(v.scalar(zero) == 0 for v in values):
                flags = [v.scalar(pred) for v in values]
                if None not in flags:
                    return x, [bool(f) == keep for f in flags]
        return None
    if isinstance(op, _MULTIPLIES):
        for x, mask in ((op.operands[0], op.operands[1]), (op.operands[1], op.operands[0])):
            factors = [v.scalar(mask) for v in values]
            if all(f is not None and f in (0, 1) for f in factors):
                return x, [f == 1 for f in factors]
    return None


def _roots(groups: Sequence[Sequence[int]], is_source: Sequence[bool]) -> list[int] | None:
    """The position of each group's only source, or None if a group has none or several."""
    roots = []
    for group in groups:
        found = [i for i, d in enumerate(group) if is_source[d]]
        if len(found) != 1:
            return None
        roots.append(found[0])
    return roots


def _in_group_coordinates(position: int, sizes: Sequence[int]) -> list[int]:
    """Mixed-radix digits of an in-group index, first grid axis most significant."""
    digits = []
    for size in reversed(sizes):
        digits.append(position % size)
        position //= size
    return digits[::-1]


class ShardMaskedAllReduceToBroadcast(RewritePattern):
    """`shard.all_reduce(select(in-group index == r, x, 0))` -> `shard.broadcast x root = r`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.AllReduceOp, rewriter: PatternRewriter) -> None:
        axes = op.grid_axes_tuple()
        grid = shard.lookup_grid(op, op.grid)
        if (
            op.reduction.data not in _ZERO_IS_NEUTRAL
            or not axes
            or op.input.type != op.result.type
            or grid is None
            or None in grid.shape_tuple()
            or prod(grid.shape_tuple()) > _MAX_DEVICES  # type: ignore[arg-type]
        ):
            return
        shape: tuple[int, ...] = grid.shape_tuple()  # type: ignore[assignment]
        found = _sources(op.input, prod(shape))
        if found is None:
            return
        x, is_source = found
        roots = _roots(device_groups(shape, axes), is_source)
        if roots is None or len(set(roots)) != 1 or x.type != op.result.type:
            return
        root = _in_group_coordinates(roots[0], [shape[a] for a in axes])
        rewriter.replace(op, shard.BroadcastOp(x, op.grid, axes, root, op.result.type))


def _partition_count(op: Operation) -> int | None:
    """The module's partition count when ids in replica_groups are partition ids."""
    module = op.get_toplevel_object()
    partitions = module.attributes.get("mhlo.num_partitions")
    replicas = module.attributes.get("mhlo.num_replicas")
    if not isinstance(partitions, IntegerAttr):
        return None
    if isinstance(replicas, IntegerAttr) and replicas.value.data != 1:
        return None
    return partitions.value.data


class HloMaskedAllReduceToCollectiveBroadcast(RewritePattern):
    """`stablehlo.all_reduce(sum)` of a masked value -> `stablehlo.collective_broadcast`
    with each group's root moved to the front."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.AllReduceOp, rewriter: PatternRewriter) -> None:
        count = _partition_count(op)
        if (
            len(op.inputs) != 1
            or hlo.reduction_kind(op) not in _ZERO_IS_NEUTRAL
            or op.channel_id <= 0
            or op.use_global_device_ids is None  # ids are flattened = partition ids
            or count is None
            or count > _MAX_DEVICES
        ):
            return
        found = _sources(op.inputs[0], count)
        if found is None:
            return
        x, is_source = found
        groups = id_rows(op.replica_groups) or [list(range(count))]
        if any(d >= count for g in groups for d in g):
            return
        roots = _roots(groups, is_source)
        if roots is None or x.type != op.results_[0].type:
            return
        reordered = [[g[r], *g[:r], *g[r + 1 :]] for g, r in zip(groups, roots, strict=True)]
        broadcast = hlo.CollectiveBroadcastOp(
            x, replica_groups=reordered, channel_handle=op.channel_handle
        )
        rewriter.replace(op, broadcast)


def patterns(target: Target = "cpu") -> list[RewritePattern]:
    """The shard-level pattern, and the StableHLO one where the target runs its result."""
    found: list[RewritePattern] = [ShardMaskedAllReduceToBroadcast()]
    if target == "gpu":
        found.append(HloMaskedAllReduceToCollectiveBroadcast())
    return found


@dataclass(frozen=True)
class DetectCollectiveBroadcastPass(ModulePass):
    """Masked sum all-reduces to broadcasts.

    Options: `target` = cpu (default: shard level only) | gpu (also StableHLO level)."""

    name = "detect-collective-broadcast"

    target: Target = "cpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns(self.target)))
        walker.rewrite_module(op)
