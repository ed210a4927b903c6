"""Numbers out of their type's range in builtin attributes and types: MLIR's answer.

Without this fix xDSL 0.74, on a literal its type cannot hold,
- raises `OverflowError` (a traceback) on a float beyond the type's range
  (`1.0e40 : f32`, in `dense<...>` too, or `FloatAttr(1e40, f32)` built in Python),
  which MLIR reads as infinity, rounding as APFloat does; so does this fix;
- raises `OverflowError` on a decimal integer too large for any float (`1` then 400
  zeros `: f32`) and `ValueError` on an integer element out of its type's range
  (`dense<300> : tensor<i8>`), where MLIR's errors are `unexpected decimal integer
  literal for a floating point value` and `integer constant out of range for type`;
- accepts an `index` constant beyond 64 bits, which MLIR refuses with `integer
  constant out of range for attribute`, and a shape dimension beyond int64
  (`tensor<9223372036854775808xf32>`), which MLIR refuses with `invalid dimension`;
  stored in an int64 array it wraps (`shard.grid @g(shape = 2x9223372036854775808)`
  reads as `2x?`);
- raises `struct.error` on a complex integer part that is in range, but only unsigned
  (`dense<(2147483648, 0)> : tensor<complex<i32>>`, which MLIR reads as -2**31), and
  does not check the range of complex integer parts at all;
- fails an assertion on a lone number for a complex element (`dense<0.0> :
  tensor<2xcomplex<f32>>`), where MLIR's error is `parsed 1 elements, but type
  ('complex<f32>') expected 2 elements`.
Every value MLIR accepts is read as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.parser import AttrParser

from xshard.xdsl_compat._patch import patch

_INT64_MAX = (1 << 63) - 1
_INDEX_RANGE = (-(1 << 63), 1 << 64)
"""What an `index` value may be written as: 64 bits, signed or not, as a signless i64."""


def _round_to_type(value: float, type: AnyFloat) -> float:
    """`value` as `type` holds it: beyond its largest finite value, an infinity."""
    try:
        type.pack((value,))
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


def _shape_dimension(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_shape_dimension(self: AttrParser, allow_dynamic: bool = True) -> int:
        start = self.pos
        dim = original(self, allow_dynamic)
        if dim > _INT64_MAX:
            self.raise_error("invalid dimension", start, self.pos)
        return dim

    return parse_shape_dimension


def _element_to_type(original: Callable[..., Any]) -> Callable[..., Any]:
    def to_type(self: Any, parser: AttrParser, type: Any) -> Any:
        value = self.value
        if isinstance(type, ComplexType):
            if not isinstance(value, tuple):
                parser.raise_error(
                    f"parsed 1 elements, but type ('{type}') expected 2 elements",
                    at_position=self.span,
                )
            parts, part_type = value, type.element_type
        else:
            parts, part_type = (value,), type
        if isinstance(part_type, IntegerType | IndexType):
            low, high = (
                part_type.value_range() if isinstance(part_type, IntegerType) else _INDEX_RANGE
            )
            if any(isinstance(v, int) and not low <= v < high for v in parts):
                parser.raise_error("integer constant out of range for type", at_position=self.span)
            if isinstance(type, ComplexType) and isinstance(part_type, IntegerType):
                # xDSL packs complex parts signed: 2**31 in complex<i32> is -2**31, as in MLIR
                return tuple(part_type.normalized_value(int(v)) for v in parts)
        if isinstance(type, AnyFloat):
            try:
                return _round_to_type(original(self, parser, type), type)
            except OverflowError:  # float() of an integer beyond every float
                parser.raise_error(
                    "unexpected decimal integer literal for a floating point value",
                    at_position=self.span,
                )
        return original(self, parser, type)

    return to_type


def _float_attr_init(original: Callable[..., Any]) -> Callable[..., Any]:
    def __init__(self: FloatAttr, data: Any, type: Any) -> None:
        if isinstance(data, float) and isinstance(type, AnyFloat):
            data = _round_to_type(data, type)
        original(self, data, type)

    return __init__


def _int_or_float_attr(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_optional_builtin_int_or_float_attr(self: AttrParser) -> Any:
        start = self.pos
        try:
            attr = original(self)
        except OverflowError:  # float() of an integer beyond every float
            self.raise_error(
                "unexpected decimal integer literal for a floating point value", start, start
            )
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
            low, high = _INDEX_RANGE  # xDSL checks the range of integer types only
            if not low <= attr.value.data < high:
                self.raise_error("integer constant out of range for attribute", start, start)
        return attr

    return parse_optional_builtin_int_or_float_attr


def apply() -> None:
    patch(AttrParser, "parse_shape_dimension", _shape_dimension)
    patch(AttrParser._TensorLiteralElement, "to_type", _element_to_type)  # pyright: ignore[reportPrivateUsage]
    patch(FloatAttr, "__init__", _float_attr_init)
    patch(AttrParser, "parse_optional_builtin_int_or_float_attr", _int_or_float_attr)
