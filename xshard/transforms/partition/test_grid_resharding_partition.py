"""`test-grid-resharding-partition`: upstream's test pass of that name, under its
name, so that upstream RUN lines run unchanged.

It partitions resharding alone: a `shard.shard %v to %src` followed by a
`shard.shard ... to %dst annotate_for_users` becomes the collectives `plan_reshard`
chooses (`emit_reshard`, what `shard-partition` emits) between the two local types,
and the value keeps its global type around them through
`builtin.unrealized_conversion_cast`, as upstream writes it. Equal shardings leave
`%v`. Grids and local shapes must be static (shard-partition's limit); anything
else is refused with a located error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
    SymbolRefAttr,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import sharding_of
from xshard.interfaces.partition_context import local_type
from xshard.sharding.grid import Grid
from xshard.transforms.partition.reshard import emit_reshard


def _grid(at: ShardOp, name: str) -> Grid:
    grid_op = lookup_grid(at, SymbolRefAttr(name))
    shape = grid_op.shape_tuple() if grid_op is not None else (None,)
    if None in shape:
        raise DiagnosticError(
            at, f"{TestGridReshardingPartitionPass.name} needs a static grid, @{name} is not"
        )
    return Grid(name, shape)  # type: ignore[arg-type]


def _cast(builder: Builder, value: SSAValue, t: Attribute) -> SSAValue:
    if value.type == t:
        return value
    return builder.insert(UnrealizedConversionCastOp.get([value], [t])).results[0]


def _partition_reshard(target: ShardOp) -> None:
    source = target.src.owner
    assert isinstance(source, ShardOp)
    src, dst = sharding_of(source.sharding, source), sharding_of(target.sharding, target)
    value = source.src
    if src != dst:
        global_type = value.type
        if not isinstance(global_type, TensorType):
            raise DiagnosticError(target, f"cannot reshard a value of type {global_type}")
        grid = _grid(target, dst.grid)
        builder = Builder(InsertPoint.before(target))
        local = _cast(builder, value, local_type(source, global_type, src, grid))
        moved = emit_reshard(builder, target, local, src, dst, global_type, grid)
        value = _cast(builder, moved, global_type)
    Rewriter.replace_op(target, [], [value])
    for op in (source, source.sharding.owner, target.sharding.owner):
        if isinstance(op, ShardOp | ShardingOp) and op.parent and not op.results[0].uses:
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class TestGridReshardingPartitionPass(ModulePass):
    """Each shard.shard pair to collectives.

    Each source/target `shard.shard` pair becomes the collectives between their local
    types, cast from and back to the global type.
    """

    name = "test-grid-resharding-partition"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pairs = [
            t
            for t in op.walk()
            if isinstance(t, ShardOp)
            and t.annotate_for_users
            and isinstance(s := t.src.owner, ShardOp)
            and not s.annotate_for_users
        ]
        for target in pairs:
            _partition_reshard(target)
