"""Per-device forms of the TCP ops whose sizes are written in the op, not only in its types.

Attached as `partition` to their models in `tcp.py`; every other TCP model is
partitioned by `PartitionContext.clone_local`. `tcp.broadcast` and `tcp.slice`
take sizes as index operands: where a dim is split, the global size becomes the
local one (a new `arith.constant`), else the op would build the global extent.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Operation, SSAValue

from xshard.dialects import tcp
from xshard.interfaces.models.arith_partition import partition_dense_constant
from xshard.interfaces.partition_context import PartitionContext


def partition_const(op: Operation, ctx: PartitionContext) -> None:
    assert isinstance(op, tcp.ConstOp)
    partition_dense_constant(op, ctx, op.value, tcp.ConstOp)


def _clone_with_local_sizes(ctx: PartitionContext, first: int, dims: Sequence[int]) -> None:
    """The op on local types, where operand `first + i`, the extent of result dim `dims[i]`,
    becomes the local extent if that dim is split."""
    (local,) = ctx.result_types()
    out = ctx.op.results[0].type
    assert isinstance(local, TensorType) and isinstance(out, TensorType)
    sizes: dict[int, SSAValue] = {}
    for i, d in enumerate(dims):
        if local.get_shape()[d] != out.get_shape()[d]:
            size = arith.ConstantOp.from_int_and_width(local.get_shape()[d], IndexType())
            sizes[first + i] = ctx.insert(size).result
    new = ctx.clone_local()
    for position, value in sizes.items():
        new.operands[position] = value


def partition_broadcast(op: Operation, ctx: PartitionContext) -> None:
    """A broadcast dim split across devices is broadcast to its local extent."""
    assert isinstance(op, tcp.BroadcastOp)
    _clone_with_local_sizes(ctx, 1, tcp.int_list(op.axes))


def partition_slice(op: Operation, ctx: PartitionContext) -> None:
    """Only dims taken whole may be split; their size operand becomes the local extent."""
    assert isinstance(op, tcp.SliceOp)
    n = len(op.starts)
    _clone_with_local_sizes(ctx, 1 + n, range(n))
