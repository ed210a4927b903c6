"""Hexadecimal float elements in dense literals keep their bits.

Without this fix xDSL 0.74 reads `dense<0xFF800000> : tensor<f32>` (-inf, as MLIR and
xDSL itself print it) as the integer 4286578688 and stores the float 4.28657869e+09,
inside lists too (`dense<[0xff800000, 1.0]>`), so it misreads its own output
(upstream xdslproject/xdsl#3827). xshard needs -inf: it is the init value of every
max-reduction JAX emits (`jnp.max`, softmax). Scalars (`0xFF800000 : f32`) and byte
strings (`dense<"0x...">`) are read right already; this reads a hexadecimal element's
bits as the float element type, as the scalar path does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import AnyFloat
from xdsl.parser.attribute_parser import AttrParser

from xshard.xdsl_compat._patch import patch


def _hex_element_to_type(original: Callable[..., Any]) -> Callable[..., Any]:
    def to_type(self: Any, parser: AttrParser, type: Any) -> Any:
        if (
            isinstance(type, AnyFloat)
            and isinstance(self.value, int)
            and not isinstance(self.value, bool)
            and self.span.text[:2] in ("0x", "0X")
        ):
            size = type.compile_time_size
            if self.value >= 1 << (8 * size):
                parser.raise_error(
                    f"hexadecimal float literal does not fit in {type}", at_position=self.span
                )
            return next(type.iter_unpack(self.value.to_bytes(size, "little")))
        return original(self, parser, type)

    return to_type


def apply() -> None:
    patch(AttrParser._TensorLiteralElement, "to_type", _hex_element_to_type)  # pyright: ignore[reportPrivateUsage]
