"""Sharding models for xshard's StableHLO subset."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, IntegerType, Signedness
from xdsl.ir import Attribute, Operation

from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.checks import element_type
from xshard.interfaces.models.common import (
    LINEAR_SUM,
    MAX_JOIN,
    MIN_JOIN,
    MONOTONE,
    MOVE,
    NEGATE,
    NUMERATOR_SUM,
    SCALE_SUM,
    SELECT_BRANCHES,
    contraction_rule,
    dims_map,
    elementwise_rule,
    rank,
    reduction_rule,
    reshape_rule,
    source_rule,
)
from xshard.interfaces.models.stablehlo_partition import partition_slice, partition_source
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.interfaces.sharding_model import UnsupportedOp, register_model
from xshard.sharding.reduction import ReductionKind

_PARTIAL_RULES: dict[type[Operation], PartialRule] = {
    hlo.AddOp: LINEAR_SUM,
    hlo.SubtractOp: LINEAR_SUM,
    hlo.MaximumOp: MAX_JOIN,
    hlo.MinimumOp: MIN_JOIN,
    hlo.MultiplyOp: SCALE_SUM,
    hlo.NegateOp: NEGATE,
    hlo.SelectOp: SELECT_BRANCHES,
    # log, sqrt and rsqrt are monotone too, but NaN below 0.
    **{
        op: MONOTONE
        for op in (
            hlo.TanhOp,
            hlo.LogisticOp,
            hlo.ExponentialOp,
            hlo.ExponentialMinusOneOp,
            hlo.FloorOp,
            hlo.CeilOp,
            hlo.SignOp,
            hlo.ClampOp,
        )
    },
}


def _is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def _is_int(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data > 1


def _unsigned(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def convert_partial(src: Attribute, dst: Attribute) -> PartialRule:
    """Which partial kinds survive a conversion of element type `src` to `dst`.

    Sum: a float widening is exact per element, and an integer conversion that
    does not widen is a ring map (sums wrap alike mod 2^n); any other conversion
    rounds, saturates or wraps each summand differently from the sum.
    Max/min: the conversion must be non-decreasing in the order `maximum` uses
    for each type (unsigned for `ui`, signed otherwise). Booleans (converting
    to i1 is `x != 0`) and complex numbers keep nothing.
    """
    minmax = {ReductionKind.MAX, ReductionKind.MIN}
    kinds: set[ReductionKind] = set()
    if _is_float(src) and _is_float(dst):
        kinds = minmax | ({ReductionKind.SUM} if dst.bitwidth > src.bitwidth else set())
    elif _is_float(src) and _is_int(dst):
        kinds = set() if _unsigned(dst) else minmax
    elif _is_int(src) and _is_float(dst):
        kinds = minmax
    elif _is_int(src) and _is_int(dst):
        if dst.bitwidth <= src.bitwidth:
            kinds.add(ReductionKind.SUM)
        sign_flip = _unsigned(dst) and not _unsigned(src)
        if src == dst or (dst.bitwidth > src.bitwidth and not sign_flip):
            kinds |= minmax
    return PartialRule(PartialFlow.PASS_THROUGH, frozenset(kinds)) if kinds else NO_PARTIAL


def partial_rule(op: Operation) -> PartialRule:
    """How partial operands flow through an elementwise op."""
    if isinstance(op, hlo.ConvertOp):
        return convert_partial(element_type(op.operand.type), element_type(op.result.type))
    if isinstance(op, hlo.DivideOp):
        # Integer division truncates each summand: (1 + 1) / 2 is 1, 1 / 2 + 1 / 2 is 0.
        return NO_PARTIAL if _is_int(element_type(op.result.type)) else NUMERATOR_SUM
    return _PARTIAL_RULES.get(type(op), NO_PARTIAL)


class ElementwiseModel:
    def rule(self, op: Operation) -> ShardingRule:
        return elementwise_rule(op.operands, op.results, partial_rule(op))


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


class ReduceModel:
    """Loops are the input's dims; reduced ones are reductions of the body's kind.

    A body that is not one known op (several ops, several inputs: an argmax) names no
    kind the partial results could be settled with, so its reduced dims are not split
    at all: no loop indexes them.
    """

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReduceOp)
        n = rank(op.inputs[0]) or 0
        reduced = op.dimensions.get_values()
        kind = hlo.reduction_kind(op)
        if kind is None:
            kept = [d for d in range(n) if d not in reduced]
            loops = len(kept)
            input_map = dims_map(loops, [kept.index(d) if d in kept else None for d in range(n)])
            return ShardingRule(
                tuple(Loop.parallel() for _ in kept),
                (input_map,) * len(op.inputs) + (dims_map(loops, []),) * len(op.init_values),
                (dims_map(loops, range(loops)),) * len(op.inputs),
            )
        return reduction_rule(
            n,
            reduced,
            kind,
            len(op.inputs),
            len(op.init_values),
            PartialRule(PartialFlow.PASS_THROUGH, frozenset({kind}), operands=(0,)),
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

    partition = staticmethod(partition_source)

    def rule(self, op: Operation) -> ShardingRule:
        return source_rule(op)


class SliceModel:
    """Only dims the slice keeps whole may be split."""

    partition = staticmethod(partition_slice)

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
            tuple(Loop.parallel() for _ in range(n)),
            (dims_map(n, whole),),
            (dims_map(n, whole),),
            MOVE,
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
