"""Sharding models for xDSL's tensor ops that create tensors: `tensor.empty`, `tensor.splat`.

Neither reads a tensor, so each takes the layout its users want: one parallel
loop per result dim. Their operands (dynamic sizes, the splatted scalar) are
not tensors and get no map.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.ir import Operation

from xshard.interfaces.models.common import source_rule
from xshard.interfaces.sharding_interface import ShardingRule
from xshard.interfaces.sharding_model import register_model


class CreationModel:
    def rule(self, op: Operation) -> ShardingRule:
        return source_rule(op)


register_model(tensor.EmptyOp, tensor.SplatOp)(CreationModel())
