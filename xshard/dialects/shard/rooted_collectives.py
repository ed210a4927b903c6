"""Collectives with a root or a peer: broadcast, gather, reduce, scatter, send, recv."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    IndexType,
    IndexTypeConstr,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.utils import DynamicIndexList
from xdsl.ir import (
    Attribute,
    SSAValue,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from xshard.dialects.shard.attributes import IndexListAttr, ReductionKindAttr, index_list_attr
from xshard.dialects.shard.checks import (
    OptionalDynamicIndexList,
    same_element_type,
    same_rank,
    same_shape,
    split_mixed,
    verify_gather_shapes,
    verify_in_group_device,
    verify_mixed,
    verify_ranked,
    verify_scatter_shapes,
)
from xshard.dialects.shard.collectives import CollectiveOp, axis_attr
from xshard.dialects.shard.grid_ops import GridOp, GridRef
from xshard.dialects.shard.traits import EmptyGridAxesCanonicalization
from xshard.sharding.reduction import ReductionKind


class _RootedCollectiveOp(CollectiveOp):
    """A collective with one in-group device (`root`) given as a mixed index list."""

    root = prop_def(IndexListAttr)
    root_dynamic = var_operand_def(IndexType)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        verify_mixed("root", self.root, self.root_dynamic)
        verify_in_group_device(
            "root", self.root.get_values(), self.grid_axes_tuple(), grid_shape
        )


@irdl_op_definition
class BroadcastOp(_RootedCollectiveOp):
    """Copies the tensor of the `root` device to every device of its group."""

    name = "shard.broadcast"

    input = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
        same_shape(self, self.input.type, self.result.type, all_of=True)
        same_element_type(self, self.input.type, self.result.type, all_of=True)


@irdl_op_definition
class GatherOp(_RootedCollectiveOp):
    """Concatenates the group's tensors along `gather_axis` on the `root` device;
    the result elsewhere is undefined."""

    name = "shard.gather"

    input = operand_def(TensorType)
    gather_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
                "gather_axis": axis_attr(gather_axis),
                "root": index_list_attr(static_root),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        verify_ranked(self, "result", 0, self.result, memref=False)
        same_rank(self, self.input.type, self.result.type, all_of=True)
        same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        super()._verify_on_grid(grid_shape)
        verify_gather_shapes(
            self.input.type,
            self.result.type,
            self.gather_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class RecvOp(CollectiveOp):
    """Receives a tensor from the in-group device `source`; the input is ignored."""

    name = "shard.recv"

    input = operand_def(TensorType)
    source = opt_prop_def(IndexListAttr)
    source_dynamic = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(EmptyGridAxesCanonicalization())

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
        verify_ranked(self, "operand", 0, self.input, memref=False)
        same_shape(self, self.input.type, self.result.type, all_of=True)
        same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        verify_mixed("source", self.source or index_list_attr(()), self.source_dynamic)
        if self.source is None:
            return
        verify_in_group_device(
            "source", self.source.get_values(), self.grid_axes_tuple(), grid_shape
        )


@irdl_op_definition
class ReduceOp(_RootedCollectiveOp):
    """Reduces the group's tensors elementwise onto the `root` device."""

    name = "shard.reduce"

    input = operand_def(TensorType)
    reduction = prop_def(ReductionKindAttr, default_value=ReductionKindAttr(ReductionKind.SUM))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
        same_shape(self, self.input.type, self.result.type, all_of=True)

@irdl_op_definition
class ScatterOp(_RootedCollectiveOp):
    """Splits the `root` device's tensor along `scatter_axis` over its group."""

    name = "shard.scatter"

    input = operand_def(TensorType)
    scatter_axis = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(TensorType)

    traits = traits_def(Pure(), EmptyGridAxesCanonicalization())

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
                "scatter_axis": axis_attr(scatter_axis),
                "root": index_list_attr(static_root),
            },
            result_types=[result_type],
        )

    def _verify_types(self) -> None:
        verify_ranked(self, "operand", 0, self.input, memref=False)
        same_rank(self, self.input.type, self.result.type, all_of=True)
        same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        super()._verify_on_grid(grid_shape)
        verify_scatter_shapes(
            "Scatter",
            self.input.type,
            self.result.type,
            self.scatter_axis.value.data,
            self._group_size(grid_shape),
        )


@irdl_op_definition
class SendOp(CollectiveOp):
    """Sends the tensor to the in-group device `destination`."""

    name = "shard.send"

    input = operand_def(TensorType)
    destination = prop_def(IndexListAttr)
    destination_dynamic = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(EmptyGridAxesCanonicalization())

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
        verify_ranked(self, "operand", 0, self.input, memref=False)
        same_shape(self, self.input.type, self.result.type, all_of=True)
        same_element_type(self, self.input.type, self.result.type, all_of=True)

    def _verify_on_grid(self, grid_shape: tuple[int, ...]) -> None:
        verify_mixed("destination", self.destination, self.destination_dynamic)
        verify_in_group_device(
            "destination", self.destination.get_values(), self.grid_axes_tuple(), grid_shape
        )
