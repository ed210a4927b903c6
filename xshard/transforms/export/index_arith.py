"""Scalar integer arithmetic on device indices, as StableHLO on rank-0 tensors.

Masks and offsets are written in `arith` on `process_multi_index` & co.
(`cmpi eq %i, %c3`); StableHLO has no scalars, so each such op becomes its
elementwise counterpart on rank-0 tensors: `index` as `tensor<i64>` (see
`device_index.py`), `iN` as `tensor<iN>`, `cmpi` results as `tensor<i1>`, which a
`stablehlo.select` takes as a predicate for tensors of any shape. StableHLO
integers are signed, so the unsigned ops run on `uiN` copies of their operands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xshard.dialects import stablehlo as hlo
from xshard.transforms.export.device_index import Emit

_SIGNED: dict[type[Operation], type[hlo.BinaryElementwiseOp]] = {
    arith.AddiOp: hlo.AddOp,
    arith.SubiOp: hlo.SubtractOp,
    arith.MuliOp: hlo.MultiplyOp,
    arith.DivSIOp: hlo.DivideOp,
    arith.RemSIOp: hlo.RemainderOp,
    arith.MaxSIOp: hlo.MaximumOp,
    arith.MinSIOp: hlo.MinimumOp,
    arith.AndIOp: hlo.AndOp,
    arith.OrIOp: hlo.OrOp,
    arith.XOrIOp: hlo.XorOp,
}
_UNSIGNED: dict[type[Operation], type[hlo.BinaryElementwiseOp]] = {
    arith.DivUIOp: hlo.DivideOp,
    arith.RemUIOp: hlo.RemainderOp,
    arith.MaxUIOp: hlo.MaximumOp,
    arith.MinUIOp: hlo.MinimumOp,
}
_CASTS = (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)
SCALAR_OPS: tuple[type[Operation], ...] = (
    *_SIGNED,
    *_UNSIGNED,
    *_CASTS,
    arith.CmpiOp,
    arith.SelectOp,
)
"""The `arith` ops lowered when an operand derives from a process query."""

# arith.cmpi predicates in order: eq ne slt sle sgt sge ult ule ugt uge.
_DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE", "LT", "LE", "GT", "GE")


def tensor_type(scalar: Attribute) -> TensorType | None:
    """The rank-0 tensor type an `index` / integer scalar becomes."""
    if isinstance(scalar, IndexType):
        return TensorType(i64, [])
    if isinstance(scalar, IntegerType):
        return TensorType(scalar, [])
    return None


def constant(emit: Emit, value: int, scalar: Attribute) -> SSAValue:
    kind = tensor_type(scalar)
    assert kind is not None
    if isinstance(scalar, IntegerType) and scalar.width.data == 1:
        value = int(value != 0)
    return emit(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(kind, [value])))


def _width(value: SSAValue) -> int:
    element = value.type.element_type  # type: ignore[attr-defined]
    assert isinstance(element, IntegerType)
    return element.width.data


def _retyped(emit: Emit, value: SSAValue, element: IntegerType) -> SSAValue:
    if value.type.element_type == element:  # type: ignore[attr-defined]
        return value
    return emit(hlo.ConvertOp(value, TensorType(element, [])))


def _unsigned(emit: Emit, value: SSAValue) -> SSAValue:
    return _retyped(emit, value, IntegerType(_width(value), Signedness.UNSIGNED))


def lower_scalar(
    emit: Emit, op: Operation, operands: Sequence[SSAValue], fail: Callable[[str], Exception]
) -> SSAValue:
    """`op` (one of SCALAR_OPS) on the rank-0 tensors `operands`."""
    if type(op) in _SIGNED:
        return emit(_SIGNED[type(op)](*operands))
    if type(op) in _UNSIGNED:
        lhs, rhs = operands
        if _width(lhs) == 1:
            raise fail("unsigned arithmetic on i1 has no StableHLO form")
        value = emit(_UNSIGNED[type(op)](_unsigned(emit, lhs), _unsigned(emit, rhs)))
        return _retyped(emit, value, lhs.type.element_type)  # type: ignore[attr-defined]
    if isinstance(op, arith.CmpiOp):
        predicate = op.predicate.value.data
        lhs, rhs = operands
        if _width(lhs) == 1 and predicate in range(2, 6):
            raise fail("a signed ordering of i1 values has no StableHLO comparison")
        if predicate >= 6 and _width(lhs) != 1:
            lhs, rhs = _unsigned(emit, lhs), _unsigned(emit, rhs)
        return emit(hlo.CompareOp(lhs, rhs, _DIRECTIONS[predicate]))
    if isinstance(op, arith.SelectOp):
        return emit(hlo.SelectOp(*operands))
    assert isinstance(op, _CASTS)
    (value,) = operands
    result = tensor_type(op.result.type)
    assert result is not None
    assert isinstance(result.element_type, IntegerType)
    if result.element_type.width.data == 1 and _width(value) != 1:
        # XLA converts integers to i1 as `!= 0`; truncation keeps the low bit.
        one = emit(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(value.type, [1])))
        low = emit(hlo.AndOp(value, one))
        return emit(hlo.CompareOp(low, one, "EQ"))
    if isinstance(op, arith.ExtUIOp) and _width(value) != 1:
        value = _unsigned(emit, value)
    value = _retyped(emit, value, result.element_type)
    if isinstance(op, arith.ExtSIOp) and _width(operands[0]) == 1:
        value = emit(hlo.NegateOp(value))  # true sign-extends to -1
    return value
