"""`guard-host-callbacks`: a side-effecting host callback JAX runs on one device runs on
partition 0 alone in the per-device program.

A host callback of the global program runs on one device in `jax.jit`: `import-sdy`
marks it `xshard.on_one_device`. In the per-device program every partition reaches it,
on its whole operands. A side-effecting one (`jax.debug.print`, `jax.debug.callback`,
`io_callback`) must run once, so it becomes a `case` on `partition_id` whose first
branch (partition 0) calls it and whose other branch (every other partition, past the
branches' end) returns zeros for its results; a `collective_broadcast` from partition 0
then hands its results to all, as `jax.jit` does. A pure one (`jax.pure_callback`, the
error checks of equinox and diffrax) may run any number of times, so every partition
calls it and no collective waits on partition 0: a check that fails raises on every
device, where `jax.jit`'s other devices wait on device 0's broadcast until XLA:CPU
aborts the process. A callback inside a shard_map is not marked: it runs on every
device, as in JAX. The mark goes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.stablehlo_custom_call import ON_ONE_DEVICE, is_host_callback
from xshard.transforms.export.lowering import linear_index, partition_count, static_tensor
from xshard.xdsl_compat.dense_splat import splat_attr


def _guard(op: hlo.CustomCallOp, count: int) -> None:
    rewriter = Rewriter()
    at = InsertPoint.before(op)

    def emit(new: Operation) -> Operation:
        rewriter.insert_op(new, at)
        return new

    tensors = [static_tensor(op, r) for r in op.results]
    index = emit(hlo.ConvertOp(linear_index(op), TensorType(i32, []))).results[0]
    call = Block()
    rewriter.insert_op(op.clone(), InsertPoint.at_end(call))
    call.add_op(hlo.ReturnOp(call.last_op.results))  # type: ignore[union-attr]
    zeros = Block()
    for t in tensors:
        zeros.add_op(hlo.ConstantOp(splat_attr(t, 0)))
    zeros.add_op(hlo.ReturnOp([z.results[0] for z in zeros.ops]))
    case = hlo.CaseOp.build(
        operands=[index], result_types=[tensors], regions=[[Region(call), Region(zeros)]]
    )
    emit(case)
    everyone = [list(range(count))]
    results = [
        emit(hlo.CollectiveBroadcastOp(r, replica_groups=everyone)).results[0] for r in case.results
    ]
    for old, new in zip(op.results, results, strict=True):
        old.replace_all_uses_with(new)
    rewriter.erase_op(op)


@dataclass(frozen=True)
class GuardHostCallbacksPass(ModulePass):
    """Run side-effecting host callbacks once."""

    name = "guard-host-callbacks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        marked = [o for o in op.walk() if is_host_callback(o) and ON_ONE_DEVICE in o.attributes]
        count = partition_count(op)  # None: no grid, one device
        for call in marked:
            del call.attributes[ON_ONE_DEVICE]
            effect = call.has_side_effect is not None and call.has_side_effect.value.data
            if effect and count is not None and count > 1:
                _guard(call, count)
