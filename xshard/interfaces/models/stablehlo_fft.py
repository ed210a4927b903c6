"""Sharding model of `stablehlo.fft`: the batch dims are parallel loops; the transformed
dims are not indexed (each output frequency reads every input point), so
`shard-partition` gathers them. Partial sums settle first (no partial rule)."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.stablehlo_windows import parallel_loops
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import register_model


class FftModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.FftOp)
        rank = op.operand.type.get_num_dims()  # type: ignore[union-attr]
        transformed = len(op.fft_length.get_values())
        count, m = parallel_loops([d < rank - transformed for d in range(rank)])
        return ShardingRule(tuple(Loop.parallel() for _ in range(count)), (m,), (m,))


register_model(hlo.FftOp)(FftModel())
