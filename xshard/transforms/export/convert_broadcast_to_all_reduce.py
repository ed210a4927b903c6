"""`convert-broadcast-to-all-reduce`: broadcasts as masked all_reduces, the form
XLA:CPU runs (it has no `collective_broadcast`, jax-xla.md §5).

Within each group the source keeps its value, every other device contributes zeros
(`false` for `i1`), and an all_reduce sum (`or` for `i1`) over the same groups hands
the source's value to all, the idiom the collective_broadcast RFC names.

- `shard.broadcast` (and `shard.scatter`, that broadcast and then this device's
  block): the source is the device whose in-group index (partition_id arithmetic)
  equals the root, which may be an SSA value computed from process queries.
- `stablehlo.collective_broadcast`: its groups' first ids are the sources, in any
  order (e.g. `[[3, 1], [0, 2]]`), so whether this partition is one is read from a
  constant table at `partition_id`. The partitions in no group, which get zeros,
  form the all_reduce's remaining groups; they must fill groups of the same size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i1,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.collectives import id_rows
from xshard.transforms.export.convert_shard_collectives_to_stablehlo import (
    BroadcastPattern,
    ScatterPattern,
    groups,
    root_index,
)
from xshard.transforms.export.device_index import Emit, constant, group_index, mixed_radix
from xshard.transforms.export.lowering import (
    apply_patterns,
    emitter,
    erase_dead_casts,
    fail,
    grid_shape,
    index_tensor,
    linear_index,
    partition_count,
    replace,
    static_tensor,
)
from xshard.xdsl_compat.dense_splat import splat_attr


def masked_all_reduce(
    emit: Emit,
    value: SSAValue,
    value_type: TensorType,
    is_source: SSAValue,
    replica_groups: Sequence[Sequence[int]],
) -> SSAValue:
    """`value` where `is_source`, zeros elsewhere, summed over `replica_groups`."""
    element = value_type.element_type
    is_bool = isinstance(element, IntegerType) and element.width.data == 1
    zeros = emit(hlo.ConstantOp(splat_attr(value_type, 0)))
    masked = emit(hlo.SelectOp(is_source, value, zeros))
    body = hlo.OrOp if is_bool else hlo.AddOp
    return emit(hlo.AllReduceOp(masked, replica_groups=replica_groups, body_op_class=body))


def _root_tensor(emit: Emit, op: shard.BroadcastOp | shard.ScatterOp) -> SSAValue:
    """The root's position in its group as `tensor<i64>` (roots may be SSA values)."""
    dynamic = iter(op.root_dynamic)
    digits = [
        index_tensor(emit, op, next(dynamic)) if v == DYNAMIC_INDEX else constant(emit, v)
        for v in op.root.get_values()
    ]
    shape = grid_shape(op)
    return mixed_radix(emit, digits, [shape[a] for a in op.grid_axes_tuple()])


def _broadcast(emit: Emit, op: shard.BroadcastOp | shard.ScatterOp) -> SSAValue:
    value_type = static_tensor(op, op.input)
    axes = op.grid_axes_tuple()
    replica_groups = groups(op, axes)
    static_root = root_index(op)
    root = constant(emit, static_root) if static_root is not None else _root_tensor(emit, op)
    position = group_index(emit, linear_index(op), grid_shape(op), axes)
    is_root = emit(hlo.CompareOp(position, root, "EQ"))
    return masked_all_reduce(emit, op.input, value_type, is_root, replica_groups)


def _declared_partitions(op: Operation) -> int | None:
    """`mhlo.num_partitions` of the nearest enclosing op, else the grids' device count."""
    parent = op.parent_op()
    while parent is not None:
        count = parent.attributes.get("mhlo.num_partitions")
        if isinstance(count, IntegerAttr):
            return count.value.data
        if isinstance(parent, ModuleOp):
            return partition_count(parent)
        parent = parent.parent_op()
    return None


def _cover(op: Operation, rows: list[list[int]], count: int) -> list[list[int]]:
    """`rows` and the partitions in none of them, in groups of the same size."""
    width = len(rows[0])
    covered = {p for row in rows for p in row}
    rest = [p for p in range(count) if p not in covered]
    if len(rest) % width:
        raise fail(
            op,
            f"partitions {rest} are in no replica group and do not fill groups of "
            f"{width}, which the all_reduce standing in for it needs",
        )
    return rows + [rest[i : i + width] for i in range(0, len(rest), width)]


class _CollectiveBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.CollectiveBroadcastOp, rewriter: PatternRewriter):
        emit = emitter(rewriter)
        value_type = static_tensor(op, op.operand)
        rows = id_rows(op.replica_groups)
        count = _declared_partitions(op)
        if count is None:
            raise fail(op, "the partition count is unknown (no mhlo.num_partitions, no grid)")
        if not rows or not rows[0]:
            raise fail(op, "it has no replica groups")
        sources = {row[0] for row in rows}
        flags = DenseIntOrFPElementsAttr.from_list(
            TensorType(i1, [count]), [int(p in sources) for p in range(count)]
        )
        replica_groups = _cover(op, rows, count)
        table = emit(hlo.ConstantOp(flags))
        slot = emit(hlo.DynamicSliceOp(table, [linear_index(op)], [1]))
        is_source = emit(hlo.ReshapeOp(slot, TensorType(i1, [])))
        broadcast = masked_all_reduce(emit, op.operand, value_type, is_source, replica_groups)
        replace(rewriter, op, [broadcast])


@dataclass(frozen=True)
class ConvertBroadcastToAllReducePass(ModulePass):
    """Broadcasts as masked all-reduces."""

    name = "convert-broadcast-to-all-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            BroadcastPattern(_broadcast),
            ScatterPattern(_broadcast),
            _CollectiveBroadcast(),
        ]
        apply_patterns(op, patterns)
        erase_dead_casts(op)
