"""Sharding models of `stablehlo.pad` and `stablehlo.reverse`: data movement whose
padded or reversed dims stay whole (not indexed, so `shard-partition` gathers them)."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.common import MOVE, dims_map
from xshard.interfaces.models.stablehlo_windows import parallel_loops
from xshard.interfaces.sharding_interface import (
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
    register_model,
)


def _parallel_rule(
    splittable: list[bool], extra_operands: int, partial: PartialRule
) -> ShardingRule:
    """One parallel loop per splittable dim, shared by the operand and the result;
    `extra_operands` rank-0 operands follow the first, each folded into the result once
    (an accumulator)."""
    count, m = parallel_loops(splittable)
    return ShardingRule(
        tuple(Loop.parallel() for _ in range(count)),
        (m,) + (dims_map(count, []),) * extra_operands,
        (m,),
        partial,
        accumulators=tuple(range(1, 1 + extra_operands)),
    )


class PadModel:
    """Dims without edge or interior padding may be split; padded ones are not indexed.

    A partial operand stays partial: each result cell is an operand cell or the padding
    value, which is an accumulator (partial alike when the result is: the value on one
    device, the identity on the others; for max and min, the value everywhere)."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.PadOp)
        pads = zip(op.edge_padding_low.get_values(), op.edge_padding_high.get_values(),
                   op.interior_padding.get_values(), strict=True)
        partial = PartialRule(PartialFlow.PASS_THROUGH, MOVE.kinds, operands=(0,))
        return _parallel_rule([p == (0, 0, 0) for p in pads], 1, partial)


class ReverseModel:
    """Reversed dims are not indexed (a reversed split dim would change owners); the
    others are parallel loops. Any partial state rides along."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReverseOp)
        reversed_dims = set(op.dimensions.get_values())
        rank = op.operand.type.get_num_dims()  # type: ignore[union-attr]
        return _parallel_rule([d not in reversed_dims for d in range(rank)], 0, MOVE)


register_model(hlo.PadOp)(PadModel())
register_model(hlo.ReverseOp)(ReverseModel())
