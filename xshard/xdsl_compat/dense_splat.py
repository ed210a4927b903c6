"""`DenseIntOrFPElementsAttr.is_splat` on an empty attribute, and quickly.

Without this fix xDSL 0.74's `is_splat` reads the first element of
`dense<> : tensor<0xf32>` (a valid constant) and raises `IndexError`. xDSL's printer
checks for an empty attribute first; xshard's partitioner asks it of every constant.
It also unpacks every element to answer, 0.05 s each time for a 1024x1024 splat;
`splat_element` decides from the bytes and two unpacked elements (0.003 s), with the
answer of xDSL's comparison of values (`-0.0` equals `0.0`, NaN is no splat).

`splat_attr` builds the other way, for any element type: `from_list(t, [0])` packs an
integer into a float tensor, but neither a float into an integer one nor a scalar into
a complex one (a complex element is a pair).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import AnyFloat, ComplexType, DenseIntOrFPElementsAttr, TensorType

from xshard.xdsl_compat._patch import patch


def splat_element(attr: DenseIntOrFPElementsAttr) -> tuple[Any] | None:
    """`(value,)` when every element of `attr` equals `value` (as xDSL's `is_splat`
    compares them), else None."""
    data, count = attr.data.data, len(attr)
    if not count:
        return None
    size = len(data) // count
    if data == data[:size] * count:
        first, *other = attr.get_element_type().unpack(data[: size * min(count, 2)], min(count, 2))
        return (first,) if all(first == v for v in other) else None  # NaN != NaN
    values = attr.get_values()
    return (values[0],) if values.count(values[0]) == count else None


def splat_attr(t: TensorType[Any], value: float) -> DenseIntOrFPElementsAttr:
    """`t` holding `value` everywhere; a complex element holds `(value, 0)`."""
    element = t.element_type
    part = element.element_type if isinstance(element, ComplexType) else element
    v = float(value) if isinstance(part, AnyFloat) else int(value)
    return DenseIntOrFPElementsAttr.from_list(t, [(v, type(v)(0)) if part is not element else v])


def _is_splat(original: Callable[..., Any]) -> Callable[..., Any]:
    def is_splat(self: DenseIntOrFPElementsAttr) -> bool:
        return splat_element(self) is not None

    return is_splat


def apply() -> None:
    patch(DenseIntOrFPElementsAttr, "is_splat", _is_splat)
