"""`shard.grid` and the process queries on it: grid_shape, process_multi_index,
process_linear_index, neighbors_linear_indices; and how an op finds its grid."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    FlatSymbolRefAttr,
    IndexType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.dialects.utils import DimensionList, parse_empty_dimension_list_directive
from xdsl.ir import (
    Operation,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    ParsingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.traits import Pure, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.shard.attributes import (
    GridAxesAttr,
    IndexListAttr,
    grid_axes_attr,
    index_list_attr,
)


@irdl_custom_directive
class GridShape(DimensionList):
    """A grid's shape, `2x?x4` or `[]`; one that is neither gets MLIR's message."""

    dimensions: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        dims: list[int] = []
        if not parse_empty_dimension_list_directive(parser):
            dims = parser.parse_dimension_list()
            if not dims:
                parser.raise_error(
                    "custom op 'shard.grid' Failed parsing dimension list. Did you mean an "
                    'empty list? It must be denoted by "[]".'
                )
        self.dimensions.set(state, index_list_attr(dims))


@irdl_op_definition
class GridOp(IRDLOperation):
    """A named grid of devices, `shard.grid @g(shape = 2x?x4)`; `?` is a dynamic axis."""

    name = "shard.grid"

    sym_name = prop_def(SymbolNameConstraint())
    shape = prop_def(IndexListAttr)

    traits = traits_def(SymbolOpInterface(), Pure())

    assembly_format = "$sym_name `(` `shape` `=` custom<GridShape>($shape) `)` attr-dict"
    custom_directives = (GridShape,)

    def __init__(self, name: str | StringAttr, shape: Sequence[int | None]):
        super().__init__(
            properties={
                "sym_name": StringAttr(name) if isinstance(name, str) else name,
                "shape": index_list_attr([DYNAMIC_INDEX if d is None else d for d in shape]),
            }
        )

    @property
    def rank(self) -> int:
        return len(self.shape.get_values())

    def shape_tuple(self) -> tuple[int | None, ...]:
        """Axis sizes, `None` for a dynamic axis."""
        return tuple(None if d == DYNAMIC_INDEX else d for d in self.shape.get_values())

    AXIS_NAMES: ClassVar[str] = "xshard.axis_names"
    """Discardable attribute of a grid made from a named mesh (`import-sdy`): the mesh's
    axis names in order, for the ops that still name axes (a manual computation's
    shardings): `shard.grid @mesh(shape = 2x4) {xshard.axis_names = ["data", "model"]}`."""

    def axis_names(self) -> list[str] | None:
        attr = self.attributes.get(self.AXIS_NAMES)
        if not isinstance(attr, ArrayAttr):
            return None
        return [a.data for a in attr if isinstance(a, StringAttr)]

    def set_axis_names(self, names: Sequence[str]) -> None:
        self.attributes[self.AXIS_NAMES] = ArrayAttr(StringAttr(n) for n in names)

    def verify_(self) -> None:
        if not self.shape.get_values():
            raise VerifyException(
                "'shard.grid' op rank of grid is expected to be a positive integer"
            )
        if any(d < 0 and d != DYNAMIC_INDEX for d in self.shape.get_values()):
            raise VerifyException(
                "'shard.grid' op dimension size of a grid is expected to be "
                "non-negative or dynamic"
            )
        if 0 in self.shape.get_values():  # xshard's rule: mlir-opt 22 divides by it
            raise VerifyException(
                "'shard.grid' op dimension size of a grid is expected to be non-zero: "
                "a grid axis of size 0 holds no devices"
            )


class _GridAxesQueryOp(IRDLOperation):
    """A query over some axes of a grid (all axes when `axes` is empty), one index each."""

    grid = prop_def(FlatSymbolRefAttr)
    axes = prop_def(GridAxesAttr, default_value=grid_axes_attr(()))
    result = var_result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, grid: GridRef | GridOp, axes: Sequence[int] = ()):
        if not axes and not isinstance(grid, GridOp):
            raise ValueError("the grid op is needed to count the results of an all-axes query")
        count = len(axes) if axes else grid.rank  # type: ignore[union-attr]
        super().__init__(
            properties={"grid": grid_symbol(grid), "axes": grid_axes_attr(axes)},
            result_types=[[IndexType()] * count],
        )

    def verify_(self) -> None:
        grid = required_grid(self, self.grid)
        axes = self.axes.get_values()
        verify_grid_axes(axes, grid)
        expected = len(axes) if axes else grid.rank
        if len(self.result) != expected:
            raise VerifyException(
                f"Unexpected number of results {len(self.result)}. Expected {expected}."
            )


@irdl_op_definition
class GridShapeOp(_GridAxesQueryOp):
    """The sizes of grid axes: `%s:2 = shard.grid_shape @g axes = [0, 1] : index, index`."""

    name = "shard.grid_shape"

    assembly_format = "$grid (`axes` `=` $axes^)? attr-dict `:` type($result)"


@irdl_op_definition
class ProcessMultiIndexOp(_GridAxesQueryOp):
    """This device's coordinates along grid axes."""

    name = "shard.process_multi_index"

    assembly_format = "`on` $grid (`axes` `=` $axes^)? attr-dict `:` type($result)"


@irdl_op_definition
class ProcessLinearIndexOp(IRDLOperation):
    """This device's row-major linear index in the grid."""

    name = "shard.process_linear_index"

    grid = prop_def(FlatSymbolRefAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "`on` $grid attr-dict `:` type($result)"

    def __init__(self, grid: GridRef | GridOp):
        super().__init__(properties={"grid": grid_symbol(grid)}, result_types=[IndexType()])

    def verify_(self) -> None:
        required_grid(self, self.grid)


@irdl_op_definition
class NeighborsLinearIndicesOp(IRDLOperation):
    """Linear indices of the previous and next device along `split_axes` (-1 if none)."""

    name = "shard.neighbors_linear_indices"

    grid = prop_def(FlatSymbolRefAttr)
    device = var_operand_def(IndexType)
    split_axes = prop_def(GridAxesAttr)
    neighbor_down = result_def(IndexType)
    neighbor_up = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = (
        "`on` $grid `[` $device `]` `split_axes` `=` $split_axes attr-dict `:` "
        "type($neighbor_down) `,` type($neighbor_up)"
    )

    def __init__(
        self, grid: GridRef | GridOp, device: Sequence[SSAValue], split_axes: Sequence[int]
    ):
        super().__init__(
            operands=[device],
            properties={"grid": grid_symbol(grid), "split_axes": grid_axes_attr(split_axes)},
            result_types=[IndexType(), IndexType()],
        )

    def verify_(self) -> None:
        required_grid(self, self.grid)

GridRef = str | StringAttr | SymbolRefAttr


def grid_symbol(grid: GridRef | GridOp) -> SymbolRefAttr:
    if isinstance(grid, GridOp):
        return SymbolRefAttr(grid.sym_name)
    if isinstance(grid, SymbolRefAttr):
        return grid
    return SymbolRefAttr(grid)


def lookup_grid(op: Operation, name: GridRef) -> GridOp | None:
    """The `shard.grid` called `name` in the symbol table nearest to `op`, if any."""
    symbol = grid_symbol(name)
    if symbol.nested_references.data:
        return None
    table = op
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op()
    if table is None:
        return None
    for region in table.regions:
        for block in region.blocks:
            for candidate in block.ops:
                if (
                    isinstance(candidate, GridOp)
                    and candidate.sym_name.data == symbol.root_reference.data
                ):
                    return candidate
    return None


def required_grid(op: Operation, grid: SymbolRefAttr) -> GridOp:
    found = lookup_grid(op, grid)
    if found is None:
        raise VerifyException(f'Undefined required grid symbol "{grid.root_reference.data}".')
    return found


def verify_grid_axes(axes: Sequence[int], grid: GridOp) -> None:
    if len(set(axes)) != len(axes):
        raise VerifyException("Grid axes contains duplicate elements.")
    rank = len(grid.shape.get_values())
    for axis in axes:
        if not 0 <= axis < rank:
            raise VerifyException(
                f"0-based grid axis index {axis} is out of bounds. "
                f'The referenced grid "{grid.sym_name.data}" is of rank {rank}.'
            )
