"""Per-device form of `arith.constant` on tensors, and the dense-constant rule TCP and
tosa constants share.

A splat is the same value everywhere, so each device builds its local splat. Any
other constant has no per-device form without knowing the device: it is built
whole and each device keeps its block (`shard.all_slice`), where upstream refuses.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Operation, SSAValue

from xshard.diagnostics import DiagnosticError
from xshard.interfaces.partition_context import PartitionContext
from xshard.xdsl_compat.dense_splat import splat_element


def partition_dense_constant(
    op: Operation,
    ctx: PartitionContext,
    value: DenseIntOrFPElementsAttr,
    build: Callable[[DenseIntOrFPElementsAttr], Operation],
) -> None:
    """`build(attr)` makes the dialect's constant op holding `attr`."""
    s = ctx.result_shardings[0]
    assert s is not None
    if s.is_partial:
        raise DiagnosticError(op, f"'{op.name}' cannot produce a partial value")
    if (element := splat_element(value)) is not None:
        (local,) = ctx.result_types()
        splat = DenseIntOrFPElementsAttr.from_list(local, list(element))
        ctx.set_results(ctx.insert(build(splat)).results)
    else:
        whole: SSAValue = ctx.insert(build(value)).results[0]
        ctx.reshard_global(whole)


def partition_constant(op: Operation, ctx: PartitionContext) -> None:
    assert isinstance(op, arith.ConstantOp)
    assert isinstance(op.value, DenseIntOrFPElementsAttr)
    partition_dense_constant(op, ctx, op.value, arith.ConstantOp)
