"""Per-device form of the linalg ops that read their DPS init.

A matmul, a `linalg.reduce` or a reducing `linalg.generic` combines its init into
the result once. When the result is partial (a split reduction loop, or a partial
input) each device's result is one summand, so the init must enter on one device
of the partial axes only: the others start from the neutral element of the
partial kind. As upstream, that is an `scf.if` on `shard.process_multi_index`
choosing the init or a neutral `linalg.fill`. Unlike upstream, the result stays
partial: no `all_reduce` here, the collective comes where a user wants the value
settled (see `shard-partition`).

No `scf.if` is needed when the init already is neutral (a `linalg.fill` or a splat
`arith.constant` of the neutral element), when the init is partial over the same
axes itself, or when the kind is idempotent (max, min, and, or): combining the
init on every device changes nothing.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xshard.dialects.shard import ProcessMultiIndexOp
from xshard.interfaces.annotations import base_value
from xshard.interfaces.models.stablehlo_partition import reduction_identity
from xshard.interfaces.partition_context import PartitionContext
from xshard.sharding.reduction import ReductionKind

_IDEMPOTENT = {
    ReductionKind.MAX,
    ReductionKind.MIN,
    ReductionKind.BITWISE_AND,
    ReductionKind.BITWISE_OR,
}


def _scalar(value: float | int, element_type: Attribute) -> Attribute:
    if isinstance(element_type, AnyFloat):
        return FloatAttr(float(value), element_type)
    assert isinstance(element_type, IntegerType | IndexType)
    return IntegerAttr(int(value), element_type)


def _holds(value: SSAValue, neutral: float | int) -> bool:
    """Whether `value` is, element by element, `neutral`."""
    op = base_value(value).owner
    if isinstance(op, linalg.FillOp):
        op = op.inputs[0].owner
        return isinstance(op, arith.ConstantOp) and _scalar_value(op.value) == neutral
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr):
        return op.value.is_splat() and op.value.get_values()[0] == neutral
    return False


def _scalar_value(attr: Attribute) -> float | int | None:
    return attr.value.data if isinstance(attr, IntegerAttr | FloatAttr) else None


def _neutral_unless_first(
    ctx: PartitionContext, init: SSAValue, axes: tuple[int, ...], neutral: float | int
) -> SSAValue:
    """`init` on the devices whose index is 0 along every one of `axes`, else a neutral fill."""
    t = init.type
    assert isinstance(t, TensorType)
    index = ctx.insert(ProcessMultiIndexOp(ctx.grid.name, axes)).results
    zero = ctx.insert(arith.ConstantOp.from_int_and_width(0, IndexType())).result
    first: SSAValue = ctx.insert(arith.CmpiOp(index[0], zero, "eq")).result
    for i in index[1:]:
        at_zero = ctx.insert(arith.CmpiOp(i, zero, "eq")).result
        first = ctx.insert(arith.AndIOp(first, at_zero)).result
    empty = tensor.EmptyOp([], t)
    scalar = arith.ConstantOp(_scalar(neutral, t.element_type))
    fill = linalg.FillOp([scalar.result], [empty.tensor], [t])
    choose = scf.IfOp(
        first,
        [t],
        [scf.YieldOp(init)],
        [empty, scalar, fill, scf.YieldOp(fill.results[0])],
    )
    return ctx.insert(choose).results[0]


def partition_with_init(op: Operation, ctx: PartitionContext) -> None:
    """The op on local types, each partial result's init made neutral off the first device."""
    num_inputs = len(op.operands) - len(op.results)
    block: Block = op.regions[0].block
    inits: dict[int, SSAValue] = {}
    for i, s in enumerate(ctx.result_shardings):
        position = num_inputs + i
        if s is None or not s.is_partial or not block.args[position].uses:
            continue
        kind = s.partial_kind
        if kind in _IDEMPOTENT:
            continue
        init_s = ctx.operand_shardings[position]
        already = init_s.partial_axes if init_s and init_s.partial_kind == kind else ()
        axes = tuple(a for a in s.partial_axes if a not in already)
        if not axes:
            continue
        t = op.results[i].type
        assert isinstance(t, TensorType)
        neutral = reduction_identity(kind, t.element_type)
        # The kind is the combiner's (sum, product or xor here): the model never splits a
        # loop whose combiner has no kind, and another partial kind fails as a reshard.
        assert neutral is not None
        if not _holds(op.operands[position], neutral):
            inits[position] = _neutral_unless_first(ctx, ctx.operands[position], axes, neutral)
    new = ctx.clone_local()
    for position, value in inits.items():
        new.operands[position] = value
