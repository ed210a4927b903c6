"""`shard.sharding`, `shard.shard`, `shard.get_sharding` and `shard.shard_shape`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    FlatSymbolRefAttr,
    IndexType,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.utils import DynamicIndexList
from xdsl.ir import (
    Attribute,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
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
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.shard.attributes import (
    GridAxesArrayAttr,
    GridAxesAttr,
    IndexListAttr,
    ReductionKindAttr,
    ShardingType,
    index_list_attr,
    layout_properties,
)
from xshard.dialects.shard.checks import join_mixed, split_mixed, verify_halo_sizes, verify_mixed
from xshard.dialects.shard.grid_ops import (
    GridOp,
    GridRef,
    grid_symbol,
    required_grid,
    verify_grid_axes,
)
from xshard.dialects.shard.traits import ShardCanonicalization, ShardingCanonicalization
from xshard.sharding.reduction import ReductionKind


@irdl_custom_directive
class GridSymbol(CustomDirective):
    """The grid a sharding names, `@grid`; a nested symbol gets MLIR's message."""

    grid: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        at = parser.pos
        symbol = parser.parse_attribute()
        if not isinstance(symbol, SymbolRefAttr) or symbol.nested_references.data:
            parser.raise_error(
                "custom op 'shard.sharding' invalid kind of attribute specified", at, parser.pos
            )
        self.grid.set(state, FlatSymbolRefAttr(symbol.root_reference))
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        self.grid.print(printer, state, op)


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
    traits = traits_def(Pure(), ShardingCanonicalization())

    assembly_format = (
        "custom<GridSymbol>($grid) `split_axes` `=` $split_axes "
        "(`partial` `=` $partial_type $partial_axes^)? "
        "(`halo_sizes` `=` custom<DynamicIndexList>($dynamic_halo_sizes, $static_halo_sizes)^)? "
        "(`sharded_dims_offsets` `=` custom<DynamicIndexList>("
        "$dynamic_sharded_dims_offsets, $static_sharded_dims_offsets)^)? "
        "attr-dict `:` type($result)"
    )
    custom_directives = (GridSymbol, DynamicIndexList)

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
        layout = layout_properties(
            tuple(map(tuple, split_axes)),
            tuple(static_halos),
            tuple(static_offsets),
            tuple(partial_axes),
            ReductionKind(partial_kind),
        )
        properties: dict[str, Attribute] = {"grid": grid_symbol(grid), **dict(layout)}
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
        verify_mixed("halo_sizes", self.static_halo_sizes, self.dynamic_halo_sizes)
        verify_mixed(
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
        verify_halo_sizes(halos, split_dims)
        grid = required_grid(self, self.grid)
        verify_grid_axes(sorted(seen), grid)
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
        verify_mixed("dims", self.dims, self.dims_dynamic)
        verify_mixed("device", self.device, self.device_dynamic)


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

    traits = traits_def(Pure(), ShardCanonicalization())

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
