"""Per-device forms of the StableHLO ops that are more than themselves on local types.

Attached as `partition` to their models in `stablehlo.py`; every other StableHLO
model is partitioned by `PartitionContext.clone_local`.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IntegerType, i64
from xdsl.ir import Attribute, Operation

from xshard.diagnostics import DiagnosticError
from xshard.dialects import stablehlo as hlo
from xshard.interfaces.partition_context import PartitionContext
from xshard.sharding.reduction import ReductionKind
from xshard.xdsl_compat.dense_splat import splat_element


def partition_source(op: Operation, ctx: PartitionContext) -> None:
    """A splat constant becomes the local splat; an iota split along its own dim is the
    local iota plus the device's offset; anything else is built whole and sliced."""
    s = ctx.result_shardings[0]
    assert s is not None
    if s.is_partial:
        raise DiagnosticError(op, f"'{op.name}' cannot produce a partial value")
    (local,) = ctx.result_types()
    if isinstance(op, hlo.ConstantOp):
        if (element := splat_element(op.value)) is not None:
            splat = DenseIntOrFPElementsAttr.from_list(local, list(element))
            ctx.set_results(ctx.insert(hlo.ConstantOp(splat)).results)
        else:
            ctx.reshard_global(ctx.insert(hlo.ConstantOp(op.value)).results[0])
        return
    assert isinstance(op, hlo.IotaOp)
    dim = op.iota_dimension.value.data
    if not s.axes_of(dim):
        ctx.clone_local()
    elif s.halo_sizes or s.sharded_dims_offsets:
        ctx.reshard_global(ctx.insert(hlo.IotaOp(dim, op.output.type)).results[0])
    else:
        block = ctx.insert(hlo.IotaOp(dim, local)).results[0]
        offset = ctx.insert(hlo.BroadcastInDimOp(ctx.shard_offset(dim), [], local))
        ctx.set_results(ctx.insert(hlo.AddOp(block, offset.results[0])).results)


def partition_slice(op: Operation, ctx: PartitionContext) -> None:
    """Dims the slice keeps whole (the only ones that may be split) end at their local extent."""
    assert isinstance(op, hlo.SliceOp)
    src = op.operand.type.get_shape()
    local = ctx.operands[0].type.get_shape()  # type: ignore[union-attr]
    starts, limits, strides = (
        a.get_values() for a in (op.start_indices, op.limit_indices, op.strides)
    )
    limits = [
        local[d] if (starts[d], limits[d], strides[d]) == (0, src[d], 1) else limits[d]
        for d in range(len(src))
    ]
    ctx.clone_local({"limit_indices": DenseArrayBase.from_list(i64, limits)})


def reduction_identity(kind: ReductionKind, element_type: Attribute) -> float | int | None:
    """The value that `kind` combines with to no effect (None: none exists, or unknown)."""
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        low, high = (0, 1) if width == 1 else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
        ones = 1 if width == 1 else -1
    else:
        low, high, ones = -math.inf, math.inf, None
    return {
        ReductionKind.SUM: 0,
        ReductionKind.PRODUCT: 1,
        ReductionKind.MAX: low,
        ReductionKind.MIN: high,
        ReductionKind.BITWISE_OR: 0,
        ReductionKind.BITWISE_XOR: 0,
        ReductionKind.BITWISE_AND: ones,
    }.get(kind)
