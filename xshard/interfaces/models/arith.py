"""Sharding models for xDSL's arith ops on tensors.

Only `arith.constant` has one, as upstream: a tensor constant has no operands,
so it takes whatever layout its users want. Scalar constants carry no tensor
and are never visited by propagation.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation

from xshard.interfaces.models.arith_partition import partition_constant
from xshard.interfaces.models.common import dims_map, rank
from xshard.interfaces.sharding_interface import Loop, ShardingRule, register_model


class ConstantModel:
    partition = staticmethod(partition_constant)

    def rule(self, op: Operation) -> ShardingRule:
        n = rank(op.results[0]) or 0
        return ShardingRule(tuple(Loop.parallel() for _ in range(n)), (), (dims_map(n, range(n)),))


register_model(arith.ConstantOp)(ConstantModel())
