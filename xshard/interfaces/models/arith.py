"""Sharding models for xDSL's arith ops on tensors.

Only `arith.constant` has one, as upstream: a tensor constant has no operands,
so it takes whatever layout its users want. Scalar constants carry no tensor
and are never visited by propagation.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation

from xshard.interfaces.models.arith_partition import partition_constant
from xshard.interfaces.models.common import source_rule
from xshard.interfaces.sharding_interface import ShardingRule
from xshard.interfaces.sharding_model import register_model


class ConstantModel:
    partition = staticmethod(partition_constant)

    def rule(self, op: Operation) -> ShardingRule:
        return source_rule(op)


register_model(arith.ConstantOp)(ConstantModel())
