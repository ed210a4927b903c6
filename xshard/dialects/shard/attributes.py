"""The shard dialect's attributes and type: grid axes, index lists, reduction kinds,
`!shard.sharding`."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I16,
    I64,
    ArrayAttr,
    DenseArrayBase,
    i16,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    OpaqueSyntaxAttribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from xshard.dialects.parsing import parse_signed_integer_list
from xshard.sharding.reduction import ReductionKind

GridAxesAttr = DenseArrayBase[I16]
"""A list of grid axes, `[0, 2]` (generic `array<i16: 0, 2>`)."""

IndexListAttr = DenseArrayBase[I64]
"""Static part of a mixed index list; dynamic slots hold `DYNAMIC_INDEX`."""


def grid_axes_attr(axes: Sequence[int]) -> GridAxesAttr:
    return DenseArrayBase.from_list(i16, axes)


def index_list_attr(values: Sequence[int]) -> IndexListAttr:
    return DenseArrayBase.from_list(i64, values)


@functools.lru_cache(maxsize=4096)
def layout_properties(
    split_axes: tuple[tuple[int, ...], ...],
    static_halos: tuple[int, ...],
    static_offsets: tuple[int, ...],
    partial_axes: tuple[int, ...],
    partial_kind: ReductionKind,
) -> tuple[tuple[str, Attribute], ...]:
    """A `shard.sharding`'s properties but its grid: built once per layout (attributes
    are immutable), since propagation writes the same few layouts thousands of times."""
    properties: list[tuple[str, Attribute]] = [
        ("split_axes", GridAxesArrayAttr.from_lists(split_axes)),
        ("static_halo_sizes", index_list_attr(static_halos)),
        ("static_sharded_dims_offsets", index_list_attr(static_offsets)),
    ]
    if partial_axes:
        properties.append(("partial_axes", grid_axes_attr(partial_axes)))
        properties.append(("partial_type", ReductionKindAttr(partial_kind)))
    return tuple(properties)


@irdl_attr_definition
class GridAxesArrayAttr(ParametrizedAttribute, OpaqueSyntaxAttribute):
    """Grid axes per tensor dimension: `[[0], [], [1, 2]]` (`#shard<axisarray[...]>`)."""

    name = "shard.axisarray"

    axes: ArrayAttr[GridAxesAttr]

    @staticmethod
    def from_lists(lists: Sequence[Sequence[int]]) -> GridAxesArrayAttr:
        return GridAxesArrayAttr(ArrayAttr(grid_axes_attr(axes) for axes in lists))

    def as_tuples(self) -> tuple[tuple[int, ...], ...]:
        return tuple(axes.get_values() for axes in self.axes.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def parse_axes() -> GridAxesAttr:
            return grid_axes_attr(parse_signed_integer_list(parser, 16))

        lists = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_axes)
        return (ArrayAttr(lists),)

    def print_parameters(self, printer: Printer) -> None:
        def print_axes(axes: GridAxesAttr) -> None:
            with printer.in_square_brackets():
                printer.print_list(axes.get_values(), printer.print_int)

        with printer.in_square_brackets():
            printer.print_list(self.axes.data, print_axes)


@irdl_attr_definition
class ReductionKindAttr(EnumAttribute[ReductionKind], SpacedOpaqueSyntaxAttribute):
    """How values combine across a device group: `#shard<partial max>`, bare `max` in ops."""

    name = "shard.partial"


@irdl_attr_definition
class ShardingType(ParametrizedAttribute, TypeAttribute):
    """`!shard.sharding`, the value a `shard.sharding` op defines."""

    name = "shard.sharding"
