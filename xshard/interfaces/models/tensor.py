"""Sharding models for xDSL's tensor ops that create tensors: `tensor.empty`, `tensor.splat`.

Neither reads a tensor, so each takes the layout its users want: one parallel
loop per result dim. Their operands (dynamic sizes, the splatted scalar) are
not tensors and get no map.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.ir import Operation

from xshard.interfaces.models.common import dims_map, rank
from xshard.interfaces.sharding_interface import Loop, ShardingRule, register_model


class CreationModel:
    def rule(self, op: Operation) -> ShardingRule:
        n = rank(op.results[0]) or 0
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            tuple(None for _ in op.operands),
            (dims_map(n, range(n)),),
        )


register_model(tensor.EmptyOp, tensor.SplatOp)(CreationModel())
