"""The `shard` dialect: device grids, tensor shardings and collectives.

Every op, attribute and type of MLIR's `shard` dialect as `mlir-opt` 22.1.8 has
it, with the same textual syntax, the same properties (so the generic forms
match) and the same verifier rules and messages. One extension: `shard.sharding`
may carry partial axes (`partial = sum [1]`, upstream's pre-2025 syntax), stored
in two optional properties that are printed only when present, so a module
without partial axes stays readable by `mlir-opt`.

Upstream checks grid symbols in `verifySymbolUses`, after every op's own
verifier; here each op looks its grid up in the nearest symbol table from its
own `verify_`, after the op-local checks, which gives the same message for a
module with one error.

See https://mlir.llvm.org/docs/Dialects/Shard/ and `docs/dialects/shard.md`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I16,
    I64,
    ArrayAttr,
    DenseArrayBase,
    FlatSymbolRefAttr,
    IndexType,
    IndexTypeConstr,
    IntegerAttr,
    MemRefType,
    ShapedType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i16,
    i64,
)
from xdsl.dialects.utils import DimensionList, DynamicIndexList, EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    OpaqueSyntaxAttribute,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    ParsingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.parsing import parse_signed_integer_list
from xshard.sharding.reduction import ReductionKind

################################################################################
# Types and attributes                                                         #
################################################################################

GridAxesAttr = DenseArrayBase[I16]
"""A list of grid axes, `[0, 2]` (generic `array<i16: 0, 2>`)."""

IndexListAttr = DenseArrayBase[I64]
"""Static part of a mixed index list; dynamic slots hold `DYNAMIC_INDEX`."""


def grid_axes_attr(axes: Sequence[int]) -> GridAxesAttr:
    return DenseArrayBase.from_list(i16, axes)


def index_list_attr(values: Sequence[int]) -> IndexListAttr:
    return DenseArrayBase.from_list(i64, values)


@functools.lru_cache(maxsize=4096)
def _layout_properties(
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


################################################################################
# Helpers: grid lookup and shared verifier rules                               #
################################################################################

GridRef = str | StringAttr | SymbolRefAttr


def _grid_symbol(grid: GridRef | GridOp) -> SymbolRefAttr:
    if isinstance(grid, GridOp):
        return SymbolRefAttr(grid.sym_name)
    if isinstance(grid, SymbolRefAttr):
        return grid
    return SymbolRefAttr(grid)


def lookup_grid(op: Operation, name: GridRef) -> GridOp | None:
    """The `shard.grid` called `name` in the symbol table nearest to `op`, if any."""
    symbol = _grid_symbol(name)
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


def _required_grid(op: Operation, grid: SymbolRefAttr) -> GridOp:
    found = lookup_grid(op, grid)
    if found is None:
        raise VerifyException(f'Undefined required grid symbol "{grid.root_reference.data}".')
    return found


def _verify_grid_axes(axes: Sequence[int], grid: GridOp) -> None:
    if len(set(axes)) != len(axes):
        raise VerifyException("Grid axes contains duplicate elements.")
    rank = len(grid.shape.get_values())
    for axis in axes:
        if not 0 <= axis < rank:
            raise VerifyException(
                f"0-based grid axis index {axis} is out of bounds. "
                f'The referenced grid "{grid.sym_name.data}" is of rank {rank}.'
            )


def group_size(axes: Sequence[int], grid_shape: Sequence[int]) -> int:
    """Devices in one group over `axes`; `DYNAMIC_INDEX` when an axis is dynamic."""
    size = 1
    for axis in axes:
        if grid_shape[axis] == DYNAMIC_INDEX:
            return DYNAMIC_INDEX
        size *= grid_shape[axis]
    return size


def _mul(lhs: int, rhs: int) -> int:
    return DYNAMIC_INDEX if DYNAMIC_INDEX in (lhs, rhs) else lhs * rhs


def _div(lhs: int, rhs: int) -> int:
    return DYNAMIC_INDEX if DYNAMIC_INDEX in (lhs, rhs) else lhs // rhs


def _verify_dim(expected: int, got: int, axis: int) -> None:
    if got != DYNAMIC_INDEX and expected != got:
        shown = "dynamic" if expected == DYNAMIC_INDEX else str(expected)
        raise VerifyException(
            f"Dimension size mismatch for result axis {axis}. Expected {shown}, but got {got}."
        )


def _verify_axis_in_rank(what: str, axis: int, rank: int) -> None:
    if not 0 <= axis < rank:
        raise VerifyException(f"{what} axis {axis} is out of bounds [0, {rank}).")


def _verify_gather_shapes(
    operand: ShapedType, result: ShapedType, axis: int, size: int
) -> None:
    _verify_axis_in_rank("Gather", axis, result.get_num_dims())
    in_shape, out_shape = operand.get_shape(), result.get_shape()
    for dim, (in_dim, out_dim) in enumerate(zip(in_shape, out_shape, strict=False)):
        _verify_dim(_mul(size, in_dim) if dim == axis else in_dim, out_dim, dim)


def _verify_scatter_shapes(
    what: str, operand: ShapedType, result: ShapedType, axis: int, size: int
) -> None:
    _verify_axis_in_rank(what, axis, operand.get_num_dims())
    in_shape, out_shape = operand.get_shape(), result.get_shape()
    for dim, (in_dim, out_dim) in enumerate(zip(in_shape, out_shape, strict=False)):
        if dim != axis:
            _verify_dim(in_dim, out_dim, dim)
    in_dim = in_shape[axis]
    if DYNAMIC_INDEX not in (in_dim, size) and in_dim % size:
        raise VerifyException(
            f"Operand dimension size {in_dim} is not divisible by collective device "
            f"group size {size} for tensor axis {axis}."
        )
    _verify_dim(_div(in_dim, size), out_shape[axis], axis)


def _verify_in_group_device(
    name: str, device: Sequence[int], axes: Sequence[int], grid_shape: Sequence[int]
) -> None:
    if len(device) != len(axes):
        raise VerifyException(
            f'In-group device "{name}" has unexpected multi-index size {len(device)}. '
            f"Expected {len(axes)}."
        )
    for i, (coordinate, axis) in enumerate(zip(device, axes, strict=False)):
        size = grid_shape[axis]
        if DYNAMIC_INDEX not in (coordinate, size) and coordinate >= size:
            raise VerifyException(
                f'Out of bounds coordinate {i} for in-group device "{name}". '
                f"Got {coordinate}, but expected value in the range [0, {size - 1}]."
            )


def _verify_mixed(name: str, static: IndexListAttr, dynamic: Sequence[SSAValue]) -> None:
    markers = static.get_values().count(DYNAMIC_INDEX)
    if markers != len(dynamic):
        raise VerifyException(
            f"{name} has {markers} dynamic positions but {len(dynamic)} dynamic values"
        )


def _verify_halo_sizes(halos: Sequence[int], split_dims: Sequence[Sequence[int]]) -> None:
    """A lo/hi pair per split dim, none negative (xshard's rule: mlir-opt 22 takes any)."""
    if halos and len(halos) != 2 * len(split_dims):
        raise VerifyException("halo sizes must be specified for all split axes.")
    if any(h < 0 and h != DYNAMIC_INDEX for h in halos):
        raise VerifyException("halo sizes must be non-negative.")


def split_mixed(values: Sequence[int | SSAValue]) -> tuple[list[int], list[SSAValue]]:
    """`[1, %v, 2]` -> static `[1, DYNAMIC_INDEX, 2]` and dynamic `[%v]`."""
    static = [DYNAMIC_INDEX if isinstance(v, SSAValue) else v for v in values]
    return static, [v for v in values if isinstance(v, SSAValue)]


def join_mixed(static: IndexListAttr, dynamic: Sequence[SSAValue]) -> tuple[int | SSAValue, ...]:
    """The inverse of `split_mixed`."""
    values = iter(dynamic)
    return tuple(next(values) if v == DYNAMIC_INDEX else v for v in static.get_values())


def _verify_ranked(op: Operation, what: str, index: int, value: SSAValue, memref: bool) -> None:
    """MLIR's `AnyNon0RankedTensor` (or memref) constraint, with MLIR's message."""
    kinds = (TensorType, MemRefType) if memref else (TensorType,)
    if isinstance(value.type, kinds) and value.type.get_num_dims() > 0:
        return
    allowed = "non-0-ranked.tensor of any type values"
    if memref:
        allowed = "non-0-ranked.memref of any type values or " + allowed
    raise VerifyException(
        f"'{op.name}' op {what} #{index} must be {allowed}, but got '{value.type}'"
    )


def _same_shape(op: Operation, lhs: ShapedType, rhs: ShapedType, all_of: bool) -> None:
    if lhs.get_shape() != rhs.get_shape():
        raise VerifyException(
            f"'{op.name}' op failed to verify that all of {{input, result}} have same shape"
            if all_of
            else f"'{op.name}' op requires the same shape for all operands and results"
        )


def _same_element_type(op: Operation, lhs: ShapedType, rhs: ShapedType, all_of: bool) -> None:
    if lhs.get_element_type() != rhs.get_element_type():
        raise VerifyException(
            f"'{op.name}' op failed to verify that all of {{input, result}} have same "
            "element type"
            if all_of
            else f"'{op.name}' op requires the same element type for all operands and results"
        )


def _same_rank(op: Operation, lhs: ShapedType, rhs: ShapedType, all_of: bool) -> None:
    if lhs.get_num_dims() != rhs.get_num_dims():
        raise VerifyException(
            f"'{op.name}' op failed to verify that all of {{input, result}} have same rank"
            if all_of
            else f"'{op.name}' op result type has different rank than operands"
        )


@irdl_custom_directive
class OptionalDynamicIndexList(DynamicIndexList):
    """`DynamicIndexList` for an optional property: absent stays absent."""

    dynamic_position: VariadicOperandVariable
    static_position: AttributeVariable

    def set_empty(self, state: ParsingState) -> None:
        self.dynamic_position.set(state, [])

    def is_present(self, op: IRDLOperation) -> bool:
        return self.static_position.get(op) is not None


class _EmptyGridAxesCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from xshard.dialects.shard_canonicalization import RemoveEmptyGridAxesCollective

        return (RemoveEmptyGridAxesCollective(),)


class _ShardingCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from xshard.dialects.shard_canonicalization import NormalizeSharding

        return (NormalizeSharding(),)


class _ShardCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from xshard.dialects.shard_canonicalization import FoldDuplicateShardOp

        return (FoldDuplicateShardOp(),)


################################################################################
# Grid and process-query ops                                                   #
################################################################################


@irdl_op_definition
class GridOp(IRDLOperation):
    """A named grid of devices, `shard.grid @g(shape = 2x?x4)`; `?` is a dynamic axis."""

    name = "shard.grid"

    sym_name = prop_def(SymbolNameConstraint())
    shape = prop_def(IndexListAttr)

    traits = traits_def(SymbolOpInterface(), Pure())

    assembly_format = "$sym_name `(` `shape` `=` custom<DimensionList>($shape) `)` attr-dict"
    custom_directives = (DimensionList,)

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
            properties={"grid": _grid_symbol(grid), "axes": grid_axes_attr(axes)},
            result_types=[[IndexType()] * count],
        )

    def verify_(self) -> None:
        grid = _required_grid(self, self.grid)
        axes = self.axes.get_values()
        _verify_grid_axes(axes, grid)
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
        super().__init__(properties={"grid": _grid_symbol(grid)}, result_types=[IndexType()])

    def verify_(self) -> None:
        _required_grid(self, self.grid)


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
            properties={"grid": _grid_symbol(grid), "split_axes": grid_axes_attr(split_axes)},
            result_types=[IndexType(), IndexType()],
        )

    def verify_(self) -> None:
        _required_grid(self, self.grid)


################################################################################
# Sharding ops                                                                 #
################################################################################


@irdl_op_definition
class ShardingOp(IRDLOperation):
    """How a tensor is laid out on a grid.

    `split_axes[i]` lists the grid axes tensor dim `i` is split over (major to
    minor); `partial = KIND [axes]` (xshard's extension) says each device along
    those axes holds one operand of a KIND-reduction giving the true value;
    `halo_sizes` (a lo/hi pair per split dim) and `sharded_dims_offsets` (shard
    starts plus the end, per split dim) are mutually exclusive.
    """

    name = "shard.sharding"

    grid = prop_def(FlatSymbolRefAttr)
    split_axes = prop_def(GridAxesArrayAttr)
    partial_axes = opt_prop_def(GridAxesAttr)
    partial_type = opt_prop_def(ReductionKindAttr)
    static_sharded_dims_offsets = prop_def(IndexListAttr, default_value=index_list_attr(()))
    dynamic_sharded_dims_offsets = var_operand_def(I64)
    static_halo_sizes = prop_def(IndexListAttr, default_value=index_list_attr(()))
    dynamic_halo_sizes = var_operand_def(I64)
    result = result_def(ShardingType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), _ShardingCanonicalization())

    assembly_format = (
        "$grid `split_axes` `=` $split_axes "
        "(`partial` `=` $partial_type $partial_axes^)? "
        "(`halo_sizes` `=` custom<DynamicIndexList>($dynamic_halo_sizes, $static_halo_sizes)^)? "
        "(`sharded_dims_offsets` `=` custom<DynamicIndexList>("
        "$dynamic_sharded_dims_offsets, $static_sharded_dims_offsets)^)? "
        "attr-dict `:` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        grid: GridRef | GridOp,
        split_axes: Sequence[Sequence[int]],
        partial_axes: Sequence[int] = (),
        partial_kind: ReductionKind = ReductionKind.SUM,
        halo_sizes: Sequence[int | SSAValue] = (),
        sharded_dims_offsets: Sequence[int | SSAValue] = (),
    ):
        static_halos, dynamic_halos = split_mixed(halo_sizes)
        static_offsets, dynamic_offsets = split_mixed(sharded_dims_offsets)
        layout = _layout_properties(
            tuple(map(tuple, split_axes)),
            tuple(static_halos),
            tuple(static_offsets),
            tuple(partial_axes),
            ReductionKind(partial_kind),
        )
        properties: dict[str, Attribute] = {"grid": _grid_symbol(grid), **dict(layout)}
        super().__init__(
            operands=[dynamic_offsets, dynamic_halos],
            properties=properties,
            result_types=[ShardingType()],
        )

    @classmethod
    def from_parts(
        cls,
        grid_name: GridRef,
        split_axes: Sequence[Sequence[int]],
        partial_axes: Sequence[int] = (),
        partial_kind: ReductionKind = ReductionKind.SUM,
        halo_sizes: Sequence[int] = (),
        sharded_dims_offsets: Sequence[int] = (),
    ) -> ShardingOp:
        """A sharding with static halo sizes and offsets."""
        return cls(
            grid_name, split_axes, partial_axes, partial_kind, halo_sizes, sharded_dims_offsets
        )

    def split_axes_lists(self) -> tuple[tuple[int, ...], ...]:
        return self.split_axes.as_tuples()

    def partial_axes_tuple(self) -> tuple[int, ...]:
        return () if self.partial_axes is None else self.partial_axes.get_values()

    def partial_kind(self) -> ReductionKind:
        """The reduction the partial axes stand for (`sum` when there are none)."""
        return ReductionKind.SUM if self.partial_type is None else self.partial_type.data

    def mixed_halo_sizes(self) -> tuple[int | SSAValue, ...]:
        return join_mixed(self.static_halo_sizes, self.dynamic_halo_sizes)

    def mixed_sharded_dims_offsets(self) -> tuple[int | SSAValue, ...]:
        return join_mixed(self.static_sharded_dims_offsets, self.dynamic_sharded_dims_offsets)

    def verify_(self) -> None:
        split_axes = self.split_axes_lists()
        seen: set[int] = set()
        for axis in (*(a for axes in split_axes for a in axes), *self.partial_axes_tuple()):
            if axis < 0:
                raise VerifyException("grid axis is expected to be non-negative")
            if axis in seen:
                raise VerifyException("grid axis duplicated")
            seen.add(axis)
        if (self.partial_axes is None) != (self.partial_type is None):
            raise VerifyException(
                "'shard.sharding' op partial_axes and partial_type must be given together"
            )
        _verify_mixed("halo_sizes", self.static_halo_sizes, self.dynamic_halo_sizes)
        _verify_mixed(
            "sharded_dims_offsets",
            self.static_sharded_dims_offsets,
            self.dynamic_sharded_dims_offsets,
        )
        halos = self.static_halo_sizes.get_values()
        offsets = self.static_sharded_dims_offsets.get_values()
        if halos and offsets:
            raise VerifyException(
                "'shard.sharding' op halo sizes and shard offsets are mutually exclusive"
            )
        split_dims = [axes for axes in split_axes if axes]
        _verify_halo_sizes(halos, split_dims)
        grid = _required_grid(self, self.grid)
        _verify_grid_axes(sorted(seen), grid)
        shape = grid.shape.get_values()
        if offsets and DYNAMIC_INDEX in shape:
            raise VerifyException(
                "sharded dims offsets are not allowed for device grids with dynamic shape."
            )
        self._verify_offsets(offsets, split_dims, shape)

    @staticmethod
    def _verify_offsets(
        offsets: Sequence[int], split_dims: Sequence[Sequence[int]], shape: Sequence[int]
    ) -> None:
        if not offsets:
            return
        position = 0
        for axes in split_dims:
            # Upstream counts the shards of a dim as the *sum* of its axes' sizes.
            shards = sum(shape[a] for a in axes)
            previous = 0
            for i in range(shards + 1):
                if position + i >= len(offsets):
                    raise VerifyException("sharded dims offsets has wrong size.")
                offset = offsets[position + i]
                if offset != DYNAMIC_INDEX:
                    if offset < previous:
                        raise VerifyException("sharded dims offsets must be non-decreasing.")
                    previous = offset
            position += shards + 1


@irdl_op_definition
class GetShardingOp(IRDLOperation):
    """The sharding of a tensor, as a `!shard.sharding` value."""

    name = "shard.get_sharding"

    source = operand_def(TensorType)
    result = result_def(ShardingType)

    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue):
        super().__init__(operands=[source], result_types=[ShardingType()])


@irdl_op_definition
class ShardShapeOp(IRDLOperation):
    """The local shard shape of a tensor of shape `dims` on one device."""

    name = "shard.shard_shape"

    dims = prop_def(IndexListAttr)
    dims_dynamic = var_operand_def(IndexType)
    sharding = operand_def(ShardingType)
    device = prop_def(IndexListAttr)
    device_dynamic = var_operand_def(IndexType)
    result = var_result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        "`dims` `=` custom<DynamicIndexList>($dims_dynamic, $dims) "
        "`sharding` `=` $sharding "
        "`device` `=` custom<DynamicIndexList>($device_dynamic, $device) "
        "attr-dict `:` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        dims: Sequence[int | SSAValue],
        sharding: SSAValue,
        device: Sequence[int | SSAValue],
    ):
        static_dims, dynamic_dims = split_mixed(dims)
        static_device, dynamic_device = split_mixed(device)
        super().__init__(
            operands=[dynamic_dims, sharding, dynamic_device],
            properties={
                "dims": index_list_attr(static_dims),
                "device": index_list_attr(static_device),
            },
            result_types=[[IndexType()] * len(dims)],
        )

    def verify_(self) -> None:
        _verify_mixed("dims", self.dims, self.dims_dynamic)
        _verify_mixed("device", self.device, self.device_dynamic)


@irdl_op_definition
class ShardOp(IRDLOperation):
    """Annotates `src` with a sharding: of its producer, or with `annotate_for_users`
    of how its users see it. A chain of the two on one value is a reshard."""

    name = "shard.shard"

    T: ClassVar = VarConstraint("T", base(TensorType))
    src = operand_def(T)
    sharding = operand_def(ShardingType)
    annotate_for_users = opt_prop_def(UnitAttr)
    result = result_def(T)

    traits = traits_def(Pure(), _ShardCanonicalization())

    assembly_format = (
        "$src `to` $sharding (`annotate_for_users` $annotate_for_users^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(self, src: SSAValue, sharding: SSAValue, annotate_for_users: bool = False):
        super().__init__(
            operands=[src, sharding],
            result_types=[src.type],
            properties={"annotate_for_users": UnitAttr()} if annotate_for_users else {},
        )


################################################################################
# Collective communication ops                                                 #
################################################################################


class _CollectiveOp(IRDLOperation):
    """A collective over the device groups that `grid_axes` cut the grid into.

    Subclasses check their types in `_verify_types` and their grid-dependent
    rules in `_verify_on_grid`, after the common grid and axes checks.
    """

    grid = prop_def(FlatSymbolRefAttr)
    grid_axes = prop_def(GridAxesAttr, default_value=grid_axes_attr(()))

    def _collective_properties(
        self, grid: GridRef | GridOp, grid_axes: Sequence[int]
    ) -> dict[str, Attribute]:
        return {"grid": _grid_symbol(grid), "grid_axes": grid_axes_attr(grid_axes)}

    def grid_axes_tuple(self) -> tuple[int, ...]:
        return self.grid_axes.get_values()

    def _verify_types(self) -> None: ...

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None: ...

    def verify_(self) -> None:
        self._verify_types()
        grid = _required_grid(self, self.grid)
        _verify_grid_axes(self.grid_axes_tuple(), grid)
        self._verify_on_grid(grid.shape.get_values())

    def _group_size(self, grid_shape: tuple[int, ...]) -> int:
        return group_size(self.grid_axes_tuple(), grid_shape)


def _axis_attr(value: int) -> IntegerAttr[IndexType]:
    return IntegerAttr(value, IndexType())


@irdl_op_definition
class AllGatherOp(_CollectiveOp):
    """Concatenates the group's tensors along `gather_axis`; every device gets the result."""

    name = "shard.all_gather"

    input = operand_def(TensorType)
    gather_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? `gather_axis` `=` $gather_axis "
        "attr-dict `:` type($input) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        gather_axis: int,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[input],
            properties={
                **self._collective_properties(grid, grid_axes),
                "gather_axis": _axis_attr(gather_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _verify_ranked(self, "result", 0, self.result, memref=False)
        _same_element_type(self, self.input.type, self.result.type, all_of=False)
        _same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        _verify_gather_shapes(
            self.input.type,
            self.result.type,
            self.gather_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class AllReduceOp(_CollectiveOp):
    """Reduces the group's tensors elementwise; every device gets the result, whose
    element type is the accumulation type."""

    name = "shard.all_reduce"

    input = operand_def(TensorType.constr() | MemRefType.constr())
    reduction = prop_def(ReductionKindAttr, default_value=ReductionKindAttr(ReductionKind.SUM))
    result = result_def(TensorType.constr() | MemRefType.constr())

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? (`reduction` `=` $reduction^)? "
        "attr-dict `:` type($input) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        reduction: ReductionKind = ReductionKind.SUM,
        result_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[input],
            properties={
                **self._collective_properties(grid, grid_axes),
                "reduction": ReductionKindAttr(reduction),
            },
            result_types=[result_type or input.type],
        )

    def _verify_types(self) -> None:
        _same_shape(self, self.input.type, self.result.type, all_of=False)


@irdl_op_definition
class AllSliceOp(_CollectiveOp):
    """Each device keeps its own slice along `slice_axis`; no communication."""

    name = "shard.all_slice"

    input = operand_def(TensorType)
    slice_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? `slice_axis` `=` $slice_axis "
        "attr-dict `:` type($input) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        slice_axis: int,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[input],
            properties={
                **self._collective_properties(grid, grid_axes),
                "slice_axis": _axis_attr(slice_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _verify_ranked(self, "result", 0, self.result, memref=False)
        _same_element_type(self, self.input.type, self.result.type, all_of=False)
        _same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        _verify_scatter_shapes(
            "Slice",
            self.input.type,
            self.result.type,
            self.slice_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class AllToAllOp(_CollectiveOp):
    """Splits along `split_axis`, exchanges the pieces in the group, concatenates
    the received pieces along `concat_axis`."""

    name = "shard.all_to_all"

    input = operand_def(TensorType)
    split_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    concat_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? `split_axis` `=` $split_axis "
        "`concat_axis` `=` $concat_axis attr-dict `:` type($input) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        split_axis: int,
        concat_axis: int,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[input],
            properties={
                **self._collective_properties(grid, grid_axes),
                "split_axis": _axis_attr(split_axis),
                "concat_axis": _axis_attr(concat_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _verify_ranked(self, "result", 0, self.result, memref=False)
        _same_element_type(self, self.input.type, self.result.type, all_of=False)
        _same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        in_shape, out_shape = self.input.type.get_shape(), self.result.type.get_shape()
        split, concat = self.split_axis.value.data, self.concat_axis.value.data
        _verify_axis_in_rank("Split", split, len(in_shape))
        _verify_axis_in_rank("Concat", concat, len(in_shape))
        for dim, (in_dim, out_dim) in enumerate(zip(in_shape, out_shape, strict=False)):
            if dim not in (split, concat) or split == concat:
                _verify_dim(in_dim, out_dim, dim)
        if split == concat:
            return
        size = self._group_size(grid_shape)
        split_size = _div(in_shape[split], size)
        if split_size != DYNAMIC_INDEX and in_shape[split] % size:
            split_size = DYNAMIC_INDEX
        _verify_dim(_mul(in_shape[concat], size), out_shape[concat], concat)
        _verify_dim(split_size, out_shape[split], split)


class _RootedCollectiveOp(_CollectiveOp):
    """A collective with one in-group device (`root`) given as a mixed index list."""

    root = prop_def(IndexListAttr)
    root_dynamic = var_operand_def(IndexType)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        _verify_mixed("root", self.root, self.root_dynamic)
        _verify_in_group_device(
            "root", self.root.get_values(), self.grid_axes_tuple(), grid_shape
        )


@irdl_op_definition
class BroadcastOp(_RootedCollectiveOp):
    """Copies the tensor of the `root` device to every device of its group."""

    name = "shard.broadcast"

    input = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? "
        "`root` `=` custom<DynamicIndexList>($root_dynamic, $root) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        root: Sequence[int | SSAValue],
        result_type: Attribute | None = None,
    ):
        static_root, dynamic_root = split_mixed(root)
        super().__init__(
            operands=[input, dynamic_root],
            properties={
                **self._collective_properties(grid, grid_axes),
                "root": index_list_attr(static_root),
            },
            result_types=[result_type or input.type],
        )

    def _verify_types(self) -> None:
        _same_shape(self, self.input.type, self.result.type, all_of=True)
        _same_element_type(self, self.input.type, self.result.type, all_of=True)


@irdl_op_definition
class GatherOp(_RootedCollectiveOp):
    """Concatenates the group's tensors along `gather_axis` on the `root` device;
    the result elsewhere is undefined."""

    name = "shard.gather"

    input = operand_def(TensorType)
    gather_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? `gather_axis` `=` $gather_axis "
        "`root` `=` custom<DynamicIndexList>($root_dynamic, $root) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        gather_axis: int,
        root: Sequence[int | SSAValue],
        result_type: Attribute,
    ):
        static_root, dynamic_root = split_mixed(root)
        super().__init__(
            operands=[input, dynamic_root],
            properties={
                **self._collective_properties(grid, grid_axes),
                "gather_axis": _axis_attr(gather_axis),
                "root": index_list_attr(static_root),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _verify_ranked(self, "result", 0, self.result, memref=False)
        _same_rank(self, self.input.type, self.result.type, all_of=True)
        _same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        super()._verify_on_grid(grid_shape)
        _verify_gather_shapes(
            self.input.type,
            self.result.type,
            self.gather_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class RecvOp(_CollectiveOp):
    """Receives a tensor from the in-group device `source`; the input is ignored."""

    name = "shard.recv"

    input = operand_def(TensorType)
    source = opt_prop_def(IndexListAttr)
    source_dynamic = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(_EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? "
        "(`source` `=` custom<OptionalDynamicIndexList>($source_dynamic, $source)^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (OptionalDynamicIndexList,)

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        source: Sequence[int | SSAValue] | None = None,
        result_type: Attribute | None = None,
    ):
        properties = self._collective_properties(grid, grid_axes)
        static_source, dynamic_source = split_mixed(source or ())
        if source is not None:
            properties["source"] = index_list_attr(static_source)
        super().__init__(
            operands=[input, dynamic_source],
            properties=properties,
            result_types=[result_type or input.type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _same_shape(self, self.input.type, self.result.type, all_of=True)
        _same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        _verify_mixed("source", self.source or index_list_attr(()), self.source_dynamic)
        if self.source is None:
            return
        _verify_in_group_device(
            "source", self.source.get_values(), self.grid_axes_tuple(), grid_shape
        )


@irdl_op_definition
class ReduceOp(_RootedCollectiveOp):
    """Reduces the group's tensors elementwise onto the `root` device."""

    name = "shard.reduce"

    input = operand_def(TensorType)
    reduction = prop_def(ReductionKindAttr, default_value=ReductionKindAttr(ReductionKind.SUM))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? (`reduction` `=` $reduction^)? "
        "`root` `=` custom<DynamicIndexList>($root_dynamic, $root) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        root: Sequence[int | SSAValue],
        reduction: ReductionKind = ReductionKind.SUM,
        result_type: Attribute | None = None,
    ):
        static_root, dynamic_root = split_mixed(root)
        super().__init__(
            operands=[input, dynamic_root],
            properties={
                **self._collective_properties(grid, grid_axes),
                "reduction": ReductionKindAttr(reduction),
                "root": index_list_attr(static_root),
            },
            result_types=[result_type or input.type],
        )

    def _verify_types(self) -> None:
        _same_shape(self, self.input.type, self.result.type, all_of=True)


@irdl_op_definition
class ReduceScatterOp(_CollectiveOp):
    """Reduces the group's tensors elementwise, then each device keeps its slice
    along `scatter_axis`."""

    name = "shard.reduce_scatter"

    input = operand_def(TensorType)
    reduction = prop_def(ReductionKindAttr, default_value=ReductionKindAttr(ReductionKind.SUM))
    scatter_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? (`reduction` `=` $reduction^)? "
        "`scatter_axis` `=` $scatter_axis attr-dict `:` type($input) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        scatter_axis: int,
        result_type: Attribute,
        reduction: ReductionKind = ReductionKind.SUM,
    ):
        super().__init__(
            operands=[input],
            properties={
                **self._collective_properties(grid, grid_axes),
                "reduction": ReductionKindAttr(reduction),
                "scatter_axis": _axis_attr(scatter_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        _verify_scatter_shapes(
            "Scatter",
            self.input.type,
            self.result.type,
            self.scatter_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class ScatterOp(_RootedCollectiveOp):
    """Splits the `root` device's tensor along `scatter_axis` over its group."""

    name = "shard.scatter"

    input = operand_def(TensorType)
    scatter_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), _EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? `scatter_axis` `=` $scatter_axis "
        "`root` `=` custom<DynamicIndexList>($root_dynamic, $root) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        scatter_axis: int,
        root: Sequence[int | SSAValue],
        result_type: Attribute,
    ):
        static_root, dynamic_root = split_mixed(root)
        super().__init__(
            operands=[input, dynamic_root],
            properties={
                **self._collective_properties(grid, grid_axes),
                "scatter_axis": _axis_attr(scatter_axis),
                "root": index_list_attr(static_root),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _same_rank(self, self.input.type, self.result.type, all_of=True)
        _same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        super()._verify_on_grid(grid_shape)
        _verify_scatter_shapes(
            "Scatter",
            self.input.type,
            self.result.type,
            self.scatter_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class SendOp(_CollectiveOp):
    """Sends the tensor to the in-group device `destination`."""

    name = "shard.send"

    input = operand_def(TensorType)
    destination = prop_def(IndexListAttr)
    destination_dynamic = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(_EmptyGridAxesCanonicalization())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? "
        "`destination` `=` custom<DynamicIndexList>($destination_dynamic, $destination) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        destination: Sequence[int | SSAValue],
        result_type: Attribute | None = None,
    ):
        static_destination, dynamic_destination = split_mixed(destination)
        super().__init__(
            operands=[input, dynamic_destination],
            properties={
                **self._collective_properties(grid, grid_axes),
                "destination": index_list_attr(static_destination),
            },
            result_types=[result_type or input.type],
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _same_shape(self, self.input.type, self.result.type, all_of=True)
        _same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        _verify_mixed("destination", self.destination, self.destination_dynamic)
        _verify_in_group_device(
            "destination", self.destination.get_values(), self.grid_axes_tuple(), grid_shape
        )


@irdl_op_definition
class ShiftOp(_CollectiveOp):
    """Shifts tensors along grid axis `shift_axis` by `offset` devices (circularly
    with `rotate`; otherwise devices without a source get undefined values)."""

    name = "shard.shift"

    input = operand_def(TensorType)
    shift_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    offset = prop_def(IntegerAttr[I64])
    rotate = opt_prop_def(UnitAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = (
        "$input `on` $grid (`grid_axes` `=` $grid_axes^)? `shift_axis` `=` $shift_axis "
        "`offset` `=` $offset (`rotate` $rotate^)? attr-dict `:` type($input) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue,
        grid: GridRef | GridOp,
        grid_axes: Sequence[int],
        shift_axis: int,
        offset: int,
        rotate: bool = False,
        result_type: Attribute | None = None,
    ):
        properties = {
            **self._collective_properties(grid, grid_axes),
            "shift_axis": _axis_attr(shift_axis),
            "offset": IntegerAttr(offset, i64),
        }
        if rotate:
            properties["rotate"] = UnitAttr()
        super().__init__(
            operands=[input], properties=properties, result_types=[result_type or input.type]
        )

    def _verify_types(self) -> None:
        _verify_ranked(self, "operand", 0, self.input, memref=False)
        _same_element_type(self, self.input.type, self.result.type, all_of=False)
        _same_shape(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        axis = self.shift_axis.value.data
        if axis not in self.grid_axes_tuple():
            raise VerifyException(
                f"Invalid shift axis {axis}. It must be one of the grouping grid axes."
            )


################################################################################
# Halo update                                                                  #
################################################################################


@irdl_op_definition
class UpdateHaloOp(IRDLOperation):
    """Refreshes the halo regions of `destination` (holding the local core data)
    from the neighbouring devices along `split_axes`."""

    name = "shard.update_halo"

    T: ClassVar = VarConstraint("T", base(TensorType) | base(MemRefType))
    destination = operand_def(T)
    grid = prop_def(FlatSymbolRefAttr)
    split_axes = prop_def(GridAxesArrayAttr)
    halo_sizes = var_operand_def(I64)
    static_halo_sizes = prop_def(IndexListAttr, default_value=index_list_attr(()))
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = (
        "$destination `on` $grid `split_axes` `=` $split_axes "
        "(`halo_sizes` `=` custom<DynamicIndexList>($halo_sizes, $static_halo_sizes)^)? "
        "attr-dict `:` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        destination: SSAValue,
        grid: GridRef | GridOp,
        split_axes: Sequence[Sequence[int]],
        halo_sizes: Sequence[int | SSAValue] = (),
    ):
        static_halos, dynamic_halos = split_mixed(halo_sizes)
        super().__init__(
            operands=[destination, dynamic_halos],
            properties={
                "grid": _grid_symbol(grid),
                "split_axes": GridAxesArrayAttr.from_lists(split_axes),
                "static_halo_sizes": index_list_attr(static_halos),
            },
            result_types=[destination.type],
        )

    def verify_(self) -> None:
        _verify_ranked(self, "operand", 0, self.destination, memref=True)
        _verify_mixed("halo_sizes", self.static_halo_sizes, self.halo_sizes)
        split_dims = [axes for axes in self.split_axes.as_tuples() if axes]
        _verify_halo_sizes(self.static_halo_sizes.get_values(), split_dims)
        _required_grid(self, self.grid)


Shard = Dialect(
    "shard",
    [
        GridOp,
        GridShapeOp,
        ProcessMultiIndexOp,
        ProcessLinearIndexOp,
        NeighborsLinearIndicesOp,
        ShardingOp,
        GetShardingOp,
        ShardShapeOp,
        ShardOp,
        AllGatherOp,
        AllReduceOp,
        AllSliceOp,
        AllToAllOp,
        BroadcastOp,
        GatherOp,
        RecvOp,
        ReduceOp,
        ReduceScatterOp,
        ScatterOp,
        SendOp,
        ShiftOp,
        UpdateHaloOp,
    ],
    [GridAxesArrayAttr, ReductionKindAttr, ShardingType],
)
