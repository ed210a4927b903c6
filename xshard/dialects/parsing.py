"""Integers in custom syntax, range-checked as MLIR's `parseInteger<intN_t>` checks them,
and the named dim lists attributes such as `#stablehlo.dot` are made of.

xDSL reads integers of any size; storing one that does not fit in an `iN` array raises a
Python error, or, between the signed and the unsigned limit, silently wraps it (grid axis
32768 became -32768, grid size 2**63 became `?`). MLIR instead reports `integer value
too large` at the number; so does everything that reads integers through here.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerType, Signedness, signed_value_range
from xdsl.parser import BaseParser


def integer_range(type: IntegerType) -> tuple[int, int]:
    """`[low, high)` of what custom syntax accepts for `type`: a signless type is read as
    signed, as MLIR reads `intN_t`."""
    if type.signedness.data == Signedness.SIGNLESS:
        return signed_value_range(type.width.data)
    return type.value_range()


def parse_bounded_integer(
    parser: BaseParser, low: int, high: int, *, allow_boolean: bool = True
) -> int:
    start = parser.pos
    value = parser.parse_integer(allow_boolean=allow_boolean)
    if not low <= value < high:
        parser.raise_error("integer value too large", start, parser.pos)
    return value


def parse_signed_integer(parser: BaseParser, bits: int, *, allow_boolean: bool = True) -> int:
    """An integer that fits in a signed `bits`-bit integer."""
    low, high = signed_value_range(bits)
    return parse_bounded_integer(parser, low, high, allow_boolean=allow_boolean)


def parse_signed_integer_list(parser: BaseParser, bits: int) -> list[int]:
    """`[1, 0]` of signed `bits`-bit integers."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parse_signed_integer(parser, bits)
    )


def parse_dim_fields(
    parser: BaseParser, fields: Sequence[str], attribute: str
) -> dict[str, list[int]]:
    """`<a = [0], c = [1, 2]>`: named lists of dims in any order, each at most once and
    any left out (`#stablehlo.dot`, `#chlo.ragged_dot`)."""
    found: dict[str, list[int]] = {}

    def field() -> None:
        key = parser.parse_identifier()
        if key not in fields:
            parser.raise_error(
                f"unknown field '{key}' in {attribute}, expected one of {', '.join(fields)}"
            )
        if key in found:
            parser.raise_error(f"duplicate field '{key}' in {attribute}")
        parser.parse_punctuation("=")
        found[key] = parse_signed_integer_list(parser, 64)

    parser.parse_punctuation("<")
    if parser.parse_optional_punctuation(">") is None:
        parser.parse_comma_separated_list(parser.Delimiter.NONE, field)
        parser.parse_punctuation(">")
    return found


def dim_fields_text(fields: Sequence[tuple[str, Sequence[int]]]) -> str:
    """The inverse of `parse_dim_fields`: the non-empty fields, in the order given."""
    present = [f"{key} = [{', '.join(map(str, dims))}]" for key, dims in fields if dims]
    return f"<{', '.join(present)}>"
