"""What the shard ops' verifiers and builders share: shape and axis checks (with
upstream's messages), group sizes, mixed static/dynamic index lists."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.utils import DynamicIndexList
from xdsl.ir import (
    Operation,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    ParsingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.shard.attributes import IndexListAttr


def group_size(axes: Sequence[int], grid_shape: Sequence[int]) -> int:
    """Devices in one group over `axes`; `DYNAMIC_INDEX` when an axis is dynamic."""
    size = 1
    for axis in axes:
        if grid_shape[axis] == DYNAMIC_INDEX:
            return DYNAMIC_INDEX
        size *= grid_shape[axis]
    return size


def dim_mul(lhs: int, rhs: int) -> int:
    return DYNAMIC_INDEX if DYNAMIC_INDEX in (lhs, rhs) else lhs * rhs


def dim_div(lhs: int, rhs: int) -> int:
    return DYNAMIC_INDEX if DYNAMIC_INDEX in (lhs, rhs) else lhs // rhs


def verify_dim(expected: int, got: int, axis: int) -> None:
    if got != DYNAMIC_INDEX and expected != got:
        shown = "dynamic" if expected == DYNAMIC_INDEX else str(expected)
        raise VerifyException(
            f"Dimension size mismatch for result axis {axis}. Expected {shown}, but got {got}."
        )


def verify_axis_in_rank(what: str, axis: int, rank: int) -> None:
    if not 0 <= axis < rank:
        raise VerifyException(f"{what} axis {axis} is out of bounds [0, {rank}).")


def verify_gather_shapes(
    operand: ShapedType, result: ShapedType, axis: int, size: int
) -> None:
    verify_axis_in_rank("Gather", axis, result.get_num_dims())
    in_shape, out_shape = operand.get_shape(), result.get_shape()
    for dim, (in_dim, out_dim) in enumerate(zip(in_shape, out_shape, strict=False)):
        verify_dim(dim_mul(size, in_dim) if dim == axis else in_dim, out_dim, dim)


def verify_scatter_shapes(
    what: str, operand: ShapedType, result: ShapedType, axis: int, size: int
) -> None:
    verify_axis_in_rank(what, axis, operand.get_num_dims())
    in_shape, out_shape = operand.get_shape(), result.get_shape()
    for dim, (in_dim, out_dim) in enumerate(zip(in_shape, out_shape, strict=False)):
        if dim != axis:
            verify_dim(in_dim, out_dim, dim)
    in_dim = in_shape[axis]
    if DYNAMIC_INDEX not in (in_dim, size) and in_dim % size:
        raise VerifyException(
            f"Operand dimension size {in_dim} is not divisible by collective device "
            f"group size {size} for tensor axis {axis}."
        )
    verify_dim(dim_div(in_dim, size), out_shape[axis], axis)


def verify_in_group_device(
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


def verify_mixed(name: str, static: IndexListAttr, dynamic: Sequence[SSAValue]) -> None:
    markers = static.get_values().count(DYNAMIC_INDEX)
    if markers != len(dynamic):
        raise VerifyException(
            f"{name} has {markers} dynamic positions but {len(dynamic)} dynamic values"
        )


def verify_halo_sizes(halos: Sequence[int], split_dims: Sequence[Sequence[int]]) -> None:
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


def verify_ranked(op: Operation, what: str, index: int, value: SSAValue, memref: bool) -> None:
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


def same_shape(op: Operation, lhs: ShapedType, rhs: ShapedType, all_of: bool) -> None:
    if lhs.get_shape() != rhs.get_shape():
        raise VerifyException(
            f"'{op.name}' op failed to verify that all of {{input, result}} have same shape"
            if all_of
            else f"'{op.name}' op requires the same shape for all operands and results"
        )


def same_element_type(op: Operation, lhs: ShapedType, rhs: ShapedType, all_of: bool) -> None:
    if lhs.get_element_type() != rhs.get_element_type():
        raise VerifyException(
            f"'{op.name}' op failed to verify that all of {{input, result}} have same "
            "element type"
            if all_of
            else f"'{op.name}' op requires the same element type for all operands and results"
        )


def same_rank(op: Operation, lhs: ShapedType, rhs: ShapedType, all_of: bool) -> None:
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
