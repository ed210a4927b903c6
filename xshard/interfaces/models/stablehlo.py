"""Sharding models for xshard's StableHLO subset."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.common import (
    LINEAR_SUM,
    MAX_JOIN,
    MIN_JOIN,
    MOVE,
    NEGATE,
    NUMERATOR_SUM,
    SCALE_SUM,
    contraction_rule,
    dims_map,
    elementwise_rule,
    rank,
    reduction_rule,
    reshape_rule,
)
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
    UnsupportedOp,
    register_model,
)
from xshard.sharding.reduction import ReductionKind

_PARTIAL_RULES: dict[type[Operation], PartialRule] = {
    hlo.AddOp: LINEAR_SUM,
    hlo.SubtractOp: LINEAR_SUM,
    hlo.MaximumOp: MAX_JOIN,
    hlo.MinimumOp: MIN_JOIN,
    hlo.MultiplyOp: SCALE_SUM,
    hlo.DivideOp: NUMERATOR_SUM,
    hlo.NegateOp: NEGATE,
    hlo.ConvertOp: MOVE,
    hlo.SelectOp: PartialRule(PartialFlow.ALL_OPERANDS, LINEAR_SUM.kinds, operands=(1, 2)),
}

_BODY_KINDS: dict[type[Operation], ReductionKind] = {
    hlo.AddOp: ReductionKind.SUM,
    hlo.MaximumOp: ReductionKind.MAX,
    hlo.MinimumOp: ReductionKind.MIN,
    hlo.MultiplyOp: ReductionKind.PRODUCT,
    hlo.AndOp: ReductionKind.BITWISE_AND,
    hlo.OrOp: ReductionKind.BITWISE_OR,
    hlo.XorOp: ReductionKind.BITWISE_XOR,
}


class ElementwiseModel:
    def rule(self, op: Operation) -> ShardingRule:
        return elementwise_rule(op.operands, op.results, _PARTIAL_RULES.get(type(op), NO_PARTIAL))


class DotGeneralModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.DotGeneralOp)
        dims = op.dot_dimension_numbers
        return contraction_rule(
            rank(op.lhs) or 0,
            rank(op.rhs) or 0,
            dims.lhs_batching,
            dims.rhs_batching,
            dims.lhs_contracting,
            dims.rhs_contracting,
        )


def reduce_kind(op: hlo.ReduceOp) -> ReductionKind:
    """The kind of a reduce whose body is one binary op on the block arguments, else generic."""
    body = list(op.body.block.ops)
    if len(op.inputs) == 1 and len(body) == 2:
        combiner = body[0]
        if set(combiner.operands) == set(op.body.block.args):
            return _BODY_KINDS.get(type(combiner), ReductionKind.GENERIC)
    return ReductionKind.GENERIC


class ReduceModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReduceOp)
        kind = reduce_kind(op)
        partial = (
            PartialRule(PartialFlow.PASS_THROUGH, frozenset({kind}), operands=(0,))
            if kind in (ReductionKind.SUM, ReductionKind.MAX, ReductionKind.MIN)
            else NO_PARTIAL
        )
        return reduction_rule(
            rank(op.inputs[0]) or 0,
            op.dimensions.get_values(),
            kind,
            len(op.inputs),
            len(op.init_values),
            partial,
        )


class BroadcastInDimModel:
    """Result dims are loops; an operand dim of size 1 that grows is not indexed."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.BroadcastInDimOp)
        out = op.result.type.get_shape()
        src = op.operand.type.get_shape()
        dims = op.broadcast_dimensions.get_values()
        n = len(out)
        loops = [d if src[i] == out[d] else None for i, d in enumerate(dims)]
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (dims_map(n, loops),),
            (dims_map(n, range(n)),),
            MOVE,
        )


class TransposeModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.TransposeOp)
        perm = op.permutation.get_values()
        n = len(perm)
        operand_loops: list[int | None] = [None] * n
        for result_dim, operand_dim in enumerate(perm):
            operand_loops[operand_dim] = result_dim
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (dims_map(n, operand_loops),),
            (dims_map(n, range(n)),),
            MOVE,
        )


class ReshapeModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReshapeOp)
        src, out = op.operand.type.get_shape(), op.result.type.get_shape()
        if -1 in src or -1 in out:
            raise UnsupportedOp("reshape with dynamic dims")
        try:
            return reshape_rule(src, out)
        except ValueError as err:
            raise UnsupportedOp(str(err)) from err


class SourceModel:
    """Ops with no tensor operands (constant, iota): the result may be laid out at will."""

    def rule(self, op: Operation) -> ShardingRule:
        n = rank(op.results[0]) or 0
        return ShardingRule(tuple(Loop.parallel() for _ in range(n)), (), (dims_map(n, range(n)),))


class SliceModel:
    """Only dims the slice keeps whole may be split."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.SliceOp)
        src = op.operand.type.get_shape()
        starts = op.start_indices.get_values()
        limits = op.limit_indices.get_values()
        strides = op.strides.get_values()
        n = len(src)
        whole = [
            d if (starts[d], limits[d], strides[d]) == (0, src[d], 1) else None for d in range(n)
        ]
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)), (dims_map(n, whole),), (dims_map(n, whole),), MOVE
        )


class ConcatenateModel:
    """The concatenated dim may not be split; the others are shared loops."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ConcatenateOp)
        n = rank(op.result) or 0
        dim = op.dimension.value.data
        loops = [None if d == dim else d for d in range(n)]
        m = dims_map(n, loops)
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (m,) * len(op.inputs),
            (m,),
            PartialRule(PartialFlow.ALL_OPERANDS, MOVE.kinds),
        )


register_model(*(cls for cls in hlo.StableHLO.operations if issubclass(cls, hlo.ElementwiseOp)))(
    ElementwiseModel()
)
register_model(hlo.DotGeneralOp)(DotGeneralModel())
register_model(hlo.ReduceOp)(ReduceModel())
register_model(hlo.BroadcastInDimOp)(BroadcastInDimModel())
register_model(hlo.TransposeOp)(TransposeModel())
register_model(hlo.ReshapeOp)(ReshapeModel())
register_model(hlo.ConstantOp, hlo.IotaOp)(SourceModel())
register_model(hlo.SliceOp)(SliceModel())
register_model(hlo.ConcatenateOp)(ConcatenateModel())
