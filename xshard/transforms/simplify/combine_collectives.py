"""`shard-combine-collectives`: one all_gather (reduce_scatter) for several independent
ones, as XLA's all-gather and reduce-scatter combiners do.

All_gathers and reduce_scatters over the same device groups (grid, grid axes,
reduction, element type), none of which depends on another, are bucketed: the
operands are flattened (all_gather) or cut into one row per device (reduce_scatter)
and concatenated, one collective moves the bucket, and each result is cut back out.
The shard dialect's collectives take one tensor each (as upstream's), so the bucket is
that one tensor, a copy on each device; XLA:CPU combines neither kind itself.

All_reduces are left apart: XLA's all-reduce combiner makes one variadic all-reduce of
them after its SPMD partitioner, with no copy, where a bucket doubled the gradients'
temp memory (the haiku MLP: 2.0x jax.jit's). StableHLO's all_gather is variadic too,
but XLA does not take one before partitioning under Shardy (`xshard.jit`), so the
bucket stays; `stablehlo-combine-collectives` writes the variadic forms.

Which collectives share a bucket, and the block's order afterwards (every op as early
as its original place allows, side effects in order, buckets up to `max-bytes` per
device), are `xshard.transforms.collective_buckets`', which that pass shares.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from xshard.dialects import stablehlo as hlo
from xshard.dialects.shard import AllGatherOp, ReduceScatterOp, group_size, lookup_grid
from xshard.sharding.tensor_bytes import tensor_bytes
from xshard.transforms.collective_buckets import combine_module

Combinable = AllGatherOp | ReduceScatterOp


def _group_size(op: Combinable) -> int:
    """Devices in the op's groups; negative when a grid axis is dynamic."""
    grid = lookup_grid(op, op.grid)
    assert grid is not None
    return group_size(op.grid_axes_tuple(), grid.shape.get_values())


def _reshape(b: Builder, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    t = value.type
    assert isinstance(t, TensorType)
    if list(t.get_shape()) == list(shape):
        return value
    return b.insert(hlo.ReshapeOp(value, TensorType(t.element_type, list(shape)))).results[0]


def _move_dim(b: Builder, value: SSAValue, src: int, dst: int) -> SSAValue:
    t = value.type
    assert isinstance(t, TensorType)
    perm = list(range(len(t.get_shape())))
    perm.insert(dst, perm.pop(src))
    if perm == sorted(perm):
        return value
    shape = [t.get_shape()[p] for p in perm]
    return b.insert(hlo.TransposeOp(value, perm, TensorType(t.element_type, shape))).results[0]


def _concat(b: Builder, values: list[SSAValue], dim: int) -> SSAValue:
    return b.insert(hlo.ConcatenateOp(values, dim)).results[0]


def _unpack(b: Builder, bucket: SSAValue, shapes: Sequence[Sequence[int]]) -> list[SSAValue]:
    """Consecutive pieces of the bucket's last dim, each reshaped to its shape (which
    keeps the bucket's leading dims)."""
    t = bucket.type
    assert isinstance(t, TensorType)
    lead = list(t.get_shape()[:-1])
    out, start = [], 0
    for shape in shapes:
        size = prod(shape) // prod(lead)
        piece = b.insert(hlo.SliceOp(bucket, [0] * len(lead) + [start], [*lead, start + size]))
        out.append(_reshape(b, piece.results[0], shape))
        start += size
    return out


def _shape(value: SSAValue) -> list[int]:
    assert isinstance(value.type, TensorType)
    return list(value.type.get_shape())


def _gather(b: Builder, ops: Sequence[AllGatherOp], n: int) -> list[SSAValue]:
    """The flat operands gathered along dim 0: row k of the gathered `[n, total]` is
    device k's bucket; each piece goes back in front of its own gather dim."""
    first = ops[0]
    bucket = _concat(b, [_reshape(b, op.input, [prod(_shape(op.input))]) for op in ops], 0)
    total = _shape(bucket)[0]
    result = TensorType(first.input.type.element_type, [n * total])  # type: ignore[attr-defined]
    gathered = b.insert(
        AllGatherOp(bucket, first.grid, first.grid_axes_tuple(), 0, result)
    ).results[0]
    shapes = [_shape(op.input) for op in ops]
    pieces = _unpack(b, _reshape(b, gathered, [n, total]), [[n, *s] for s in shapes])
    out = []
    for op, shape, piece in zip(ops, shapes, pieces, strict=True):
        d = op.gather_axis.value.data
        merged = shape[:d] + [n * shape[d]] + shape[d + 1 :]
        out.append(_reshape(b, _move_dim(b, piece, 0, d), merged))
    return out


def _scatter(b: Builder, ops: Sequence[ReduceScatterOp], n: int) -> list[SSAValue]:
    """Each operand's n chunks along its scatter dim become n rows; device k keeps row
    k of the concatenated rows, cut back into its results."""
    first = ops[0]
    rows = []
    for op in ops:
        shape = _shape(op.input)
        d = op.scatter_axis.value.data
        split = _reshape(b, op.input, shape[:d] + [n, shape[d] // n] + shape[d + 1 :])
        rows.append(_reshape(b, _move_dim(b, split, d, 0), [n, prod(shape) // n]))
    bucket = _concat(b, rows, 1)
    width = _shape(bucket)[1]
    element = first.input.type.element_type  # type: ignore[attr-defined]
    scattered = b.insert(
        ReduceScatterOp(
            _reshape(b, bucket, [n * width]),
            first.grid,
            first.grid_axes_tuple(),
            0,
            TensorType(element, [width]),
            first.reduction.data,
        )
    ).results[0]
    return _unpack(b, scattered, [_shape(op.result) for op in ops])


class _Buckets:
    """The `collective_buckets.Combiner` of shard.all_gather and shard.reduce_scatter."""

    def key(self, op: Operation) -> Hashable | None:
        if not isinstance(op, Combinable) or tensor_bytes(op.input.type) is None:
            return None
        if lookup_grid(op, op.grid) is None or _group_size(op) < 0:
            return None
        reduction = getattr(op, "reduction", None)
        return (
            type(op),
            op.grid.root_reference.data,
            op.grid_axes_tuple(),
            None if reduction is None else reduction.data,
            op.input.type.element_type,  # type: ignore[attr-defined]
        )

    def size(self, op: Operation) -> int:
        """The larger of what `op` reads and makes: a bucket holds both whole (an
        all_gather's result is its group size times its input)."""
        assert isinstance(op, Combinable)
        return max(tensor_bytes(op.input.type) or 0, tensor_bytes(op.result.type) or 0)

    def combine(self, b: Builder, ops: Sequence[Operation]) -> list[SSAValue]:
        first = ops[0]
        assert isinstance(first, Combinable)
        n = _group_size(first)
        if isinstance(first, AllGatherOp):
            return _gather(b, ops, n)  # type: ignore[arg-type]
        return _scatter(b, ops, n)  # type: ignore[arg-type]


@dataclass(frozen=True)
class CombineCollectivesPass(ModulePass):
    """Combine independent gathers and scatters.

    Options: `max-bytes`, the largest bucket per device (default 32 MiB, XLA's
    order of magnitude)."""

    name = "shard-combine-collectives"

    max_bytes: int = 32 * 1024 * 1024

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        combine_module(op, _Buckets(), self.max_bytes)
