"""Sharding models for xshard's TCP dialect.

TCP never changes a dimension's position (no implicit broadcasting, rank-keeping
`tcp.broadcast` and keep-dims reductions), so every model here is a
per-dimension identity; what differs is which dims no loop may split (constant-0
entries in the maps) and how partial operands flow.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IntegerType,
    TensorType,
    i1,
)
from xdsl.ir import Operation

from xshard.dialects import tcp
from xshard.interfaces.models.common import (
    KINDS_ALL,
    LINEAR_SUM,
    MAX_JOIN,
    MIN_JOIN,
    MONOTONE,
    MOVE,
    NEGATE,
    NUMERATOR_SUM,
    SCALE_SUM,
    contraction_rule,
    dims_map,
    elementwise_rule,
    rank,
    source_rule,
)
from xshard.interfaces.models.tcp_partition import (
    partition_broadcast,
    partition_const,
    partition_slice,
)
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.interfaces.sharding_model import UnsupportedOp, register_model
from xshard.sharding.reduction import ReductionKind

MAX, MIN, SUM = ReductionKind.MAX, ReductionKind.MIN, ReductionKind.SUM

_PARTIAL_RULES: dict[type[Operation], PartialRule] = {
    tcp.AddOp: LINEAR_SUM,
    tcp.SubOp: LINEAR_SUM,
    tcp.MulOp: SCALE_SUM,
    tcp.DivFOp: NUMERATOR_SUM,
    tcp.NegOp: NEGATE,
    tcp.MaxOp: MAX_JOIN,
    tcp.MinOp: MIN_JOIN,
    # sqrt and log are monotone too, but NaN below 0: sqrt(max(-1, 4)) is 2,
    # max(sqrt(-1), sqrt(4)) is NaN.
    **{
        op: MONOTONE
        for op in (
            tcp.TanhOp,
            tcp.SigmoidOp,
            tcp.ExpOp,
            tcp.AtanOp,
            tcp.CeilOp,
            tcp.FloorOp,
            tcp.RoundOp,
            tcp.RoundEvenOp,
            tcp.ClampOp,
        )
    },
}


class ElementwiseModel:
    def rule(self, op: Operation) -> ShardingRule:
        return elementwise_rule(op.operands, op.results, _PARTIAL_RULES.get(type(op), NO_PARTIAL))


def cast_partial(op: tcp.CastOp) -> PartialRule:
    """Which partial kinds survive the conversion exactly (up to the rounding of the final sum).

    Sum: a float widening is exact per element, and an integer truncation is a
    ring map (sums wrap alike mod 2^n); other casts round, wrap or truncate
    each summand differently from the sum. Max/min: the cast must be
    non-decreasing in the signed order that `max`/`min` use for integers, so
    every integer side must be read or written `Signed`. An i1 side (`x != 0`
    when written, 0/1 when read) keeps nothing.
    """
    src, dst = op.input.type, op.out.type
    assert isinstance(src, TensorType) and isinstance(dst, TensorType)
    a, b = src.element_type, dst.element_type
    signed_in, signed_out = (
        attr is None or attr.data == tcp.Signedness.Signed
        for attr in (op.in_int_signedness, op.out_int_signedness)
    )
    kinds: set[ReductionKind] = set()
    if isinstance(a, AnyFloat) and isinstance(b, AnyFloat):
        kinds = {MAX, MIN} | ({SUM} if b.bitwidth > a.bitwidth else set())
    elif isinstance(a, AnyFloat):
        kinds = {MAX, MIN} if signed_out else set()
    elif isinstance(b, AnyFloat):
        kinds = {MAX, MIN} if signed_in else set()
    elif isinstance(a, IntegerType) and isinstance(b, IntegerType) and i1 not in (a, b):
        if b.bitwidth <= a.bitwidth:
            kinds.add(SUM)
        if b.bitwidth >= a.bitwidth and signed_in and signed_out:
            kinds |= {MAX, MIN}
    return PartialRule(PartialFlow.PASS_THROUGH, frozenset(kinds)) if kinds else NO_PARTIAL


class CastModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tcp.CastOp)
        return elementwise_rule(op.operands, op.results, cast_partial(op))


class ConstModel:
    """A constant may be laid out at will: its result dims are free loops."""

    partition = staticmethod(partition_const)

    def rule(self, op: Operation) -> ShardingRule:
        return source_rule(op)


class BroadcastModel:
    """Each result dim is a loop; no loop indexes a broadcast axis on the input (its size is 1)."""

    partition = staticmethod(partition_broadcast)

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tcp.BroadcastOp)
        n = rank(op.out) or 0
        axes = tcp.int_list(op.axes)
        input_map = dims_map(n, [None if d in axes else d for d in range(n)])
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (input_map,) + (None,) * len(op.new_dim_sizes),
            (dims_map(n, range(n)),),
            MOVE,
        )


class SliceModel:
    """Only dims the slice takes whole may be split.

    A dim keeps its static size only if taken whole: an in-bounds slice with
    positive strides that starts later or strides cannot keep every element.
    Dynamic dims count as sliced.
    """

    partition = staticmethod(partition_slice)

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tcp.SliceOp)
        src, out = op.input.type, op.out.type
        assert isinstance(src, TensorType) and isinstance(out, TensorType)
        n = src.get_num_dims()
        whole = [
            d if src.get_shape()[d] == out.get_shape()[d] != DYNAMIC_INDEX else None
            for d in range(n)
        ]
        m = dims_map(n, whole)
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (m,) + (None,) * (3 * n),
            (m,),
            MOVE,
        )


class GatherModel:
    """Loops are the result's dims; the input is read anywhere along `dim`, so it is whole there."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tcp.GatherOp)
        n = rank(op.out) or 0
        dim = op.dim.value.data
        identity = dims_map(n, range(n))
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (dims_map(n, [None if d == dim else d for d in range(n)]), identity),
            (identity,),
            PartialRule(PartialFlow.PASS_THROUGH, KINDS_ALL, operands=(0,)),
        )


class MatmulModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tcp.MatmulOp)
        r = rank(op.lhs) or 0
        batch = tuple(range(r - 2))
        return contraction_rule(r, r, batch, batch, (r - 1,), (r - 2,))


_REDUCE_KINDS: dict[type[Operation], ReductionKind] = {
    tcp.ReduceSumOp: SUM,
    tcp.ReduceProdOp: ReductionKind.PRODUCT,
    tcp.ReduceMaxOp: MAX,
    tcp.ReduceMinOp: MIN,
}


class ReduceModel:
    """Loops are the input's dims; a reduced dim stays in the result, size 1, indexed by no loop.

    A partial operand of the reduction's own kind passes through: the two
    reductions commute (a sum of partial sums is the partial sum of sums).
    """

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, tcp.ReduceOp)
        kind = _REDUCE_KINDS[type(op)]
        n = rank(op.input) or 0
        axes = tcp.int_list(op.axes)
        return ShardingRule(
            tuple(Loop.reduction(kind) if d in axes else Loop.parallel() for d in range(n)),
            (dims_map(n, range(n)),),
            (dims_map(n, [None if d in axes else d for d in range(n)]),),
            PartialRule(PartialFlow.PASS_THROUGH, frozenset({kind})),
        )


_GROUP = "propagation does not enter regions; shard the ops before grouping them"


class RegionModel:
    """Groups and custom ops: no loop nest describes them, so they are refused with a reason."""

    REASONS = {
        tcp.GroupOp: _GROUP,
        tcp.IsolatedGroupOp: _GROUP,
        tcp.CustomOp: "what an opaque custom op computes is unknown",
    }

    def rule(self, op: Operation) -> ShardingRule:
        raise UnsupportedOp(self.REASONS[type(op)])


register_model(*(cls for cls in tcp.TCP.operations if issubclass(cls, tcp.ElementwiseOp)))(
    ElementwiseModel()
)
register_model(tcp.CastOp)(CastModel())
register_model(tcp.ConstOp)(ConstModel())
register_model(tcp.BroadcastOp)(BroadcastModel())
register_model(tcp.SliceOp)(SliceModel())
register_model(tcp.GatherOp)(GatherModel())
register_model(tcp.MatmulOp)(MatmulModel())
register_model(*_REDUCE_KINDS)(ReduceModel())
register_model(*RegionModel.REASONS)(RegionModel())
