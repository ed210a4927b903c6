"""Sharding models of `stablehlo.pad` and `stablehlo.reverse`: data movement whose
padded or reversed dims stay whole (not indexed, so `shard-partition` gathers them)."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.common import KINDS_ALL, MOVE, dims_map
from xshard.interfaces.models.stablehlo_windows import is_identity, parallel_loops
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
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
    `extra_operands` rank-0 operands follow the first."""
    count, m = parallel_loops(splittable)
    return ShardingRule(
        tuple(Loop.parallel() for _ in range(count)),
        (m,) + (dims_map(count, []),) * extra_operands,
        (m,),
        partial,
    )


class PadModel:
    """Dims without edge or interior padding may be split; padded ones are not indexed.

    A partial operand stays partial when nothing is padded, or when the padding value is
    the identity of its reduction (each device pads its block with it, once)."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.PadOp)
        pads = list(zip(op.edge_padding_low.get_values(), op.edge_padding_high.get_values(),
                        op.interior_padding.get_values(), strict=True))
        unpadded = [p == (0, 0, 0) for p in pads]
        if all(unpadded):
            kinds = MOVE.kinds
        else:
            kinds = frozenset(k for k in KINDS_ALL if is_identity(op.padding_value, k))
        partial = NO_PARTIAL
        if kinds:
            partial = PartialRule(PartialFlow.PASS_THROUGH, kinds, operands=(0,))
        return _parallel_rule(unpadded, 1, partial)


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
