"""Fixes for xDSL 0.74 bugs that would silently change the meaning of StableHLO programs.

Hex float elements in dense literals. MLIR writes a float element that has no
exact short decimal form (infinities, NaNs) as its bit pattern:
`dense<0xFF800000> : tensor<f32>` is -inf, the init value of every max-reduction
JAX emits (`jnp.max`, softmax). xDSL 0.74 reads such an element as the integer
4286578688 and converts it to the float 4.28e9, inside lists too
(`dense<[0xff800000, 1.0]>`), and it prints -inf in exactly that form, so it
does not even round-trip its own output (upstream xdslproject/xdsl#3827).
Scalars (`0xFF800000 : f32`) and quoted byte strings (`dense<"0x...">`) are
already read correctly; only the tensor-literal path needs the fix below, which
reinterprets a hexadecimal element's bits as the float element type, as the
scalar path does.

An empty dense attribute (`dense<> : tensor<0xf32>`, a valid constant) is no splat:
xDSL 0.74's `is_splat` reads its first element and raises `IndexError`; the
replacement (`splat_element`) also reads a splat from its bytes, not by unpacking
every element.

`apply()` is idempotent; importing `xshard` applies it.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr
from xdsl.parser.attribute_parser import AttrParser

_Element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]


def _is_hex_literal(element: Any) -> bool:
    return element.span.text[:2] in ("0x", "0X")


def _hex_aware_to_type(original: Any) -> Any:
    def to_type(self: Any, parser: AttrParser, type: Any) -> Any:
        if (
            isinstance(type, AnyFloat)
            and isinstance(self.value, int)
            and not isinstance(self.value, bool)
            and _is_hex_literal(self)
        ):
            size = type.compile_time_size
            if self.value >= 1 << (8 * size):
                parser.raise_error(
                    f"hexadecimal float literal does not fit in {type}", at_position=self.span
                )
            return next(type.iter_unpack(self.value.to_bytes(size, "little")))
        return original(self, parser, type)

    to_type.xshard_hex_float_fix = True  # type: ignore[attr-defined]
    return to_type


def splat_element(attr: DenseIntOrFPElementsAttr) -> tuple[Any] | None:
    """`(value,)` when every element of `attr` equals `value` (as xDSL's `is_splat`
    compares them), else None. Elements with the first one's bits decide it from two
    unpacked elements; xDSL unpacks every element, three times for `is_splat` and the
    value, which made a large splat weight cost seconds to partition or print."""
    data, count = attr.data.data, len(attr)
    if not count:
        return None
    size = len(data) // count
    if data == data[:size] * count:
        first, *other = attr.get_element_type().unpack(data[: size * min(count, 2)], min(count, 2))
        return (first,) if all(first == v for v in other) else None  # NaN != NaN
    values = attr.get_values()
    return (values[0],) if values.count(values[0]) == count else None


def _empty_aware_is_splat(original: Any) -> Any:
    def is_splat(self: DenseIntOrFPElementsAttr) -> bool:
        return splat_element(self) is not None

    is_splat.xshard_empty_fix = True  # type: ignore[attr-defined]
    return is_splat


def apply() -> None:
    """Patch xDSL's dense-literal parser so hex float elements keep their bits, and
    `is_splat` so an empty attribute is no splat."""
    if not getattr(_Element.to_type, "xshard_hex_float_fix", False):
        _Element.to_type = _hex_aware_to_type(_Element.to_type)
    if not getattr(DenseIntOrFPElementsAttr.is_splat, "xshard_empty_fix", False):
        DenseIntOrFPElementsAttr.is_splat = _empty_aware_is_splat(  # type: ignore[method-assign]
            DenseIntOrFPElementsAttr.is_splat
        )


apply()
