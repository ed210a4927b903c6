"""Sharding models of `stablehlo.pad` and `stablehlo.reverse`: data movement whose
padded or reversed dims stay whole (not indexed, so `shard-partition` gathers them)."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.annotations import base_value
from xshard.interfaces.models.common import MOVE, dims_map
from xshard.interfaces.models.stablehlo_windows import parallel_loops
from xshard.interfaces.sharding_interface import Loop, PartialFlow, PartialRule, ShardingRule
from xshard.interfaces.sharding_model import register_model
from xshard.sharding.reduction import ReductionKind


def parallel_rule(
    splittable: list[bool], extra_operands: int, partial: PartialRule
) -> ShardingRule:
    """One parallel loop per splittable dim, shared by the operand and the result;
    `extra_operands` rank-0 operands follow the first."""
    count, m = parallel_loops(splittable)
    return ShardingRule(
        tuple(Loop.parallel() for _ in range(count)),
        (m,) + (dims_map(count, []),) * extra_operands,
        (m,),
        partial,
    )


def splat_value(value: SSAValue) -> float | int | None:
    """The one value of a splat constant, looked for through annotations and the
    broadcasts and reshapes JAX wraps scalars in; None for anything else."""
    value = base_value(value)
    while isinstance(value.owner, hlo.BroadcastInDimOp | hlo.ReshapeOp):
        value = base_value(value.owner.operand)
    const = value.owner
    if isinstance(const, hlo.ConstantOp) and const.value.is_splat():
        return const.value.get_values()[0]
    return None


class PadModel:
    """Dims without edge or interior padding may be split; padded ones are not indexed.

    A partial operand stays partial for max and min (each device pads its block with the
    same value: idempotent), and for sums when nothing is padded or the padding value is
    the constant 0. (The padding value is not declared an accumulator, as
    `reduce_window`'s init is: `shard-fold-all-reduce` moves all-reduces across
    region-free ops by their partial rule alone, which would count another padding value
    once per device.)"""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.PadOp)
        pads = zip(op.edge_padding_low.get_values(), op.edge_padding_high.get_values(),
                   op.interior_padding.get_values(), strict=True)
        unpadded = [p == (0, 0, 0) for p in pads]
        kinds = MOVE.kinds
        if not all(unpadded) and splat_value(op.padding_value) != 0:
            kinds = frozenset({ReductionKind.MAX, ReductionKind.MIN})
        partial = PartialRule(PartialFlow.PASS_THROUGH, kinds, operands=(0,))
        return parallel_rule(unpadded, 1, partial)


class ReverseModel:
    """Reversed dims are not indexed (a reversed split dim would change owners); the
    others are parallel loops. Any partial state rides along."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReverseOp)
        reversed_dims = set(op.dimensions.get_values())
        rank = op.operand.type.get_num_dims()  # type: ignore[union-attr]
        return parallel_rule([d not in reversed_dims for d in range(rank)], 0, MOVE)


register_model(hlo.PadOp)(PadModel())
register_model(hlo.ReverseOp)(ReverseModel())
