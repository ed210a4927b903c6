"""Integers in declarative custom syntax, range-checked as MLIR checks them.

Without this fix xDSL 0.74 reads an integer of any size into a `[...]` integer array of
a declarative format (`DenseArrayAttributeVariable`: `shard.all_reduce`'s `grid_axes`,
`vector.shuffle`'s mask) and into a dynamic index list (`tensor.extract_slice
%t[...]`): beyond the array's element type, the first raises `struct.error` (a
traceback) and the second wraps silently (`%t[18446744073709551615]` reads as
`%t[-1]`; `%t[9223372036854775808]` as the dynamic marker, then fails to verify).
MLIR reads these with `parseInteger<intN_t>` and reports `integer value too large` at
the number; so does xDSL with this fix. In-range values read as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import BytesAttr, DenseArrayBase, IntegerType
from xdsl.dialects.utils import dynamic_index_list
from xdsl.irdl.declarative_assembly_format import DenseArrayAttributeVariable
from xdsl.parser import Parser

from xshard.dialects.parsing import integer_range, parse_bounded_integer, parse_signed_integer
from xshard.xdsl_compat._patch import patch


def _dense_array_parse_attr(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_attr(self: DenseArrayAttributeVariable, parser: Parser) -> Any:
        type = self.elt_type
        if not isinstance(type, IntegerType) or type.width.data == 1:
            return original(self, parser)
        low, high = integer_range(type)

        def element() -> int:
            return parse_bounded_integer(parser, low, high)

        if self.is_optional:
            values = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, element)
            if values is None:
                return None
        else:
            values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, element)
        return DenseArrayBase(type, BytesAttr(type.pack(values)))

    return parse_attr


def _dynamic_index(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_dynamic_index_without_type(parser: Parser) -> Any:
        value = parser.parse_optional_unresolved_operand()
        return value if value is not None else parse_signed_integer(parser, 64, allow_boolean=False)

    return parse_dynamic_index_without_type


def apply() -> None:
    patch(DenseArrayAttributeVariable, "parse_attr", _dense_array_parse_attr)
    patch(dynamic_index_list, "parse_dynamic_index_without_type", _dynamic_index)
