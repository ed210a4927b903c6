"""`finalize-partition-mode`: a module of StableHLO made ready for XLA's partition
mode, one partition per device of the grid (jax-xla.md §3).

The grids and the `shard.sharding` ops left go (a sharding still in use has no
StableHLO form); tensor `arith.constant`s become `stablehlo.constant`s and the unused
scalar ones (operands the lowering turned into StableHLO constants) go. The module
gets `mhlo.num_partitions` (the grid's device count) and `mhlo.num_replicas = 1`, and
the entry function (`entry.py`, renamed `main`) `mhlo.sharding = "{manual}"` on every
argument and result, without which XLA refuses `partition_id` and side-effecting
collectives. A module without grids is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i32,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.diagnostics import DiagnosticError
from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.transforms.export.entry import find_entry
from xshard.transforms.export.lowering import partition_count

MANUAL = DictionaryAttr({"mhlo.sharding": StringAttr("{manual}")})


def _manual(attrs: ArrayAttr[DictionaryAttr] | None, count: int) -> ArrayAttr[DictionaryAttr]:
    old = attrs.data if attrs is not None else [DictionaryAttr({})] * count
    return ArrayAttr(DictionaryAttr({**d.data, **MANUAL.data}) for d in old)


def _drop_shardings(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if isinstance(op, shard.ShardingOp):
            for use in op.result.uses:
                raise DiagnosticError(
                    use.operation,
                    f"'{use.operation.name}' uses a !shard.sharding value, which has no "
                    "StableHLO form",
                )
            Rewriter.erase_op(op)


def _lower_constants(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if not isinstance(op, arith.ConstantOp):
            continue
        if isinstance(op.value, DenseIntOrFPElementsAttr):
            constant = hlo.ConstantOp(op.value)
            Rewriter.insert_op(constant, InsertPoint.before(op))
            op.result.replace_all_uses_with(constant.results[0])
            Rewriter.erase_op(op)
        elif isinstance(op.result.type, IndexType | IntegerType) and not op.result.uses:
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class FinalizePartitionModePass(ModulePass):
    """Prepare for XLA's partition mode."""

    name = "finalize-partition-mode"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        count = partition_count(op)
        if count is None:
            return
        _drop_shardings(op)
        _lower_constants(op)
        for grid in [g for g in op.ops if isinstance(g, shard.GridOp)]:
            Rewriter.erase_op(grid)
        op.attributes["mhlo.num_partitions"] = IntegerAttr(count, i32)
        op.attributes["mhlo.num_replicas"] = IntegerAttr(1, i32)
        entry = find_entry(op)
        if entry is not None:
            entry.sym_name = StringAttr("main")
            entry.arg_attrs = _manual(entry.arg_attrs, len(entry.function_type.inputs))
            entry.res_attrs = _manual(entry.res_attrs, len(entry.function_type.outputs))
