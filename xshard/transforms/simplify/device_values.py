"""What a value is on one device, when it depends on nothing but the device.

Masks such as `select(partition_id % 4 == 2, x, 0)` are computed from the device's
index and constants only. Evaluating such a value for every device tells a pass
which devices it singles out, whatever arithmetic the producer (JAX, xshard's own
export, a user) chose to write. A value is known when it is a splat (one number
for every element) or a constant table, and unknown (None) as soon as it depends
on anything else: a function argument, a load, an op this module does not model.
Integer results wrap to their type's width, as the hardware does.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.sharding.groups import in_group_index

Number = int | float | bool
Known = Number | tuple[Number, ...]
"""A splat's one value, or a non-splat constant's elements (row-major)."""

_MAX_OPS = 64
"""Producers deeper than this are not evaluated: masks are a handful of ops."""


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def _wrap(value: Number, t: Attribute) -> Number | None:
    """`value` as an element of type `t` holds it: i1 -> bool, integers wrap, floats
    stay; None for a non-finite float converted to an integer (no defined value)."""
    e = _element(t)
    if isinstance(value, float) and not math.isfinite(value) and not isinstance(e, AnyFloat):
        return None
    if isinstance(e, IntegerType):
        width = e.width.data
        if width == 1:
            return bool(int(value) & 1)
        v = int(value) % (1 << width)
        if e.signedness.data != Signedness.UNSIGNED and v >= 1 << (width - 1):
            v -= 1 << width
        return v
    if isinstance(e, IndexType):
        return int(value)
    if isinstance(e, AnyFloat):
        return float(value)
    return value


def _unsigned(value: Number, t: Attribute) -> int:
    e = _element(t)
    width = e.width.data if isinstance(e, IntegerType) else 64
    return int(value) % (1 << width)


def _int_div(a: int, b: int) -> int:
    """Division rounding toward zero (StableHLO's and `divsi`'s)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _int_rem(a: int, b: int) -> int:
    return a - b * _int_div(a, b)


def _divide(a: Number, b: Number, t: Attribute) -> Number | None:
    if isinstance(_element(t), AnyFloat):
        return a / b if b else None
    return _int_div(int(a), int(b)) if b else None


def _remainder(a: Number, b: Number, t: Attribute) -> Number | None:
    if isinstance(_element(t), AnyFloat):
        return math.fmod(a, b) if b else None
    return _int_rem(int(a), int(b)) if b else None


_COMPARE: dict[str, Callable[[Number, Number], bool]] = {
    "EQ": operator.eq,
    "NE": operator.ne,
    "LT": operator.lt,
    "LE": operator.le,
    "GT": operator.gt,
    "GE": operator.ge,
}

_CMPI = ["eq", "ne", "lt", "le", "gt", "ge", "lt", "le", "gt", "ge"]
"""arith.cmpi's predicate numbers (eq, ne, slt, ..., uge) to comparisons."""

_HLO_BINARY: dict[type[Operation], Callable[[Number, Number, Attribute], Number | None]] = {
    hlo.AddOp: lambda a, b, t: a + b,
    hlo.SubtractOp: lambda a, b, t: a - b,
    hlo.MultiplyOp: lambda a, b, t: a * b,
    hlo.DivideOp: _divide,
    hlo.RemainderOp: _remainder,
    hlo.MaximumOp: lambda a, b, t: max(a, b),
    hlo.MinimumOp: lambda a, b, t: min(a, b),
    hlo.AndOp: lambda a, b, t: int(a) & int(b),
    hlo.OrOp: lambda a, b, t: int(a) | int(b),
    hlo.XorOp: lambda a, b, t: int(a) ^ int(b),
}

_ARITH_BINARY: dict[type[Operation], Callable[[Number, Number, Attribute], Number | None]] = {
    arith.AddiOp: lambda a, b, t: a + b,
    arith.SubiOp: lambda a, b, t: a - b,
    arith.MuliOp: lambda a, b, t: a * b,
    arith.AddfOp: lambda a, b, t: a + b,
    arith.MulfOp: lambda a, b, t: a * b,
    arith.DivSIOp: lambda a, b, t: _int_div(int(a), int(b)) if b else None,
    arith.RemSIOp: lambda a, b, t: _int_rem(int(a), int(b)) if b else None,
    arith.DivUIOp: lambda a, b, t: _unsigned(a, t) // _unsigned(b, t) if _unsigned(b, t) else None,
    arith.RemUIOp: lambda a, b, t: _unsigned(a, t) % _unsigned(b, t) if _unsigned(b, t) else None,
    arith.AndIOp: lambda a, b, t: int(a) & int(b),
    arith.OrIOp: lambda a, b, t: int(a) | int(b),
    arith.XOrIOp: lambda a, b, t: int(a) ^ int(b),
}


def _dense(attr: Attribute) -> Known | None:
    if isinstance(attr, IntegerAttr | FloatAttr):
        return _wrap(attr.value.data, attr.type)
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    values = tuple(_wrap(v, attr.type) for v in attr.get_values())
    if not values or None in values:
        return None
    return values[0] if len(set(values)) == 1 else values


class DeviceValues:
    """Values on the device whose row-major linear index (= partition id) is `device`.

    `shard.process_multi_index` reads its grid's shape from the symbol table.
    Results are cached per value.
    """

    def __init__(self, device: int):
        self.device = device
        self._known: dict[SSAValue, Known | None] = {}
        self._budget = _MAX_OPS

    def __call__(self, value: SSAValue) -> Known | None:
        if value not in self._known:
            self._known[value] = self._evaluate(value)
        return self._known[value]

    def scalar(self, value: SSAValue) -> Number | None:
        known = self(value)
        return None if isinstance(known, tuple) else known

    def _evaluate(self, value: SSAValue) -> Known | None:
        op = value.owner
        if not isinstance(op, Operation) or self._budget <= 0:
            return None
        self._budget -= 1
        t = value.type
        if isinstance(op, hlo.ConstantOp):
            return _dense(op.value)
        if isinstance(op, arith.ConstantOp):
            return _dense(op.value)
        if isinstance(op, hlo.PartitionIdOp | shard.ProcessLinearIndexOp):
            return _wrap(self.device, t)
        if isinstance(op, shard.ProcessMultiIndexOp | shard.GridShapeOp):
            return self._grid_query(op, value)
        if isinstance(op, hlo.ConvertOp | arith.IndexCastOp | hlo.BroadcastInDimOp):
            a = self.scalar(op.operands[0])
            return None if a is None else _wrap(a, t)
        if isinstance(op, hlo.ReshapeOp):
            return self(op.operand)
        if isinstance(op, hlo.NotOp):
            a = self.scalar(op.operand)
            return None if a is None else _wrap(~int(a), t)
        if type(op) in _HLO_BINARY or type(op) in _ARITH_BINARY:
            return self._binary(op, t)
        if isinstance(op, hlo.CompareOp):
            a, b = self.scalar(op.lhs), self.scalar(op.rhs)
            if a is None or b is None:
                return None
            if op.compare_type is not None and op.compare_type.data.value == "UNSIGNED":
                a, b = _unsigned(a, op.lhs.type), _unsigned(b, op.rhs.type)
            return _COMPARE[op.comparison_direction.data.value](a, b)
        if isinstance(op, arith.CmpiOp):
            return self._cmpi(op)
        if isinstance(op, hlo.SelectOp | arith.SelectOp):
            pred = self.scalar(op.operands[0])
            return None if pred is None else self(op.operands[1 if pred else 2])
        if isinstance(op, hlo.DynamicSliceOp):
            return self._table_lookup(op)
        if isinstance(op, shard.AllSliceOp):
            return self._own_slice(op)
        return None

    def _binary(self, op: Operation, t: Attribute) -> Known | None:
        a, b = self.scalar(op.operands[0]), self.scalar(op.operands[1])
        if a is None or b is None:
            return None
        fn = _HLO_BINARY.get(type(op)) or _ARITH_BINARY[type(op)]
        result = fn(a, b, t)
        return None if result is None else _wrap(result, t)

    def _cmpi(self, op: arith.CmpiOp) -> bool | None:
        a, b = self.scalar(op.lhs), self.scalar(op.rhs)
        if a is None or b is None:
            return None
        predicate = op.predicate.value.data
        if predicate >= 6:
            a, b = _unsigned(a, op.lhs.type), _unsigned(b, op.rhs.type)
        return _COMPARE[_CMPI[predicate].upper()](a, b)

    def _grid_shape(self, op: Operation) -> tuple[int, ...] | None:
        grid = shard.lookup_grid(op, op.grid)  # type: ignore[attr-defined]
        if grid is None or None in grid.shape_tuple() or self.device >= prod(grid.shape_tuple()):
            return None
        return grid.shape_tuple()  # type: ignore[return-value]

    def _coordinates(self, shape: tuple[int, ...]) -> list[int]:
        return [(self.device // prod(shape[a + 1 :])) % shape[a] for a in range(len(shape))]

    def _grid_query(self, op: Operation, value: SSAValue) -> int | None:
        shape = self._grid_shape(op)
        if shape is None:
            return None
        axes = op.axes.get_values() or tuple(range(len(shape)))  # type: ignore[attr-defined]
        axis = axes[value.index]  # type: ignore[attr-defined]
        if isinstance(op, shard.GridShapeOp):
            return shape[axis]
        return self._coordinates(shape)[axis]

    def _own_slice(self, op: shard.AllSliceOp) -> Known | None:
        """This device's block of a 1-d constant table split over the group."""
        table, shape = self(op.input), self._grid_shape(op)
        if not isinstance(table, tuple) or shape is None:
            return table if shape is not None else None
        if len(op.input.type.get_shape()) != 1:
            return None
        axes = op.grid_axes_tuple()
        size = len(table) // prod(shape[a] for a in axes)
        start = in_group_index(shape, axes, self._coordinates(shape)) * size
        block = table[start : start + size]
        return block[0] if len(set(block)) == 1 else block

    def _table_lookup(self, op: hlo.DynamicSliceOp) -> Known | None:
        """`dynamic_slice(table, i)` of one element of a 1-d constant table."""
        table = self(op.operand)
        if not isinstance(table, tuple):
            return table  # a splat slices to itself
        if len(op.start_indices) != 1 or op.slice_sizes.get_values() != (1,):
            return None
        index = self.scalar(op.start_indices[0])
        if index is None:
            return None
        return table[min(max(int(index), 0), len(table) - 1)]  # StableHLO clamps
