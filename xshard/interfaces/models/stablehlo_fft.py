"""Sharding model of `stablehlo.fft`: the batch dims are parallel loops; the transformed
dims are not indexed (each output frequency reads every input point), so
`shard-partition` gathers them. Partial sums settle first (no partial rule)."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.stablehlo_pad_reverse import parallel_rule
from xshard.interfaces.sharding_interface import NO_PARTIAL, ShardingRule
from xshard.interfaces.sharding_model import register_model


class FftModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.FftOp)
        rank = op.operand.type.get_num_dims()  # type: ignore[union-attr]
        transformed = len(op.fft_length.get_values())
        return parallel_rule([d < rank - transformed for d in range(rank)], 0, NO_PARTIAL)


register_model(hlo.FftOp)(FftModel())
