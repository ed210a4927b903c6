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

A dim the indices address one element of (collapsed for gather, inserted for scatter:
a lookup of one row of an embedding table) may be split too, as Megatron's vocabulary-
parallel embedding does:

- gather: a reduction loop (sum). Each device clamps the index into the whole dim (the
  spec clamps the start), moves it into its block, gathers, and keeps only the rows
  its block holds (zero elsewhere): the results are partial sums, each row held by one
  device;
- scatter: a parallel loop shared with the result. Each device moves the index into
  its block; an update meant for another block is out of bounds here, and the spec
  drops it (an update out of the whole dim is out of every block), so each device's
  block of the result is exact.

Scatter adds one rule: with a single-op combiner of a known reduction (`add`, `max`,
`min`...), the update dims that enumerate indices (not batching dims) are reduction
loops of that kind. Each device scatters its share of the updates into its copy of
the input, which it holds as a partial value of the same kind (the input is an
accumulator: on one device, the identity on the others), so the results are partial
values of that kind, exactly. Any other combiner (`set`) keeps those dims whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Operation, SSAValue

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
from xshard.sharding.reduction import ReductionKind
from xshard.xdsl_compat.dense_splat import splat_attr

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
        loops = [Loop.parallel() for _ in range(n)]
        for d in _looked_up(op):
            operand_loops[d] = len(loops)
            loops.append(Loop.reduction(ReductionKind.SUM))
        m = len(loops)
        return ShardingRule(
            tuple(loops),
            (dims_map(m, operand_loops), dims_map(m, indices_loops)),
            (dims_map(m, result_loops),),
            GATHERED,
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        """Whole-slice dims read the whole local block: the slice size becomes its extent.
        A split looked-up dim reads the device's block with its indices moved into it,
        and the rows of other blocks are zeroed (the module docstring)."""
        assert isinstance(op, hlo.GatherOp)
        sizes = _local_slice_sizes(op, ctx)
        split = _split_lookups(op, ctx, _looked_up(op), 0)
        if not split:
            ctx.clone_local({"slice_sizes": sizes})
            return
        dn = op.dimension_numbers
        ivd = dn.index_vector_dim.data
        index_map = dn.list_field("start_index_map")
        indices = ctx.operands[1]
        masks = []
        for d, axes in split:
            indices, mask = _into_block(ctx, indices, ivd, index_map.index(d), d, axes, op)
            masks.append(mask)
        (result_type,) = ctx.result_types()
        gather = ctx.insert(
            hlo.GatherOp.create(
                operands=[ctx.operands[0], indices],
                result_types=[result_type],
                properties={**op.properties, "slice_sizes": sizes},
            )
        )
        mask = masks[0]
        for other in masks[1:]:
            mask = ctx.insert(hlo.AndOp(mask, other)).results[0]
        offset_dims = dn.list_field("offset_dims")
        ctx.set_results([_zero_unless(ctx, mask, gather.results[0], ivd, offset_dims)])


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
        for d in _looked_up(op):
            input_loops[d] = d
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
        """A split looked-up dim scatters with its indices moved into the device's block;
        what lands outside it is dropped by the spec (the module docstring)."""
        assert isinstance(op, hlo.ScatterOp)
        count = len(op.inputs)
        split = _split_lookups(op, ctx, _looked_up(op), 0)
        if split:
            dn = op.scatter_dimension_numbers
            ivd = dn.index_vector_dim.data
            index_map = dn.list_field("scatter_dims_to_operand_dims")
            indices = ctx.operands[count]
            for d, axes in split:
                indices, _ = _into_block(ctx, indices, ivd, index_map.index(d), d, axes, op)
            operands = list(ctx.operands)
            operands[count] = indices
            moved = replace(ctx, operands=tuple(operands))
            clone_with_replicated_captures(moved)
            assert moved.results is not None
            ctx.set_results(moved.results)
        else:
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


def _looked_up(op: hlo.GatherOp | hlo.ScatterOp) -> list[int]:
    """The data dims the indices address one element of (gather's collapsed dims of
    slice size 1, scatter's inserted window dims), batching dims aside."""
    if isinstance(op, hlo.GatherOp):
        dn = op.dimension_numbers
        sizes = op.slice_sizes.get_values()
        one = set(dn.list_field("collapsed_slice_dims"))
        index_map = dn.list_field("start_index_map")
        batching = dn.list_field("operand_batching_dims")
        return [d for d in index_map if d in one and sizes[d] == 1 and d not in batching]
    dn = op.scatter_dimension_numbers
    one = set(dn.list_field("inserted_window_dims"))
    index_map = dn.list_field("scatter_dims_to_operand_dims")
    batching = dn.list_field("input_batching_dims")
    return [d for d in index_map if d in one and d not in batching]


def _split_lookups(
    op: Operation, ctx: PartitionContext, dims: Sequence[int], operand: int
) -> list[tuple[int, tuple[int, ...]]]:
    """The looked-up `dims` that the option splits operand `operand` along, with their axes."""
    s = ctx.operand_shardings[operand]
    return [(d, s.axes_of(d)) for d in dims if s is not None and s.axes_of(d)]


def _into_block(
    ctx: PartitionContext,
    indices: SSAValue,
    ivd: int,
    k: int,
    dim: int,
    axes: tuple[int, ...],
    op: hlo.GatherOp | hlo.ScatterOp,
) -> tuple[SSAValue, SSAValue]:
    """`indices` with component `k` of the index vector (along `ivd`) moved into this
    device's block of data dim `dim` (for gather clamped into the whole dim first, as
    the spec clamps), and where that component falls inside the block (i1)."""
    t = indices.type
    assert isinstance(t, TensorType)
    dims, element = list(t.get_shape()), t.element_type
    whole, local = shape(op.operands[0].type)[dim], shape(ctx.operands[0].type)[dim]

    def part(start: int, stop: int) -> SSAValue:
        lo, hi = [0] * len(dims), list(dims)
        lo[ivd], hi[ivd] = start, stop
        return ctx.insert(hlo.SliceOp(indices, lo, hi)).results[0]

    component = part(k, k + 1) if ivd < len(dims) else indices
    same = component.type

    def full(value: int) -> SSAValue:
        splat = DenseIntOrFPElementsAttr.from_list(same, [value])  # type: ignore[arg-type]
        return ctx.insert(hlo.ConstantOp(splat)).results[0]

    if isinstance(op, hlo.GatherOp):
        component = ctx.insert(hlo.ClampOp(full(0), component, full(whole - 1))).results[0]
    group = ctx.grid.group_size(axes) or 1
    offset = ctx.device_entry([j * local for j in range(group)], axes, element)
    spread = ctx.insert(hlo.BroadcastInDimOp(offset, [], same)).results[0]
    moved = ctx.insert(hlo.SubtractOp(component, spread)).results[0]
    low = ctx.insert(hlo.CompareOp(moved, full(0), "GE")).results[0]
    high = ctx.insert(hlo.CompareOp(moved, full(local), "LT")).results[0]
    inside = ctx.insert(hlo.AndOp(low, high)).results[0]
    if ivd == len(dims):
        return moved, inside
    before = [part(0, k)] if k else []
    after = [part(k + 1, dims[ivd])] if k + 1 < dims[ivd] else []
    parts = [*before, moved, *after]
    if len(parts) > 1:
        moved = ctx.insert(hlo.ConcatenateOp(parts, ivd)).results[0]
    return moved, inside


def _zero_unless(
    ctx: PartitionContext, inside: SSAValue, value: SSAValue, ivd: int, offset_dims: Sequence[int]
) -> SSAValue:
    """`value` (a gather's result) where `inside` (one flag per index, the indices'
    shape) holds, zero elsewhere."""
    t, flags = value.type, inside.type
    assert isinstance(t, TensorType) and isinstance(flags, TensorType)
    batch = [d for d in flags.get_shape()]
    if ivd < len(batch):
        del batch[ivd]
        inside = ctx.insert(hlo.ReshapeOp(inside, TensorType(i1, batch))).results[0]
    positions = [d for d in range(t.get_num_dims()) if d not in offset_dims]
    mask = ctx.insert(hlo.BroadcastInDimOp(inside, positions, TensorType(i1, t.get_shape())))
    zeros = ctx.insert(hlo.ConstantOp(splat_attr(t, 0)))
    return ctx.insert(hlo.SelectOp(mask.results[0], value, zeros.results[0])).results[0]


register_model(hlo.GatherOp)(GatherModel())
register_model(hlo.ScatterOp)(ScatterModel())
register_model(hlo.DynamicSliceOp)(DynamicSliceModel())
register_model(hlo.DynamicUpdateSliceOp)(DynamicUpdateSliceModel())
