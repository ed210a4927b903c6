"""The collectives every device of a group joins as a peer: all_gather, all_reduce,
all_slice, all_to_all, reduce_scatter, shift; and update_halo."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    FlatSymbolRefAttr,
    IndexType,
    IndexTypeConstr,
    IntegerAttr,
    MemRefType,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils import DynamicIndexList
from xdsl.ir import (
    Attribute,
    SSAValue,
)
from xdsl.irdl import (
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
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.shard.attributes import (
    GridAxesArrayAttr,
    GridAxesAttr,
    IndexListAttr,
    ReductionKindAttr,
    grid_axes_attr,
    index_list_attr,
)
from xshard.dialects.shard.checks import (
    dim_div,
    dim_mul,
    group_size,
    same_element_type,
    same_rank,
    same_shape,
    split_mixed,
    verify_axis_in_rank,
    verify_dim,
    verify_gather_shapes,
    verify_halo_sizes,
    verify_mixed,
    verify_ranked,
    verify_scatter_shapes,
)
from xshard.dialects.shard.grid_ops import (
    GridOp,
    GridRef,
    grid_symbol,
    required_grid,
    verify_grid_axes,
)
from xshard.dialects.shard.traits import EmptyGridAxesCanonicalization
from xshard.sharding.reduction import ReductionKind


class CollectiveOp(IRDLOperation):
    """A collective over the device groups that `grid_axes` cut the grid into.

    Subclasses check their types in `_verify_types` and their grid-dependent
    rules in `_verify_on_grid`, after the common grid and axes checks.
    """

    grid = prop_def(FlatSymbolRefAttr)
    grid_axes = prop_def(GridAxesAttr, default_value=grid_axes_attr(()))

    def _collective_properties(
        self, grid: GridRef | GridOp, grid_axes: Sequence[int]
    ) -> dict[str, Attribute]:
        return {"grid": grid_symbol(grid), "grid_axes": grid_axes_attr(grid_axes)}

    def grid_axes_tuple(self) -> tuple[int, ...]:
        return self.grid_axes.get_values()

    def _verify_types(self) -> None: ...

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None: ...

    def verify_(self) -> None:
        self._verify_types()
        grid = required_grid(self, self.grid)
        verify_grid_axes(self.grid_axes_tuple(), grid)
        self._verify_on_grid(grid.shape.get_values())

    def _group_size(self, grid_shape: tuple[int, ...]) -> int:
        return group_size(self.grid_axes_tuple(), grid_shape)


def axis_attr(value: int) -> IntegerAttr[IndexType]:
    return IntegerAttr(value, IndexType())


@irdl_op_definition
class AllGatherOp(CollectiveOp):
    """Concatenates the group's tensors along `gather_axis`; every device gets the result."""

    name = "shard.all_gather"

    input = operand_def(TensorType)
    gather_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
                "gather_axis": axis_attr(gather_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        verify_ranked(self, "result", 0, self.result, memref=False)
        same_element_type(self, self.input.type, self.result.type, all_of=False)
        same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        verify_gather_shapes(
            self.input.type,
            self.result.type,
            self.gather_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class AllReduceOp(CollectiveOp):
    """Reduces the group's tensors elementwise; every device gets the result, whose
    element type is the accumulation type."""

    name = "shard.all_reduce"

    input = operand_def(TensorType.constr() | MemRefType.constr())
    reduction = prop_def(ReductionKindAttr, default_value=ReductionKindAttr(ReductionKind.SUM))
    result = result_def(TensorType.constr() | MemRefType.constr())

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
        same_shape(self, self.input.type, self.result.type, all_of=False)


@irdl_op_definition
class AllSliceOp(CollectiveOp):
    """Each device keeps its own slice along `slice_axis`; no communication."""

    name = "shard.all_slice"

    input = operand_def(TensorType)
    slice_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
                "slice_axis": axis_attr(slice_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        verify_ranked(self, "result", 0, self.result, memref=False)
        same_element_type(self, self.input.type, self.result.type, all_of=False)
        same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        verify_scatter_shapes(
            "Slice",
            self.input.type,
            self.result.type,
            self.slice_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class AllToAllOp(CollectiveOp):
    """Splits along `split_axis`, exchanges the pieces in the group, concatenates
    the received pieces along `concat_axis`."""

    name = "shard.all_to_all"

    input = operand_def(TensorType)
    split_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    concat_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
                "split_axis": axis_attr(split_axis),
                "concat_axis": axis_attr(concat_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        verify_ranked(self, "result", 0, self.result, memref=False)
        same_element_type(self, self.input.type, self.result.type, all_of=False)
        same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        in_shape, out_shape = self.input.type.get_shape(), self.result.type.get_shape()
        split, concat = self.split_axis.value.data, self.concat_axis.value.data
        verify_axis_in_rank("Split", split, len(in_shape))
        verify_axis_in_rank("Concat", concat, len(in_shape))
        for dim, (in_dim, out_dim) in enumerate(zip(in_shape, out_shape, strict=False)):
            if dim not in (split, concat) or split == concat:
                verify_dim(in_dim, out_dim, dim)
        if split == concat:
            return
        size = self._group_size(grid_shape)
        split_size = dim_div(in_shape[split], size)
        if split_size != DYNAMIC_INDEX and in_shape[split] % size:
            split_size = DYNAMIC_INDEX
        verify_dim(dim_mul(in_shape[concat], size), out_shape[concat], concat)
        verify_dim(split_size, out_shape[split], split)

@irdl_op_definition
class ReduceScatterOp(CollectiveOp):
    """Reduces the group's tensors elementwise, then each device keeps its slice
    along `scatter_axis`."""

    name = "shard.reduce_scatter"

    input = operand_def(TensorType)
    reduction = prop_def(ReductionKindAttr, default_value=ReductionKindAttr(ReductionKind.SUM))
    scatter_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
                "scatter_axis": axis_attr(scatter_axis),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        same_rank(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        verify_scatter_shapes(
            "Scatter",
            self.input.type,
            self.result.type,
            self.scatter_axis.value.data,
            self._group_size(grid_shape),
        )

@irdl_op_definition
class ShiftOp(CollectiveOp):
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
            "shift_axis": axis_attr(shift_axis),
            "offset": IntegerAttr(offset, i64),
        }
        if rotate:
            properties["rotate"] = UnitAttr()
        super().__init__(
            operands=[input], properties=properties, result_types=[result_type or input.type]
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        same_element_type(self, self.input.type, self.result.type, all_of=False)
        same_shape(self, self.input.type, self.result.type, all_of=False)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        axis = self.shift_axis.value.data
        if axis not in self.grid_axes_tuple():
            raise VerifyException(
                f"Invalid shift axis {axis}. It must be one of the grouping grid axes."
            )

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
                "grid": grid_symbol(grid),
                "split_axes": GridAxesArrayAttr.from_lists(split_axes),
                "static_halo_sizes": index_list_attr(static_halos),
            },
            result_types=[destination.type],
        )

    def verify_(self) -> None:
        verify_ranked(self, "operand", 0, self.destination, memref=True)
        verify_mixed("halo_sizes", self.static_halo_sizes, self.halo_sizes)
        split_dims = [axes for axes in self.split_axes.as_tuples() if axes]
        verify_halo_sizes(self.static_halo_sizes.get_values(), split_dims)
        required_grid(self, self.grid)
