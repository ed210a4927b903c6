"""Sharding models for the tosa ops (MLIR's TOSA external models, plus reductions).

TOSA broadcasts implicitly between operands of equal rank: an operand dim of
size 1 facing a larger result dim is not indexed by its loop, so it is never
split. Zero-point and shift operands get no map, as upstream.

Partial operands pass only through float ops: integer `mul` shifts, integer
`negate` and `matmul` subtract zero points, and neither is linear.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import tosa as xdsl_tosa
from xdsl.dialects.builtin import AnyFloat, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from xshard.dialects import tosa
from xshard.interfaces.models.common import (
    LINEAR_SUM,
    MAX_JOIN,
    MIN_JOIN,
    MONOTONE,
    NEGATE,
    SCALE_SUM,
    SELECT_BRANCHES,
    dims_map,
    source_rule,
)
from xshard.interfaces.models.tosa_partition import partition_const
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.interfaces.sharding_model import register_model
from xshard.sharding.reduction import ReductionKind

_PARTIAL_RULES: dict[type[Operation], PartialRule] = {
    xdsl_tosa.AddOp: LINEAR_SUM,
    xdsl_tosa.SubOp: LINEAR_SUM,
    tosa.MaximumOp: MAX_JOIN,
    tosa.MinimumOp: MIN_JOIN,
    tosa.SelectOp: SELECT_BRANCHES,
    **{
        op: MONOTONE
        for op in (
            tosa.SigmoidOp,
            tosa.TanhOp,
            tosa.ExpOp,
            tosa.FloorOp,
            tosa.CeilOp,
            tosa.ErfOp,
            xdsl_tosa.ClampOp,
        )
    },
}

_FLOAT_PARTIAL_RULES: dict[type[Operation], PartialRule] = {
    xdsl_tosa.MulOp: replace(SCALE_SUM, operands=(0, 1)),
    tosa.NegateOp: replace(NEGATE, operands=(0,)),
    tosa.MatMulOp: replace(SCALE_SUM, operands=(0, 1)),
}

_DATA_OPERANDS: dict[type[Operation], int] = {
    xdsl_tosa.MulOp: 2,
    tosa.NegateOp: 1,
    tosa.MatMulOp: 2,
}
"""Ops whose trailing operands are zero points or a shift: only the leading ones are data."""

_REDUCTION_KINDS: dict[type[Operation], ReductionKind] = {
    xdsl_tosa.ReduceSumOp: ReductionKind.SUM,
    xdsl_tosa.ReduceMaxOp: ReductionKind.MAX,
    xdsl_tosa.ReduceMinOp: ReductionKind.MIN,
    xdsl_tosa.ReduceProductOp: ReductionKind.PRODUCT,
    xdsl_tosa.ReduceAllOp: ReductionKind.BITWISE_AND,
    xdsl_tosa.ReduceAnyOp: ReductionKind.BITWISE_OR,
}


def _shape(value: SSAValue) -> tuple[int, ...]:
    t = value.type
    assert isinstance(t, TensorType)
    return t.get_shape()


def partial_rule(op: Operation) -> PartialRule:
    if type(op) in _FLOAT_PARTIAL_RULES:
        t = op.results[0].type
        if isinstance(t, TensorType) and isinstance(t.element_type, AnyFloat):
            return _FLOAT_PARTIAL_RULES[type(op)]
        return NO_PARTIAL
    return _PARTIAL_RULES.get(type(op), NO_PARTIAL)


def broadcast_map(
    num_loops: int, operand: tuple[int, ...], result: tuple[int, ...], loops: list[int]
) -> AffineMap:
    """Dim i of `operand` is loop `loops[i]`, unless it is a size-1 dim broadcast to `result[i]`."""
    return dims_map(
        num_loops,
        [
            None if d == 1 and r != 1 else loop
            for d, r, loop in zip(operand, result, loops, strict=True)
        ],
    )


class ElementwiseModel:
    def rule(self, op: Operation) -> ShardingRule:
        out = _shape(op.results[0])
        n = len(out)
        data = _DATA_OPERANDS.get(type(op), len(op.operands))
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            tuple(
                broadcast_map(n, _shape(v), out, list(range(n))) if i < data else None
                for i, v in enumerate(op.operands)
            ),
            (dims_map(n, range(n)),),
            partial_rule(op),
        )


class MatMulModel:
    """Loops `[b, m, n, k]`, k a sum. A batch of 1 broadcast against a larger one is not split."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tosa.MatMulOp)
        out = _shape(op.output)
        a, b = _shape(op.a), _shape(op.b)
        return ShardingRule(
            (Loop.parallel(), Loop.parallel(), Loop.parallel(), Loop.reduction(ReductionKind.SUM)),
            (
                broadcast_map(4, a, (out[0], a[1], a[2]), [0, 1, 3]),
                broadcast_map(4, b, (out[0], b[1], b[2]), [0, 3, 2]),
                None,
                None,
            ),
            (dims_map(4, [0, 1, 2]),),
            partial_rule(op),
        )


class ReductionModel:
    """Loops are the input's dims; `axis` is a reduction of the op's kind, kept as a size-1 dim."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, xdsl_tosa.ReductionOperation)
        n = len(_shape(op.input))
        axis = op.axis.value.data
        kind = _REDUCTION_KINDS[type(op)]
        partial = NO_PARTIAL
        if kind in (ReductionKind.SUM, ReductionKind.MAX, ReductionKind.MIN):
            partial = PartialRule(PartialFlow.PASS_THROUGH, frozenset({kind}))
        return ShardingRule(
            tuple(Loop.reduction(kind) if d == axis else Loop.parallel() for d in range(n)),
            (dims_map(n, range(n)),),
            (dims_map(n, [None if d == axis else d for d in range(n)]),),
            partial,
        )


class ConstModel:
    partition = staticmethod(partition_const)

    def rule(self, op: Operation) -> ShardingRule:
        return source_rule(op)


_ELEMENTWISE = (
    xdsl_tosa.AddOp,
    xdsl_tosa.SubOp,
    xdsl_tosa.MulOp,
    xdsl_tosa.ClampOp,
    xdsl_tosa.SinOp,
    xdsl_tosa.CosOp,
    xdsl_tosa.ReciprocalOp,
    tosa.SigmoidOp,
    tosa.TanhOp,
    tosa.AbsOp,
    tosa.ExpOp,
    tosa.LogOp,
    tosa.RsqrtOp,
    tosa.FloorOp,
    tosa.CeilOp,
    tosa.ErfOp,
    tosa.ClzOp,
    tosa.BitwiseNotOp,
    tosa.LogicalNotOp,
    tosa.PowOp,
    tosa.IntDivOp,
    tosa.BitwiseAndOp,
    tosa.BitwiseOrOp,
    tosa.BitwiseXorOp,
    tosa.LogicalAndOp,
    tosa.LogicalOrOp,
    tosa.LogicalXorOp,
    tosa.LogicalLeftShiftOp,
    tosa.LogicalRightShiftOp,
    tosa.ArithmeticRightShiftOp,
    tosa.EqualOp,
    tosa.GreaterOp,
    tosa.GreaterEqualOp,
    tosa.MaximumOp,
    tosa.MinimumOp,
    tosa.SelectOp,
    tosa.NegateOp,
)

register_model(*_ELEMENTWISE)(ElementwiseModel())
register_model(tosa.MatMulOp)(MatMulModel())
register_model(*_REDUCTION_KINDS)(ReductionModel())
register_model(xdsl_tosa.ConstOp)(ConstModel())
