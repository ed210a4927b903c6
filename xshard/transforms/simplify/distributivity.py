"""Which ops commute with a reduction across devices, read from the sharding models.

A value an `all_reduce` of kind k settles is, before it, a partial value of kind
k; the `PartialRule` of an op's sharding model says how partial operands flow
through the op, so the same rule says when the op and the reduction may swap:
- jointly (`add(R x, R y) = R add(x, y)`): every operand the rule lets carry the
  partial state holds a reduction over the same group, the others are
  replicated over it (`ALL_OPERANDS`);
- alone (`R x * c = R (x * c)`): one operand holds the reduction, the others are
  replicated over its group (`PASS_THROUGH`, `ONE_OPERAND`, or `ALL_OPERANDS`
  with `replicated_join`, as `max(max_g x, c) = max_g max(x, c)`).
A binary op that *is* k's combiner (StableHLO's reducer-body table, and
`ARITH_COMBINERS` for the arith ops upstream's `test-grid-simplifications`
rewrites, which have no sharding model) also
distributes jointly, by associativity and commutativity, and alone when k is
idempotent (`and(and_g x, c) = and_g and(x, c)`).
Ops with regions are left out: a reduce's init operand would be counted once
per device.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from xshard.dialects.stablehlo.reduction import REDUCTION_KINDS
from xshard.interfaces.models import model_for
from xshard.interfaces.sharding_interface import NO_PARTIAL, PartialFlow, PartialRule
from xshard.interfaces.sharding_model import UnsupportedOp
from xshard.sharding.reduction import ReductionKind

IDEMPOTENT = frozenset(
    {ReductionKind.MAX, ReductionKind.MIN, ReductionKind.BITWISE_AND, ReductionKind.BITWISE_OR}
)
"""Kinds with k(a, a) = a: reducing a value twice over the same devices changes nothing."""


ARITH_COMBINERS: dict[type[Operation], ReductionKind] = {
    arith.AddfOp: ReductionKind.SUM,
    arith.AddiOp: ReductionKind.SUM,
    arith.MinimumfOp: ReductionKind.MIN,
    arith.MinnumfOp: ReductionKind.MIN,
    arith.MinSIOp: ReductionKind.MIN,
    arith.MinUIOp: ReductionKind.MIN,
    arith.MaximumfOp: ReductionKind.MAX,
    arith.MaxnumfOp: ReductionKind.MAX,
    arith.MaxSIOp: ReductionKind.MAX,
    arith.MaxUIOp: ReductionKind.MAX,
}
"""Arith ops that are a reduction kind's combiner (upstream's all-reduce endomorphisms)."""


def _partial_rule(op: Operation) -> PartialRule:
    model = model_for(op)
    if model is None or op.regions or len(op.results) != 1:
        return NO_PARTIAL
    try:
        return model.rule(op).partial
    except UnsupportedOp:
        return NO_PARTIAL


def _is_combiner(op: Operation, kind: ReductionKind) -> bool:
    combines = REDUCTION_KINDS.get(type(op)) or ARITH_COMBINERS.get(type(op))
    return combines == kind and len(op.operands) == 2


def joint_positions(op: Operation, kind: ReductionKind) -> tuple[int, ...] | None:
    """Operand positions that must all hold a `kind` reduction over one group for
    `op(R x, R y) = R op(x, y)` (the other operands replicated over it); None when
    `op` does not distribute over `kind`."""
    rule = _partial_rule(op)
    if rule.flow is PartialFlow.ALL_OPERANDS and kind in rule.kinds:
        if rule.operands is not None:
            return rule.operands
        return tuple(i for i, v in enumerate(op.operands) if isinstance(v.type, TensorType))
    if _is_combiner(op, kind) and not op.regions:
        return (0, 1)
    return None


def commutes(op: Operation, position: int, kind: ReductionKind) -> bool:
    """Whether `op(.., R x, ..) = R op(.., x, ..)` for a `kind` reduction R at
    `position` when every other operand is replicated over R's group."""
    rule = _partial_rule(op)
    if rule.accepts(position, kind) and (
        rule.flow in (PartialFlow.PASS_THROUGH, PartialFlow.ONE_OPERAND) or rule.replicated_join
    ):
        return True
    return _is_combiner(op, kind) and kind in IDEMPOTENT and not op.regions
