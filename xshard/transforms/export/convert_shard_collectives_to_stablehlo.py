"""`convert-shard-collectives-to-stablehlo`: each `shard` collective to its StableHLO
counterpart over the device groups of its `grid_axes` (`xshard/sharding/groups.py`),
one rewrite pattern per collective.

Every collective gets `channel_handle = 1` (type 1) and all_reduce, all_gather and
reduce_scatter `use_global_device_ids`, so that the ids in `replica_groups` are
partition ids, which are the grid's row-major device ids (docs/jax-bridge.md).

| shard op | StableHLO |
|---|---|
| `all_reduce`, `reduce` | `all_reduce` (`average`: sum, then divide) |
| `all_gather`, `gather` | `all_gather` |
| `reduce_scatter` | `reduce_scatter` |
| the above with `bitwise_*` | `all_gather` on a new dim + local `reduce` (+ `dynamic_slice`) |
| `all_to_all` | `all_to_all` |
| `all_slice` | `dynamic_slice` at this device's offset (partition_id arithmetic) |
| `broadcast` | `collective_broadcast`, each group starting at the root |
| `scatter` | that broadcast, then `dynamic_slice` |
| `shift` | `collective_permute` |
| `update_halo` | per halo: `collective_permute`, `select` at the edges, `dynamic_update_slice` |

The rooted ops `reduce` and `gather` define their result on the root only, so the
all-device forms are valid lowerings. XLA:CPU's all_reduce and reduce_scatter take
only sum, product, min and max bodies (`and` / `or` on i1 read as min / max; an
`xor` body fails with `Unsupported reduction computation`), and NCCL has no bitwise
reductions either, so the other bitwise kinds gather the group's values and reduce
them locally. XLA:CPU cannot run `collective_broadcast`: for CPUs,
`convert-broadcast-to-all-reduce` lowers broadcasts and scatters first. Ops without a
StableHLO form (send/recv, an unpartitioned program's annotations) are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.sharding.groups import device_groups
from xshard.sharding.reduction import ReductionKind
from xshard.transforms.export.device_index import Emit, constant, group_index
from xshard.transforms.export.lowering import (
    apply_patterns,
    emitter,
    erase_dead_casts,
    fail,
    grid_shape,
    linear_index,
    replace,
    static_tensor,
)
from xshard.xdsl_compat.dense_splat import splat_attr

_COMBINERS: dict[ReductionKind, type[hlo.BinaryElementwiseOp]] = {
    ReductionKind.SUM: hlo.AddOp,
    ReductionKind.AVERAGE: hlo.AddOp,
    ReductionKind.PRODUCT: hlo.MultiplyOp,
    ReductionKind.MAX: hlo.MaximumOp,
    ReductionKind.MIN: hlo.MinimumOp,
    ReductionKind.BITWISE_AND: hlo.AndOp,
    ReductionKind.BITWISE_OR: hlo.OrOp,
    ReductionKind.BITWISE_XOR: hlo.XorOp,
}
_BITWISE = {ReductionKind.BITWISE_AND, ReductionKind.BITWISE_OR, ReductionKind.BITWISE_XOR}

_NOT_PARTITIONED = "the program is not partitioned (run shard-partition first)"
_POINT_TO_POINT = (
    "point-to-point transfers have no form in SPMD partition mode, where every "
    "partition runs the same program; express the exchange as shard.shift"
)
_NO_COUNTERPART = {
    shard.SendOp: _POINT_TO_POINT,
    shard.RecvOp: _POINT_TO_POINT,
    shard.NeighborsLinearIndicesOp: "neighbour queries are not lowered yet",
    shard.ShardOp: _NOT_PARTITIONED,
    shard.GetShardingOp: _NOT_PARTITIONED,
    shard.ShardShapeOp: _NOT_PARTITIONED,
}


def groups(op: Operation, axes: Sequence[int]) -> list[list[int]]:
    """The replica groups of `op`'s collective over `axes`."""
    return device_groups(grid_shape(op), axes)


def _combiner(op: Operation, kind: ReductionKind, element: Attribute):
    if kind not in _COMBINERS:
        raise fail(op, f"reduction kind '{kind.value}' has no StableHLO reducer")
    if kind in _BITWISE and not isinstance(element, IntegerType):
        raise fail(
            op, f"reduction kind '{kind.value}' needs an integer element type, got {element}"
        )
    if kind == ReductionKind.AVERAGE and not isinstance(element, AnyFloat):
        raise fail(op, f"reduction kind 'average' needs a float element type, got {element}")
    return _COMBINERS[kind]


def _needs_gather(kind: ReductionKind, element: Attribute) -> bool:
    """Whether `kind` has no all_reduce body XLA runs (see the module docstring)."""
    is_bool = isinstance(element, IntegerType) and element.width.data == 1
    if is_bool and kind in (ReductionKind.BITWISE_AND, ReductionKind.BITWISE_OR):
        return False
    return kind in _BITWISE


def _same_element_type(emit: Emit, op: Operation, value: SSAValue, result: TensorType):
    """`value` converted to the element type of `result` (all_reduce's accumulation
    type may differ from its operand's)."""
    source = static_tensor(op, value)
    if source.element_type == result.element_type:
        return value
    return emit(hlo.ConvertOp(value, TensorType(result.element_type, source.get_shape())))


def _gathered_reduce(
    emit: Emit, op: Operation, value: SSAValue, axes: Sequence[int], kind: ReductionKind
) -> SSAValue:
    """Every group member's `value` stacked on a new leading dim by all_gather, then
    reduced over it with `kind`'s op: n times the traffic, any reducer."""
    value_type = static_tensor(op, value)
    element, dims = value_type.element_type, list(value_type.get_shape())
    stacked = emit(hlo.ReshapeOp(value, TensorType(element, [1, *dims])))
    gathered = emit(hlo.AllGatherOp(stacked, all_gather_dim=0, replica_groups=groups(op, axes)))
    assert isinstance(element, IntegerType)
    all_ones = (
        (1 << element.width.data) - 1 if element.signedness.data == Signedness.UNSIGNED else -1
    )
    identity = all_ones if kind == ReductionKind.BITWISE_AND else 0
    init = emit(
        hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [identity]))
    )
    return emit(hlo.ReduceOp.create([gathered], [init], [0], _COMBINERS[kind]))


def _divide_by_group_size(emit: Emit, value: SSAValue, size: int) -> SSAValue:
    count = DenseIntOrFPElementsAttr.from_list(value.type, [float(size)])  # type: ignore[arg-type]
    return emit(hlo.DivideOp(value, emit(hlo.ConstantOp(count))))


def local_slice(
    emit: Emit,
    op: Operation,
    value: SSAValue,
    dim: int,
    axes: Sequence[int],
    result_type: TensorType,
) -> SSAValue:
    """This device's block of `value` along `dim`, split over `axes`."""
    source = static_tensor(op, value)
    size = result_type.get_shape()[dim]
    offset = group_index(emit, linear_index(op), grid_shape(op), axes)
    if size != 1:
        offset = emit(hlo.MultiplyOp(offset, constant(emit, size)))
    rank = source.get_num_dims()
    zero = constant(emit, 0) if rank > 1 else offset
    starts = [offset if d == dim else zero for d in range(rank)]
    return emit(hlo.DynamicSliceOp(value, starts, result_type.get_shape()))


def root_index(op: shard.BroadcastOp | shard.ScatterOp) -> int | None:
    """The root's position in its group, when it is static."""
    if op.root_dynamic:
        return None
    shape, index = grid_shape(op), 0
    for axis, coord in zip(op.grid_axes_tuple(), op.root.get_values(), strict=True):
        index = index * shape[axis] + coord
    return index


def _collective_broadcast(emit: Emit, op: shard.BroadcastOp | shard.ScatterOp) -> SSAValue:
    static_tensor(op, op.input)
    root = root_index(op)
    if root is None:
        raise fail(
            op,
            "collective_broadcast takes its source from replica_groups, so the "
            "root must be static on target=gpu",
        )
    rooted = [[g[root], *g[:root], *g[root + 1 :]] for g in groups(op, op.grid_axes_tuple())]
    return emit(hlo.CollectiveBroadcastOp(op.input, replica_groups=rooted))


class _AllReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shard.AllReduceOp | shard.ReduceOp, rewriter: PatternRewriter
    ) -> None:
        emit, axes, kind = emitter(rewriter), op.grid_axes_tuple(), op.reduction.data
        result_type = static_tensor(op, op.result)
        value = _same_element_type(emit, op, op.input, result_type)
        body = _combiner(op, kind, result_type.element_type)
        if _needs_gather(kind, result_type.element_type):
            replace(rewriter, op, [_gathered_reduce(emit, op, value, axes, kind)])
            return
        replica_groups = groups(op, axes)
        reduced = emit(hlo.AllReduceOp(value, replica_groups=replica_groups, body_op_class=body))
        if kind == ReductionKind.AVERAGE:
            reduced = _divide_by_group_size(emit, reduced, len(replica_groups[0]))
        replace(rewriter, op, [reduced])


class _AllGather(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shard.AllGatherOp | shard.GatherOp, rewriter: PatternRewriter
    ) -> None:
        static_tensor(op, op.input)
        static_tensor(op, op.result)
        gathered = hlo.AllGatherOp(
            op.input,
            all_gather_dim=op.gather_axis.value.data,
            replica_groups=groups(op, op.grid_axes_tuple()),
        )
        replace(rewriter, op, [emitter(rewriter)(gathered)])


class _ReduceScatter(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.ReduceScatterOp, rewriter: PatternRewriter) -> None:
        emit = emitter(rewriter)
        result_type = static_tensor(op, op.result)
        value = _same_element_type(emit, op, op.input, result_type)
        kind, axes, dim = op.reduction.data, op.grid_axes_tuple(), op.scatter_axis.value.data
        body = _combiner(op, kind, result_type.element_type)
        if _needs_gather(kind, result_type.element_type):
            whole = _gathered_reduce(emit, op, value, axes, kind)
            replace(rewriter, op, [local_slice(emit, op, whole, dim, axes, result_type)])
            return
        replica_groups = groups(op, axes)
        scattered = emit(
            hlo.ReduceScatterOp(
                value, scatter_dimension=dim, replica_groups=replica_groups, body_op_class=body
            )
        )
        if kind == ReductionKind.AVERAGE:
            scattered = _divide_by_group_size(emit, scattered, len(replica_groups[0]))
        replace(rewriter, op, [scattered])


class _AllToAll(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.AllToAllOp, rewriter: PatternRewriter) -> None:
        static_tensor(op, op.input)
        static_tensor(op, op.result)
        replica_groups = groups(op, op.grid_axes_tuple())
        exchanged = hlo.AllToAllOp(
            op.input,
            split_dimension=op.split_axis.value.data,
            concat_dimension=op.concat_axis.value.data,
            split_count=len(replica_groups[0]),
            replica_groups=replica_groups,
        )
        replace(rewriter, op, [emitter(rewriter)(exchanged)])


class _AllSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.AllSliceOp, rewriter: PatternRewriter) -> None:
        result_type = static_tensor(op, op.result)
        dim, axes = op.slice_axis.value.data, op.grid_axes_tuple()
        sliced = local_slice(emitter(rewriter), op, op.input, dim, axes, result_type)
        replace(rewriter, op, [sliced])


BroadcastLowering = Callable[[Emit, shard.BroadcastOp | shard.ScatterOp], SSAValue]
"""Emits a rooted op's broadcast of its input; returns the value every device gets."""


@dataclass(frozen=True)
class BroadcastPattern(RewritePattern):
    lower: BroadcastLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.BroadcastOp, rewriter: PatternRewriter) -> None:
        replace(rewriter, op, [self.lower(emitter(rewriter), op)])


@dataclass(frozen=True)
class ScatterPattern(RewritePattern):
    """A scatter: the broadcast `lower` emits, then this device's block."""

    lower: BroadcastLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.ScatterOp, rewriter: PatternRewriter) -> None:
        emit, axes = emitter(rewriter), op.grid_axes_tuple()
        result_type = static_tensor(op, op.result)
        whole = self.lower(emit, op)
        sliced = local_slice(emit, op, whole, op.scatter_axis.value.data, axes, result_type)
        replace(rewriter, op, [sliced])


class _Shift(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.ShiftOp, rewriter: PatternRewriter) -> None:
        emit, shape = emitter(rewriter), grid_shape(op)
        static_tensor(op, op.input)
        axis, offset = op.shift_axis.value.data, op.offset.value.data
        size, stride = shape[axis], prod(shape[axis + 1 :])
        pairs = []
        for device in range(prod(shape)):
            coord = device // stride % size
            target = coord + offset
            if op.rotate is not None:
                target %= size
            elif not 0 <= target < size:
                continue  # off the grid; devices left without a source get zeros
            pairs.append((device, device + (target - coord) * stride))
        if not pairs:
            zeros = splat_attr(op.result.type, 0)  # type: ignore[arg-type]
            replace(rewriter, op, [emit(hlo.ConstantOp(zeros))])
            return
        replace(rewriter, op, [emit(hlo.CollectivePermuteOp(op.input, source_target_pairs=pairs))])


class _UpdateHalo(RewritePattern):
    """Dim by dim, the lower halo gets the last core cells of the previous device in
    the group and the upper halo the first core cells of the next one
    (collective_permute); the group's first and last devices keep their outer halos.
    Later dims read the buffer earlier dims filled, so corners come from diagonal
    neighbours."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.UpdateHaloOp, rewriter: PatternRewriter) -> None:
        emit, value = emitter(rewriter), op.destination
        shape = static_tensor(op, value).get_shape()
        if op.halo_sizes:
            raise fail(op, "halo sizes must be static")
        split = [(d, axes.get_values()) for d, axes in enumerate(op.split_axes.axes.data)]
        split = [(d, axes) for d, axes in split if axes]
        halos = op.static_halo_sizes.get_values()
        if halos and len(halos) != 2 * len(split):
            raise fail(op, f"expected 2 halo sizes per split dim ({len(split)}), got {len(halos)}")
        for i, (dim, axes) in enumerate(split if halos else ()):
            lo, hi = halos[2 * i], halos[2 * i + 1]
            core = shape[dim] - lo - hi
            if lo > core or hi > core:
                raise fail(
                    op, f"halos ({lo}, {hi}) of dim {dim} are wider than its {core} core cells"
                )
            replica_groups = groups(op, axes)
            size = len(replica_groups[0])
            down = [(g[k], g[k + 1]) for g in replica_groups for k in range(size - 1)]
            up = [(b, a) for a, b in down]
            for width, fetch_at, halo_at, pairs, edge in (
                (lo, core, 0, down, 0),
                (hi, lo, lo + core, up, size - 1),
            ):
                if not width or not pairs:
                    continue
                piece = _cut(emit, shape, value, dim, fetch_at, width)
                received = emit(hlo.CollectivePermuteOp(piece, source_target_pairs=pairs))
                position = group_index(emit, linear_index(op), grid_shape(op), axes)
                at_edge = emit(hlo.CompareOp(position, constant(emit, edge), "EQ"))
                kept = _cut(emit, shape, value, dim, halo_at, width)
                halo = emit(hlo.SelectOp(at_edge, kept, received))
                zero = constant(emit, 0)
                starts = [constant(emit, halo_at) if d == dim else zero for d in range(len(shape))]
                value = emit(hlo.DynamicUpdateSliceOp(value, halo, starts))
        replace(rewriter, op, [value])


def _cut(
    emit: Emit, shape: Sequence[int], value: SSAValue, dim: int, start: int, width: int
) -> SSAValue:
    """`value[start : start + width]` along `dim`, whole along the other dims."""
    starts = [start if d == dim else 0 for d in range(len(shape))]
    limits = [start + width if d == dim else n for d, n in enumerate(shape)]
    return emit(hlo.SliceOp(value, starts, limits))


class _Refuse(RewritePattern):
    """The shard ops that have no StableHLO form."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) in _NO_COUNTERPART:
            raise fail(op, _NO_COUNTERPART[type(op)])


@dataclass(frozen=True)
class ConvertShardCollectivesToStablehloPass(ModulePass):
    """Each shard collective to StableHLO's."""

    name = "convert-shard-collectives-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            _AllReduce(),
            _AllGather(),
            _ReduceScatter(),
            _AllToAll(),
            _AllSlice(),
            BroadcastPattern(_collective_broadcast),
            ScatterPattern(_collective_broadcast),
            _Shift(),
            _UpdateHalo(),
            _Refuse(),
        ]
        apply_patterns(op, patterns)
        erase_dead_casts(op)
