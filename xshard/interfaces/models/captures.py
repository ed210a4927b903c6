"""Values an op's regions read from above, made whole for a per-device op that runs its
regions on global types.

`stablehlo.case` branches take no arguments: JAX's `lax.cond` lowers to branches that
read the function's values directly. When such an op is partitioned with its regions
cloned as they are (its operands and results whole), every tensor its regions read
from outside must be whole on each device too, not the local block `shard-partition`
made of it. The layout of such a value is known where the IR states it: a
`shard.shard` result (propagation routes every use of a value through one), or an
argument of the function, which arrives as its first annotation says (and whole in
`arguments=global` mode, where it keeps its global type). Any other value gets a
located error rather than a guess.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import ShardOp
from xshard.interfaces.annotations import result_annotation, sharding_of
from xshard.interfaces.partition_context import PartitionContext
from xshard.sharding.sharding import Sharding


def captured_values(op: Operation) -> list[SSAValue]:
    """The values used inside `op`'s regions but defined outside `op`, in order of use."""
    nested_ops = [inner for region in op.regions for inner in region.walk()]
    inside_ops = set(nested_ops)
    inside_blocks: set[Block] = {
        block for region in op.regions for block in region.blocks
    } | {block for inner in nested_ops for region in inner.regions for block in region.blocks}
    found: dict[SSAValue, None] = {}
    for inner in nested_ops:
        for v in inner.operands:
            inside = v.block in inside_blocks if isinstance(v, BlockArgument) else (
                v.owner in inside_ops
            )
            if not inside:
                found.setdefault(v)
    return list(found)


def _layout(op: Operation, value: SSAValue, ctx: PartitionContext) -> Sharding:
    """How the local counterpart of the global `value` is laid out."""
    owner = value.owner
    replicated = Sharding.replicated(ctx.grid.name)
    if isinstance(owner, ShardOp):
        return sharding_of(owner.sharding, owner)
    if isinstance(value, BlockArgument):  # of the function: only its top-level ops partition
        annotation = result_annotation(value)
        if annotation is None:
            return replicated
        s = sharding_of(annotation.sharding, annotation)
        if ctx.outer[value].type != value.type:
            return s
        if not s.is_partial:  # global arguments, or splits over axes of size 1
            return replicated
    raise DiagnosticError(
        op,
        f"'{op.name}' reads a value from outside its regions whose layout is not stated "
        "here: annotate it with 'shard.shard' (sharding-propagation does) or pass it as "
        "an operand",
    )


def clone_with_replicated_captures(ctx: PartitionContext) -> None:
    """`ctx.clone_local()`, with every tensor the regions read from above made whole."""
    op = ctx.op
    whole: dict[SSAValue, SSAValue] = {}
    replicated = Sharding.replicated(ctx.grid.name)
    for value in captured_values(op):
        if not isinstance(value.type, TensorType) or value not in ctx.outer:
            continue
        s = _layout(op, value, ctx)
        if s.grid != ctx.grid.name:
            raise DiagnosticError(
                op, f"'{op.name}' reads a value laid out on grid @{s.grid}, not @{ctx.grid.name}"
            )
        local = ctx.outer[value]
        whole[value] = local if s.is_replicated else ctx.reshard(local, s, replicated, value.type)
    inner = replace(ctx, outer={**ctx.outer, **whole})
    inner.clone_local()
    assert inner.results is not None
    ctx.set_results(inner.results)
