"""Partition-id arithmetic: where this device sits on a grid, as StableHLO values.

In partition mode (docs/jax-bridge.md) partition k runs device k of the
row-major grid, so `stablehlo.partition_id` is the shard dialect's linear process
index. StableHLO has no `index` type: index values are rank-0 `tensor<i64>` here,
wide enough for any index a static grid yields and accepted by `dynamic_slice` as
start indices. Coordinates come from division and remainder, not lookup tables:
one op per step, and the grid shape stays readable in the constants.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr, TensorType, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.dialects import stablehlo as hlo

INDEX_TENSOR = TensorType(i64, [])
"""The StableHLO type an `index` value becomes."""

Emit = Callable[[Operation], SSAValue]
"""Inserts an op at the current place and returns its (single) result."""


def constant(emit: Emit, value: int) -> SSAValue:
    return emit(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(INDEX_TENSOR, [value])))


class PartitionIndex:
    """This device's linear index in one function: `partition_id` as `tensor<i64>`,
    emitted once at the top of the function body so that every use is dominated; the
    one already there is reused, so that the export passes share it."""

    def __init__(self, body: Block):
        self._body = body
        self._value: SSAValue | None = _existing(body)

    def linear(self) -> SSAValue:
        if self._value is None:
            pid = hlo.PartitionIdOp(attributes={"mhlo.sharding": StringAttr("{manual}")})
            as_index = hlo.ConvertOp(pid, INDEX_TENSOR)
            Rewriter.insert_op([pid, as_index], InsertPoint.at_start(self._body))
            self._value = as_index.result
        return self._value


def _existing(body: Block) -> SSAValue | None:
    pid = body.first_op
    if not isinstance(pid, hlo.PartitionIdOp):
        return None
    convert = pid.next_op
    if (
        isinstance(convert, hlo.ConvertOp)
        and convert.operands[0] is pid.results[0]
        and convert.result.type == INDEX_TENSOR
    ):
        return convert.result
    return None


def coordinate(emit: Emit, linear: SSAValue, shape: Sequence[int], axis: int) -> SSAValue:
    """Coordinate on `axis` of the device with row-major index `linear`:
    (linear / stride) % size, leaving out the steps that cannot change the value."""
    stride = 1
    for size in shape[axis + 1 :]:
        stride *= size
    value = linear
    if stride != 1:
        value = emit(hlo.DivideOp(value, constant(emit, stride)))
    if axis != 0:
        value = emit(hlo.RemainderOp(value, constant(emit, shape[axis])))
    return value


def mixed_radix(emit: Emit, digits: Sequence[SSAValue], sizes: Sequence[int]) -> SSAValue:
    """digits[0] * sizes[1] * ... + digits[-1]: the in-group index of a device whose
    coordinates on the group's axes are `digits` (first axis most significant)."""
    if not digits:
        return constant(emit, 0)
    value = digits[0]
    for digit, size in zip(digits[1:], sizes[1:], strict=True):
        value = emit(hlo.AddOp(emit(hlo.MultiplyOp(value, constant(emit, size))), digit))
    return value


def group_index(
    emit: Emit, linear: SSAValue, shape: Sequence[int], axes: Sequence[int]
) -> SSAValue:
    """Position of this device in its group over `axes`, which is also the index of
    its shard along a tensor dim split over `axes` (xshard/sharding/groups.py)."""
    if list(axes) == list(range(len(shape))):
        return linear
    digits = [coordinate(emit, linear, shape, a) for a in axes]
    return mixed_radix(emit, digits, [shape[a] for a in axes])
