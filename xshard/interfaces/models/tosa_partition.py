"""Per-device form of `tosa.const`; every other tosa model is partitioned by
`PartitionContext.clone_local` (zero points and shifts are replicated operands and
pass through unchanged)."""

from __future__ import annotations

from xdsl.dialects import tosa as xdsl_tosa
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Operation

from xshard.interfaces.models.arith_partition import partition_dense_constant
from xshard.interfaces.partition_context import PartitionContext


def partition_const(op: Operation, ctx: PartitionContext) -> None:
    assert isinstance(op, xdsl_tosa.ConstOp)
    assert isinstance(op.values, DenseIntOrFPElementsAttr)
    partition_dense_constant(op, ctx, op.values, xdsl_tosa.ConstOp)
