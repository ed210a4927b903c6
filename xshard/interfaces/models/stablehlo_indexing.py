"""Sharding models of `stablehlo.gather` and `stablehlo.scatter`.

An index read from a tensor can point anywhere in the dim it indexes, so such a dim is
never split: no loop indexes it, and `shard-partition` gathers it whole (always right).
The dims that do split are the ones where each device's block of the indices only
reaches that device's block of the data:

- the batch dims of the indices (one loop each, shared with the result or updates dim
  they enumerate): each device handles its own indices;
- the batching dims (`operand_batching_dims` / `input_batching_dims`): the same loop
  also indexes the data dim paired with the indices' batching dim, since an index of
  batch `b` reads or writes batch `b` only;
- window (slice) dims taken whole: the data dim and the result or updates dim it maps
  to share a loop. For gather a start index on such a dim is clamped to 0, so it may
  be indexed; for scatter it must not be (an update that starts elsewhere is out of
  bounds, and the spec drops out-of-bounds elements one by one, not whole windows).

Scatter adds one rule: with a single-op combiner of a known reduction (`add`, `max`,
`min`...), the update dims that enumerate indices (not batching dims) are reduction
loops of that kind. Each device scatters its share of the updates into its copy of
the input, which it holds as a partial value of the same kind (the input is an
accumulator: on one device, the identity on the others), so the results are partial
values of that kind, exactly. Any other combiner (`set`) keeps those dims whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.checks import shape
from xshard.dialects.stablehlo.indexing import batch_dims, scatter_dims
from xshard.interfaces.models.captures import clone_with_replicated_captures
from xshard.interfaces.models.common import KINDS_ALL, dims_map, rank
from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.interfaces.sharding_model import register_model

GATHERED = PartialRule(PartialFlow.PASS_THROUGH, KINDS_ALL, operands=(0,))
"""gather(Σa) = Σ gather(a) (and alike for max, min): a gather only selects elements of
its operand; the indices must be whole values."""


def _window_dims(rank_: int, dropped: Sequence[int]) -> list[int]:
    """The data dims a slice spans, in order: those not collapsed, inserted or batching."""
    return [d for d in range(rank_) if d not in dropped]


class GatherModel:
    """Loops: the result's dims. See the module docstring for which operand dims they
    index; `partition` gives split whole-slice dims their local slice size."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.GatherOp)
        dn = op.dimension_numbers
        operand_shape = shape(op.operand.type)
        indices_rank = rank(op.start_indices) or 0
        n = rank(op.result) or 0
        offset = dn.list_field("offset_dims")
        index_vector_dim = dn.index_vector_dim.data
        operand_batching = dn.list_field("operand_batching_dims")
        sizes = op.slice_sizes.get_values()
        batch_loops = [d for d in range(n) if d not in offset]
        indices_loops: list[int | None] = [None] * indices_rank
        for loop, d in zip(batch_loops, batch_dims(indices_rank, index_vector_dim), strict=True):
            indices_loops[d] = loop
        operand_loops: list[int | None] = [None] * len(operand_shape)
        for a, b in zip(operand_batching, dn.list_field("start_indices_batching_dims"),
                        strict=True):
            operand_loops[a] = indices_loops[b]
        result_loops: list[int | None] = list(range(n))
        window = _window_dims(len(operand_shape),
                              [*dn.list_field("collapsed_slice_dims"), *operand_batching])
        for d, loop in zip(window, offset, strict=True):
            if sizes[d] == operand_shape[d]:
                operand_loops[d] = loop
            else:
                result_loops[loop] = None
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (dims_map(n, operand_loops), dims_map(n, indices_loops)),
            (dims_map(n, result_loops),),
            GATHERED,
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        """Whole-slice dims read the whole local block: the slice size becomes its extent."""
        assert isinstance(op, hlo.GatherOp)
        ctx.clone_local({"slice_sizes": _local_slice_sizes(op, ctx)})


def _local_slice_sizes(
    op: hlo.GatherOp | hlo.DynamicSliceOp, ctx: PartitionContext
) -> DenseArrayBase:
    """The op's slice sizes (of operand 0), where a dim taken whole is its local extent."""
    sizes = op.slice_sizes
    global_shape = shape(op.operands[0].type)
    local_shape = shape(ctx.operands[0].type)
    return DenseArrayBase.from_list(
        i64,
        [
            local if size == whole else size
            for size, whole, local in zip(sizes.get_values(), global_shape, local_shape,
                                          strict=True)
        ],
    )


class ScatterModel:
    """Loops: the inputs' dims, then one per update dim that enumerates indices."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ScatterOp)
        dn = op.scatter_dimension_numbers
        input_shape = shape(op.inputs[0].type)
        update_shape = shape(op.updates[0].type)
        indices_rank = rank(op.scatter_indices) or 0
        index_vector_dim = dn.index_vector_dim.data
        input_batching = dn.list_field("input_batching_dims")
        indices_batching = dn.list_field("scatter_indices_batching_dims")
        indexed = set(dn.list_field("scatter_dims_to_operand_dims"))
        kind = hlo.reduction_kind(op)
        loops = [Loop.parallel() for _ in input_shape]
        input_loops: list[int | None] = [None] * len(input_shape)
        update_loops: list[int | None] = [None] * len(update_shape)
        indices_loops: list[int | None] = [None] * indices_rank
        enumerating = batch_dims(indices_rank, index_vector_dim)
        for u, i in zip(scatter_dims(op), enumerating, strict=True):
            if i in indices_batching:
                loop = input_batching[indices_batching.index(i)]
                input_loops[loop] = loop
            elif kind is not None:
                loop = len(loops)
                loops.append(Loop.reduction(kind))
            else:
                continue
            update_loops[u] = indices_loops[i] = loop
        window = _window_dims(len(input_shape),
                              [*dn.list_field("inserted_window_dims"), *input_batching])
        for d, u in zip(window, dn.list_field("update_window_dims"), strict=True):
            if update_shape[u] == input_shape[d] and d not in indexed:
                input_loops[d] = update_loops[u] = d
        n = len(loops)
        inputs = dims_map(n, input_loops)
        updates = dims_map(n, update_loops)
        count = len(op.inputs)
        partial = NO_PARTIAL
        if kind in KINDS_ALL:
            # scatter(Σa, Σu) = Σ scatter(a, u) when the combiner is the sum (or max, min):
            # each result element combines its input element with the updates landing on it.
            partial = PartialRule(PartialFlow.ALL_OPERANDS, frozenset({kind}), operands=(0, 2))
        return ShardingRule(
            tuple(loops),
            (inputs,) * count + (dims_map(n, indices_loops),) + (updates,) * count,
            (inputs,) * count,
            partial,
            accumulators=tuple(range(count)) if kind is not None else (),
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        clone_with_replicated_captures(ctx)


class DynamicSliceModel:
    """Dims taken whole (slice size = operand size, so the start is clamped to 0) may be
    split: each device slices its whole block. Others are not indexed."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.DynamicSliceOp)
        src = shape(op.operand.type)
        sizes = op.slice_sizes.get_values()
        n = len(src)
        whole = dims_map(n, [d if sizes[d] == src[d] else None for d in range(n)])
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (whole, *(dims_map(n, []) for _ in op.start_indices)),
            (whole,),
            GATHERED,
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        assert isinstance(op, hlo.DynamicSliceOp)
        ctx.clone_local({"slice_sizes": _local_slice_sizes(op, ctx)})


class DynamicUpdateSliceModel:
    """Dims the update covers whole (its start is clamped to 0) may be split alike in the
    operand, the update and the result. Others are not indexed."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.DynamicUpdateSliceOp)
        src, update = shape(op.operand.type), shape(op.update.type)
        n = len(src)
        whole = dims_map(n, [d if update[d] == src[d] else None for d in range(n)])
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (whole, whole, *(dims_map(n, []) for _ in op.start_indices)),
            (whole,),
            # dus(Σa, Σu) = Σ dus(a, u): each element is taken from the operand or the update.
            PartialRule(PartialFlow.ALL_OPERANDS, KINDS_ALL, operands=(0, 1)),
        )


register_model(hlo.GatherOp)(GatherModel())
register_model(hlo.ScatterOp)(ScatterModel())
register_model(hlo.DynamicSliceOp)(DynamicSliceModel())
register_model(hlo.DynamicUpdateSliceOp)(DynamicUpdateSliceModel())
