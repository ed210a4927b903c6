"""Sharding model of `stablehlo.bitcast_convert`."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.checks import shape
from xshard.interfaces.models.common import dims_map
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import register_model


class BitcastConvertModel:
    """The operand's dims are loops; the minor dim a width change adds or removes is not
    indexed (its elements are the bytes of one element of the other side)."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.BitcastConvertOp)
        src, out = shape(op.operand.type), shape(op.result.type)
        n = min(len(src), len(out))
        operand = [d if d < n else None for d in range(len(src))]
        result = [d if d < n else None for d in range(len(out))]
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (dims_map(n, operand),),
            (dims_map(n, result),),
        )


register_model(hlo.BitcastConvertOp)(BitcastConvertModel())
