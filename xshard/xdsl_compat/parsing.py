"""xshard's parser: a bound on the size of dense literals.

xDSL 0.74 keeps one Python object per element of a dense literal, even of a splat:
`xdsl-opt` takes 18.6 s and 5.5 GB to read and print `dense<0.0> :
tensor<67108864xf32>` (2**26 elements), and time and memory grow with the count. MLIR
stores a splat as one value and reads any size, so refusing bigger literals is xshard's
policy for its own tools (a located error, not a process that dies), not an xDSL fix:
xDSL's `Parser` is left as it is, and xshard parses through `XShardParser`, which
`xshard.diagnostics.LocatingParser` extends.

It also builds the check of a dense literal's type once; xDSL builds it for every
literal (3000 `dense<1.0> : tensor<4xf32>` constants: 3.0 s to parse, 0.8 s here),
and reads each spelling of a parametrized type (`tensor<8x16xf32>`) once per input:
a type is an immutable value, so a later occurrence of the same text is the same
type, and JAX's programs spell a few dozen types thousands of times.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    IndexType,
    IntegerType,
    RankedStructure,
)
from xdsl.ir import TypeAttribute
from xdsl.irdl import base
from xdsl.parser import Parser
from xdsl.utils.mlir_lexer import MLIRTokenKind

MAX_DENSE_ELEMENTS = 1 << 26
"""The most elements a dense literal's type may have in xshard's input."""


@functools.cache
def _dense_literal_constraint() -> Any:
    return base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


_ANGLES = re.compile(r'[<>"\n]|->')
"""What bounds a type's `<...>` parameters, and what makes a spelling not worth keeping."""


def _parameters_end(text: str, at: int) -> int | None:
    """The end of the balanced `<...>` starting at `at`; None where there is none, or
    where the parameters hold a string, an arrow or a line break."""
    if not text.startswith("<", at):
        return None
    depth = 0
    for found in _ANGLES.finditer(text, at):
        if found.group() == "<":
            depth += 1
        elif found.group() == ">":
            depth -= 1
            if depth == 0:
                return found.end()
        else:
            return None
    return None


class XShardParser(Parser):
    """xDSL's `Parser`, refusing a dense literal of more than `MAX_DENSE_ELEMENTS`
    elements, and reading each spelling of a parametrized type once."""

    _types: dict[str, TypeAttribute] | None = None
    """The parametrized types read so far, by their text."""

    def parse_optional_type(self) -> TypeAttribute | None:
        token = self._current_token
        if token.kind != MLIRTokenKind.BARE_IDENT:
            return super().parse_optional_type()
        text = token.span.input.content
        end = _parameters_end(text, token.span.end)
        if end is None:
            return super().parse_optional_type()
        spelling = text[token.span.start : end]
        if self._types is None:
            self._types = {}
        if (known := self._types.get(spelling)) is not None:
            self._resume_from(end)
            return known
        type = super().parse_optional_type()
        if type is not None and self._current_token.span.start >= end:
            self._types[spelling] = type
        return type

    def _parse_dense_literal_type(self) -> Any:
        start = self.pos
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _dense_literal_constraint().verifies(type):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or "
                "complex type"
            )
        if DYNAMIC_INDEX in type.get_shape():
            self.raise_error("Dense literal attribute should have a static shape.")
        count = math.prod(type.get_shape())
        if count > MAX_DENSE_ELEMENTS:
            self.raise_error(
                f"dense literal of {count} elements: xshard reads at most "
                f"{MAX_DENSE_ELEMENTS} (2**{MAX_DENSE_ELEMENTS.bit_length() - 1})",
                start,
                self.pos,
            )
        return type
