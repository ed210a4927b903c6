"""StableHLO's indexed data movement: gather and scatter, in the generic form JAX prints.

Both take their indices from a tensor. Their dimension numbers (`#stablehlo.gather`,
`#stablehlo.scatter`) include the batching dims of StableHLO 1.1, which JAX 0.10
emits for `take_along_axis` and the gradient of integer-label cross entropy:

    %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<
           collapsed_slice_dims = [2], operand_batching_dims = [0, 1],
           start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>,
           indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}>
           : (tensor<4x8x16xf32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1xf32>

The verifiers check the spec's constraints (C1-C23 of gather, C1-C25 of scatter).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, BoolAttr, DenseArrayBase, IntegerType, TensorType
from xdsl.ir import Operation
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure, RecursiveMemoryEffect

from xshard.dialects.stablehlo.attributes import (
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
)
from xshard.dialects.stablehlo.checks import (
    check_dims_in_range,
    dim_matches,
    element_type,
    fail,
    is_unique,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.reduction import verify_reducer


def _check_sorted(op: Operation, name: str, dims: Sequence[int]) -> None:
    if list(dims) != sorted(dims):
        fail(op, f"{name} must be sorted, got {list(dims)}")


def _check_disjoint(op: Operation, names: str, dims: Sequence[int]) -> None:
    if not is_unique(dims):
        fail(op, f"{names} must not repeat a dim, got {list(dims)}")


def _check_index_vector(
    op: Operation,
    indices_shape: Sequence[int],
    index_vector_dim: int,
    index_map_name: str,
    index_map: Sequence[int],
    batching_name: str,
    batching_dims: Sequence[int],
) -> None:
    """The constraints gather and scatter share on the indices tensor."""
    rank = len(indices_shape)
    if not 0 <= index_vector_dim <= rank:
        fail(op, f"index_vector_dim {index_vector_dim} is out of range [0, {rank}]")
    check_dims_in_range(op, batching_name, batching_dims, rank)
    if index_vector_dim in batching_dims:
        fail(op, f"index_vector_dim {index_vector_dim} must not be a batching dim")
    vector_size = indices_shape[index_vector_dim] if index_vector_dim < rank else 1
    if vector_size >= 0 and len(index_map) != vector_size:
        fail(op, f"{index_map_name} must have {vector_size} entries (the size of the index "
                 f"vector), got {len(index_map)}")


def batch_dims(indices_rank: int, index_vector_dim: int) -> list[int]:
    """The dims of the indices tensor that enumerate indices (all but the index vector dim)."""
    return [d for d in range(indices_rank) if d != index_vector_dim]


@irdl_op_definition
class GatherOp(IRDLOperation):
    """Slices of `operand` at the positions `start_indices` lists.

    Result dims are the `offset_dims` (the slice's dims that are not collapsed or
    batching dims, in order) and the batch dims (the dims of `start_indices` other than
    `index_vector_dim`, in order). Start positions are clamped into the operand.
    https://openxla.org/stablehlo/spec#gather
    """

    name = "stablehlo.gather"

    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    slice_sizes = prop_def(DenseArrayBase[I64])
    indices_are_sorted = opt_prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        dn = self.dimension_numbers
        operand_shape = shape(self.operand.type)
        indices_shape = shape(self.start_indices.type)
        result_shape = shape(self.result.type)
        offset = dn.list_field("offset_dims")
        collapsed = dn.list_field("collapsed_slice_dims")
        operand_batching = dn.list_field("operand_batching_dims")
        indices_batching = dn.list_field("start_indices_batching_dims")
        index_map = dn.list_field("start_index_map")
        sizes = self.slice_sizes.get_values()
        rank = len(operand_shape)
        if not isinstance(element_type(self.start_indices.type), IntegerType):
            fail(self, f"start_indices must have an integer element type, got "
                       f"{self.start_indices.type}")
        if len(offset) + len(collapsed) + len(operand_batching) != rank:
            fail(self, f"offset_dims, collapsed_slice_dims and operand_batching_dims must have "
                       f"operand rank ({rank}) entries together, got "
                       f"{len(offset) + len(collapsed) + len(operand_batching)}")
        _check_index_vector(self, indices_shape, dn.index_vector_dim.data, "start_index_map",
                            index_map, "start_indices_batching_dims", indices_batching)
        _check_sorted(self, "offset_dims", offset)
        check_dims_in_range(self, "offset_dims", offset, len(result_shape))
        _check_disjoint(self, "collapsed_slice_dims and operand_batching_dims",
                        [*collapsed, *operand_batching])
        _check_sorted(self, "collapsed_slice_dims", collapsed)
        check_dims_in_range(self, "collapsed_slice_dims", collapsed, rank)
        _check_sorted(self, "operand_batching_dims", operand_batching)
        check_dims_in_range(self, "operand_batching_dims", operand_batching, rank)
        if len(sizes) != rank:
            fail(self, f"slice_sizes must have operand rank ({rank}) entries, got {len(sizes)}")
        for name, dims in (("collapsed_slice_dims", collapsed),
                           ("operand_batching_dims", operand_batching)):
            for d in dims:
                if sizes[d] > 1:
                    fail(self, f"slice size of dim {d} in {name} must be 0 or 1, got {sizes[d]}")
        if len(operand_batching) != len(indices_batching):
            fail(self, f"operand_batching_dims and start_indices_batching_dims must have the "
                       f"same size, got {list(operand_batching)} and {list(indices_batching)}")
        for a, b in zip(operand_batching, indices_batching, strict=True):
            if not dim_matches(operand_shape[a], indices_shape[b]):
                fail(self, f"operand batching dim {a} ({operand_shape[a]}) and start_indices "
                           f"batching dim {b} ({indices_shape[b]}) must have the same size")
        _check_disjoint(self, "start_index_map and operand_batching_dims",
                        [*index_map, *operand_batching])
        check_dims_in_range(self, "start_index_map", index_map, rank)
        for d, (size, bound) in enumerate(zip(sizes, operand_shape, strict=True)):
            if size < 0 or (bound >= 0 and size > bound):
                fail(self, f"slice size {size} of dim {d} is out of bounds [0, {bound}]")
        if element_type(self.operand.type) != element_type(self.result.type):
            fail(self, f"requires the same element type for operand and result, got "
                       f"{element_type(self.operand.type)} and "
                       f"{element_type(self.result.type)}")
        expected = gather_result_shape(self)
        if not shapes_match(expected, result_shape):
            fail(self, f"result shape must be {expected}, got {list(result_shape)}")


def gather_result_shape(op: GatherOp) -> list[int]:
    """The spec's `combine(batch_dim_sizes, offset_dim_sizes)`."""
    dn = op.dimension_numbers
    indices_shape = shape(op.start_indices.type)
    offset = dn.list_field("offset_dims")
    dropped = {*dn.list_field("collapsed_slice_dims"), *dn.list_field("operand_batching_dims")}
    batch_sizes = iter(indices_shape[d] for d in batch_dims(len(indices_shape),
                                                            dn.index_vector_dim.data))
    offset_sizes = iter(s for d, s in enumerate(op.slice_sizes.get_values()) if d not in dropped)
    rank = len(offset) + len(indices_shape) - (
        1 if dn.index_vector_dim.data < len(indices_shape) else 0
    )
    return [next(offset_sizes if d in offset else batch_sizes, -1) for d in range(rank)]


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """`inputs` with the slices `scatter_indices` lists combined with `updates` by
    `update_computation` (its arguments: the current values, then the updates).

    Update dims are the `update_window_dims` (the input dims that are not inserted or
    batching dims, in order) and the update scatter dims (the dims of `scatter_indices`
    other than `index_vector_dim`, in order). Updates landing out of bounds are skipped.
    https://openxla.org/stablehlo/spec#scatter
    """

    name = "stablehlo.scatter"

    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    results_ = var_result_def(TensorType)
    update_computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())
    irdl_options = (SameVariadicOperandSize(),)

    def verify_(self) -> None:
        dn = self.scatter_dimension_numbers
        n = len(self.inputs)
        if n == 0 or len(self.updates) != n or len(self.results_) != n:
            fail(self, f"expects as many inputs, updates and results, at least one; got "
                       f"{n}, {len(self.updates)} and {len(self.results_)}")
        input_shape = shape(self.inputs[0].type)
        update_shape = shape(self.updates[0].type)
        indices_shape = shape(self.scatter_indices.type)
        rank = len(input_shape)
        for what, values, reference in (("input", self.inputs, input_shape),
                                        ("update", self.updates, update_shape),
                                        ("result", self.results_, input_shape)):
            for i, v in enumerate(values):
                if not shapes_match(shape(v.type), reference):
                    fail(self, f"{what} {i} is {v.type}, but its shape must be {list(reference)}")
        if not isinstance(element_type(self.scatter_indices.type), IntegerType):
            fail(self, f"scatter_indices must have an integer element type, got "
                       f"{self.scatter_indices.type}")
        window = dn.list_field("update_window_dims")
        inserted = dn.list_field("inserted_window_dims")
        input_batching = dn.list_field("input_batching_dims")
        indices_batching = dn.list_field("scatter_indices_batching_dims")
        index_map = dn.list_field("scatter_dims_to_operand_dims")
        if len(window) + len(inserted) + len(input_batching) != rank:
            fail(self, f"update_window_dims, inserted_window_dims and input_batching_dims must "
                       f"have input rank ({rank}) entries together, got "
                       f"{len(window) + len(inserted) + len(input_batching)}")
        _check_index_vector(self, indices_shape, dn.index_vector_dim.data,
                            "scatter_dims_to_operand_dims", index_map,
                            "scatter_indices_batching_dims", indices_batching)
        _check_sorted(self, "update_window_dims", window)
        check_dims_in_range(self, "update_window_dims", window, len(update_shape))
        _check_disjoint(self, "inserted_window_dims and input_batching_dims",
                        [*inserted, *input_batching])
        _check_sorted(self, "inserted_window_dims", inserted)
        check_dims_in_range(self, "inserted_window_dims", inserted, rank)
        _check_sorted(self, "input_batching_dims", input_batching)
        check_dims_in_range(self, "input_batching_dims", input_batching, rank)
        if len(input_batching) != len(indices_batching):
            fail(self, f"input_batching_dims and scatter_indices_batching_dims must have the "
                       f"same size, got {list(input_batching)} and {list(indices_batching)}")
        for a, b in zip(input_batching, indices_batching, strict=True):
            if not dim_matches(input_shape[a], indices_shape[b]):
                fail(self, f"input batching dim {a} ({input_shape[a]}) and scatter_indices "
                           f"batching dim {b} ({indices_shape[b]}) must have the same size")
        _check_disjoint(self, "scatter_dims_to_operand_dims and input_batching_dims",
                        [*index_map, *input_batching])
        check_dims_in_range(self, "scatter_dims_to_operand_dims", index_map, rank)
        self._check_update_shape(input_shape, update_shape, indices_shape)
        element_types = [element_type(v.type) for v in self.inputs]
        for i, (u, r) in enumerate(zip(self.updates, self.results_, strict=True)):
            if element_type(u.type) != element_types[i]:
                fail(self, f"updates {i} has element type {element_type(u.type)}, input {i} has "
                           f"{element_types[i]}")
            if element_type(r.type) != element_types[i]:
                fail(self, f"result {i} has element type {element_type(r.type)}, input {i} has "
                           f"{element_types[i]}")
        verify_reducer(self, self.update_computation, element_types)

    def _check_update_shape(
        self, input_shape: Sequence[int], update_shape: Sequence[int],
        indices_shape: Sequence[int],
    ) -> None:
        """(C4): scatter dims of the updates are the index batch; window dims fit the input."""
        dn = self.scatter_dimension_numbers
        window = dn.list_field("update_window_dims")
        dropped = {*dn.list_field("inserted_window_dims"), *dn.list_field("input_batching_dims")}
        batch = [indices_shape[d] for d in batch_dims(len(indices_shape),
                                                      dn.index_vector_dim.data)]
        window_bounds = [s for d, s in enumerate(input_shape) if d not in dropped]
        expected_rank = len(batch) + len(window)
        if len(update_shape) != expected_rank:
            fail(self, f"updates must have rank {expected_rank} (index batch dims plus window "
                       f"dims), got {len(update_shape)}")
        scatter_dims = [d for d in range(len(update_shape)) if d not in window]
        for d, size in zip(scatter_dims, batch, strict=True):
            if not dim_matches(update_shape[d], size):
                fail(self, f"update scatter dim {d} must have the size of the index batch "
                           f"({size}), got {update_shape[d]}")
        for d, bound in zip(window, window_bounds, strict=True):
            if update_shape[d] >= 0 and bound >= 0 and update_shape[d] > bound:
                fail(self, f"update window dim {d} ({update_shape[d]}) is larger than the input "
                           f"dim it covers ({bound})")


def scatter_dims(op: ScatterOp) -> list[int]:
    """The update dims that enumerate updates (all but the window dims)."""
    window = op.scatter_dimension_numbers.list_field("update_window_dims")
    return [d for d in range(len(shape(op.updates[0].type))) if d not in window]

