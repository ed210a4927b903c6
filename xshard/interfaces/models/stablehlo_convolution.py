"""Sharding model of `stablehlo.convolution`.

A convolution is a contraction (like dot_general) over the input features and the
kernel window, parallel over the batch, the output features and the output positions:
- batch (lhs batch, result batch): parallel;
- output features (kernel output feature, result feature): parallel;
- input features (lhs feature, kernel input feature): a sum, so splitting it leaves
  partial sums;
- each spatial dim (lhs spatial, result spatial) where an even block computes its own
  block of the result (`window_halo`: the input `stride` times the result, halos
  fetched from the neighbours); the kernel's spatial dims are never split.

Groups make features exact only where whole groups stay together:
`feature_group_count` G > 1 splits lhs features and kernel output features into G
groups; with one input feature per group (depthwise, kernel input feature dim 1) a
split of the lhs features into n blocks holds G/n whole groups, so lhs feature, kernel
output feature and result feature share one parallel loop (the local op has G/n groups).
`batch_group_count` B > 1 (the kernel gradient of a depthwise convolution) splits the
lhs batch and the kernel output features into B groups; with one batch row per group
(result batch dim 1) lhs batch, kernel output feature and result feature share one
loop likewise. Any other grouped feature or batch dim is not indexed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.checks import shape
from xshard.interfaces.models.common import SCALE_SUM, dims_map
from xshard.interfaces.models.stablehlo_windows import (
    Halo,
    emit_local,
    local_operand,
    split_padding,
    window_halo,
    with_halos,
)
from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import register_model
from xshard.sharding.reduction import ReductionKind


@dataclass
class _Loops:
    """The loops of one convolution and the dims of lhs, rhs and result each indexes."""

    lhs_rank: int
    loops: list[Loop] = field(default_factory=list)
    lhs: dict[int, int] = field(default_factory=dict)
    rhs: dict[int, int] = field(default_factory=dict)
    out: dict[int, int] = field(default_factory=dict)
    min_blocks: list[tuple[int, int]] = field(default_factory=list)

    def add(self, loop: Loop, lhs: int | None = None, rhs: int | None = None,
            out: int | None = None) -> None:
        index = len(self.loops)
        self.loops.append(loop)
        for dims, dim in ((self.lhs, lhs), (self.rhs, rhs), (self.out, out)):
            if dim is not None:
                dims[dim] = index

    def rule(self) -> ShardingRule:
        n, rank = len(self.loops), self.lhs_rank
        maps = [dims_map(n, [dims.get(d) for d in range(rank)])
                for dims in (self.lhs, self.rhs, self.out)]
        return ShardingRule(
            tuple(self.loops),
            (maps[0], maps[1]),
            (maps[2],),
            SCALE_SUM,
            min_blocks=tuple(self.min_blocks),
        )


def spatial_halos(op: hlo.ConvolutionOp) -> list[Halo | None]:
    """Per spatial dim, the lhs halo that computes a block of the result (`window_halo`)."""
    nums = op.dimension_numbers
    lhs_shape, rhs_shape = shape(op.lhs.type), shape(op.rhs.type)
    out_shape = shape(op.result.type)
    return [
        window_halo(lhs_shape[d], out_shape[o], rhs_shape[k], stride, pad, lhs_dil, rhs_dil)
        for d, k, o, stride, pad, lhs_dil, rhs_dil in zip(
            nums.lhs.spatial, nums.rhs.spatial, nums.out.spatial, op.strides,
            op.padding_values, op.lhs_dilation_values, op.rhs_dilation_values, strict=True,
        )
    ]


def _loops(op: hlo.ConvolutionOp) -> _Loops:
    nums = op.dimension_numbers
    lhs, rhs, out = nums.lhs, nums.rhs, nums.out
    rhs_shape, out_shape = shape(op.rhs.type), shape(op.result.type)
    loops = _Loops(len(shape(op.lhs.type)))
    total = Loop.reduction(ReductionKind.SUM)
    if op.batch_groups == 1:
        loops.add(Loop.parallel(), lhs=lhs.first, out=out.first)
    elif out_shape[out.first] == 1:
        loops.add(Loop.parallel(), lhs=lhs.first, rhs=rhs.second, out=out.second)
    if op.feature_groups == 1:
        loops.add(total, lhs=lhs.second, rhs=rhs.first)
        if op.batch_groups == 1:
            loops.add(Loop.parallel(), rhs=rhs.second, out=out.second)
    elif rhs_shape[rhs.first] == 1:
        loops.add(Loop.parallel(), lhs=lhs.second, rhs=rhs.second, out=out.second)
    for k, halo in enumerate(spatial_halos(op)):
        if halo is not None:
            if max(halo) > 0:  # fetched from one neighbour: a block at least as wide
                loops.min_blocks.append((len(loops.loops), max(halo)))
            loops.add(Loop.parallel(), lhs=lhs.spatial[k], out=out.spatial[k])
    return loops


class ConvolutionModel:
    """See the module docstring. Partial operands: linear in each operand separately."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ConvolutionOp)
        return _loops(op).rule()

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        """Halos for split spatial dims (zeros past the global edges, where the
        convolution pads) with no padding there locally; a split group loop leaves the
        local op the groups its block holds."""
        assert isinstance(op, hlo.ConvolutionOp)
        nums = op.dimension_numbers
        lhs, s = local_operand(ctx, 0)
        rhs = ctx.operands[1]
        local_lhs = shape(lhs.type)
        halos = spatial_halos(op)
        wanted = {d: h for d, h in zip(nums.lhs.spatial, halos, strict=True) if h is not None}
        lhs = with_halos(ctx, lhs, s, wanted)
        props = split_padding(op.padding_values, nums.lhs.spatial, s, halos)
        if op.feature_groups > 1 and s.axes_of(nums.lhs.second):
            per_group = shape(op.rhs.type)[nums.rhs.first]
            props["feature_group_count"] = IntegerAttr(local_lhs[nums.lhs.second] // per_group, i64)
        if op.batch_groups > 1 and s.axes_of(nums.lhs.first):
            per_group = shape(op.result.type)[nums.out.first]
            props["batch_group_count"] = IntegerAttr(local_lhs[nums.lhs.first] // per_group, i64)
        emit_local(ctx, [lhs, rhs], props)


register_model(hlo.ConvolutionOp)(ConvolutionModel())
