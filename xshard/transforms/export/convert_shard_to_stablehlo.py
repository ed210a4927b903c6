"""`convert-shard-to-stablehlo`: a partitioned (per-device) program to the StableHLO
XLA compiles in partition mode, one partition per device of the grid.

Each `shard` collective becomes its StableHLO counterpart over the device groups
of its `grid_axes` (`xshard/sharding/groups.py`), with the attributes
`shared/notes/jax-xla.md` §3 asks for: `channel_handle = 1` (type 1) everywhere,
`use_global_device_ids` on all_reduce, all_gather and reduce_scatter, so that the
ids in `replica_groups` are partition ids, which are the grid's row-major
device ids.

| shard op | StableHLO |
|---|---|
| `all_reduce`, `reduce` | `all_reduce` (`average`: sum, then divide) |
| `all_gather`, `gather` | `all_gather` |
| `reduce_scatter` | `reduce_scatter` |
| the above with `bitwise_*` | `all_gather` on a new dim + local `reduce` (+ `dynamic_slice`) |
| `all_to_all` | `all_to_all` |
| `all_slice` | `dynamic_slice` at this device's offset (partition_id arithmetic) |
| `shift` | `collective_permute` |
| `update_halo` | per halo: `collective_permute`, `select` at the edges, `dynamic_update_slice` |
| `broadcast` | `collective_broadcast` (`target=gpu`) or select + `all_reduce` (`target=cpu`) |
| `scatter` | that broadcast, then `dynamic_slice` |
| `process_linear_index`, `process_multi_index` | `partition_id` arithmetic on `tensor<i64>` |
| `grid_shape` | constants |

The rooted ops `reduce` and `gather` define their result on the root only, so the
all-device forms are valid lowerings. XLA:CPU's all_reduce and reduce_scatter take
only sum, product, min and max bodies (`and` / `or` on i1 read as min / max; an
`xor` body fails with `Unsupported reduction computation`), and NCCL has no bitwise
reductions either, so the other bitwise kinds gather the group's values and reduce
them locally on both targets.
`index` values become rank-0 `tensor<i64>` (see `device_index.py`), and scalar
`arith` on them becomes StableHLO on rank-0 tensors (`index_arith.py`). Such values
may feed the dynamic roots of collectives, the predicate of an `arith.select` on
tensors (a `stablehlo.select`), the condition of an `scf.if` whose branches are pure
StableHLO (both branches run, a `stablehlo.select` picks), or be returned, which
turns the function's result types into rank-0 tensors.

Then the grids and shardings go; the module gets `mhlo.num_partitions` (the grid's
device count) and `mhlo.num_replicas = 1`, and the entry function `@main` (or the
module's only function, renamed `main`) gets `mhlo.sharding = "{manual}"` on every
argument and result, without which XLA refuses `partition_id` and side-effecting
collectives. The input must be partitioned: a `shard.shard` left is an error, as
is any op without a StableHLO form (send/recv, dynamic shapes, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from xshard.diagnostics import DiagnosticError
from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.sharding.groups import device_groups
from xshard.sharding.reduction import ReductionKind
from xshard.transforms.export.device_index import (
    PartitionIndex,
    constant,
    coordinate,
    group_index,
    mixed_radix,
)
from xshard.transforms.export.index_arith import SCALAR_OPS, lower_scalar, tensor_type
from xshard.transforms.export.index_arith import constant as scalar_constant

Target = Literal["cpu", "gpu"]

MANUAL = DictionaryAttr({"mhlo.sharding": StringAttr("{manual}")})

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

_NO_COUNTERPART = {
    shard.SendOp: "point-to-point transfers have no form in SPMD partition mode, where every "
    "partition runs the same program; express the exchange as shard.shift",
    shard.RecvOp: "point-to-point transfers have no form in SPMD partition mode, where every "
    "partition runs the same program; express the exchange as shard.shift",
    shard.NeighborsLinearIndicesOp: "neighbour queries are not lowered yet",
    shard.ShardOp: "the program is not partitioned (run shard-partition first)",
    shard.GetShardingOp: "the program is not partitioned (run shard-partition first)",
    shard.ShardShapeOp: "the program is not partitioned (run shard-partition first)",
}


def _fail(op: Operation, why: str) -> DiagnosticError:
    return DiagnosticError(op, f"cannot convert '{op.name}' to StableHLO: {why}")


class _FunctionConversion:
    """Rewrites the shard ops of one function, each in place."""

    def __init__(self, fn: func.FuncOp, target: Target):
        self.fn = fn
        self.target = target
        self.partition = PartitionIndex(fn.body.blocks.first)  # type: ignore[arg-type]
        self.index_values: dict[SSAValue, SSAValue] = {}
        """Scalars derived from shard process queries -> their rank-0 tensor forms, in
        definition order."""
        self.op: Operation = fn
        self.grid_shape: tuple[int, ...] = ()

    # ------------------------------------------------------------ helpers

    def emit(self, new: Operation) -> SSAValue:
        Rewriter.insert_op(new, InsertPoint.before(self.op))
        return new.results[0]

    def fail(self, why: str) -> DiagnosticError:
        return _fail(self.op, why)

    def groups(self, axes: Sequence[int]) -> list[list[int]]:
        return device_groups(self.grid_shape, axes)

    def static_tensor(self, value: SSAValue) -> TensorType:
        if not isinstance(value.type, TensorType):
            raise self.fail(f"{value.type} is not a tensor")
        if any(d < 0 for d in value.type.get_shape()):
            raise self.fail(f"{value.type} has a dynamic shape; XLA needs static shapes")
        return value.type

    def index_tensor(self, value: SSAValue) -> SSAValue:
        """The rank-0 tensor form of an `index` or integer scalar operand."""
        if value in self.index_values:
            return self.index_values[value]
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return scalar_constant(self.emit, owner.value.value.data, value.type)
        raise self.fail(
            "an index operand must be an arith.constant, a shard process query or scalar "
            "arith on them, got the result of "
            f"'{owner.name if isinstance(owner, Operation) else 'a block'}'"
        )

    def derived(self, op: Operation) -> bool:
        """Whether an operand of `op` derives from a process query."""
        return any(o in self.index_values for o in op.operands)

    def group_index(self, axes: Sequence[int]) -> SSAValue:
        return group_index(self.emit, self.partition.linear(), self.grid_shape, axes)

    def same_element_type(self, value: SSAValue, result: Attribute) -> SSAValue:
        """`value` converted to the element type of `result` (all_reduce's accumulation
        type may differ from its operand's)."""
        source = self.static_tensor(value)
        assert isinstance(result, TensorType)
        if source.element_type == result.element_type:
            return value
        return self.emit(hlo.ConvertOp(value, TensorType(result.element_type, source.get_shape())))

    def combiner(self, kind: ReductionKind, element: Attribute) -> type[hlo.BinaryElementwiseOp]:
        if kind not in _COMBINERS:
            raise self.fail(f"reduction kind '{kind.value}' has no StableHLO reducer")
        if kind in _BITWISE and not isinstance(element, IntegerType):
            raise self.fail(
                f"reduction kind '{kind.value}' needs an integer element type, got {element}"
            )
        if kind == ReductionKind.AVERAGE and not isinstance(element, AnyFloat):
            raise self.fail(f"reduction kind 'average' needs a float element type, got {element}")
        return _COMBINERS[kind]

    # ------------------------------------------------------------ driver

    def run(self) -> None:
        for op in list(self.fn.body.walk()):
            if self._convert_index_use(op):
                continue
            convert = _CONVERSIONS.get(type(op))
            if convert is None:
                if type(op) in _NO_COUNTERPART:
                    raise _fail(op, _NO_COUNTERPART[type(op)])
                continue
            self.op = op
            grid = shard.lookup_grid(op, op.grid)  # type: ignore[attr-defined]
            assert grid is not None, "the op's verifier resolves its grid"
            self.grid_shape = grid.shape.get_values()
            results = convert(self, op)
            if results is None:  # index results: replaced at the end
                continue
            for old, new in zip(op.results, results, strict=True):
                old.replace_all_uses_with(new)
            Rewriter.erase_op(op)
        self._finish_index_values()

    def _convert_index_use(self, op: Operation) -> bool:
        """Lowers `op` if it computes with or selects on a derived scalar."""
        if isinstance(op, SCALAR_OPS) and tensor_type(op.results[0].type) and self.derived(op):
            self.op = op
            operands = [self.index_tensor(o) for o in op.operands]
            self.index_values[op.results[0]] = lower_scalar(self.emit, op, operands, self.fail)
            return True
        if isinstance(op, arith.SelectOp) and op.cond in self.index_values:
            self.op = op
            pred = self.index_values[op.cond]
            op.result.replace_all_uses_with(self.emit(hlo.SelectOp(pred, op.lhs, op.rhs)))
            Rewriter.erase_op(op)
            return True
        if isinstance(op, scf.IfOp) and op.cond in self.index_values:
            self.op = op
            _select_branches(self, op)
            return True
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr):
            self.op = op  # tensor constants (e.g. the zeros of a mask) in StableHLO form
            op.result.replace_all_uses_with(self.emit(hlo.ConstantOp(op.value)))
            Rewriter.erase_op(op)
            return True
        return False

    def _finish_index_values(self) -> None:
        """Returned derived scalars become rank-0 tensor results; any other use left
        has no StableHLO form."""
        producers: list[Operation] = []
        for old in self.index_values:
            if old.owner not in producers:
                producers.append(old.owner)  # type: ignore[arg-type]
        returned = False
        for old, new in self.index_values.items():
            for use in list(old.uses):
                if use.operation in producers:
                    continue
                if not isinstance(use.operation, func.ReturnOp):
                    raise _fail(
                        old.owner,  # type: ignore[arg-type]
                        f"its result is used by '{use.operation.name}'; values derived "
                        "from process indices may only feed scalar arith, selects, scf.if "
                        "conditions, collectives' dynamic operands or be returned",
                    )
                use.operation.operands[use.index] = new
                returned = True
        for producer in reversed(producers):
            Rewriter.erase_op(producer)
        if returned:
            self.fn.update_function_type()


# ---------------------------------------------------------------- collectives


def _needs_gather(kind: ReductionKind, element: Attribute) -> bool:
    """Whether `kind` has no all_reduce body XLA runs (see the module docstring)."""
    is_bool = isinstance(element, IntegerType) and element.width.data == 1
    if is_bool and kind in (ReductionKind.BITWISE_AND, ReductionKind.BITWISE_OR):
        return False
    return kind in _BITWISE


def _gathered_reduce(
    c: _FunctionConversion, value: SSAValue, axes: Sequence[int], kind: ReductionKind
) -> SSAValue:
    """Every group member's `value` stacked on a new leading dim by all_gather, then
    reduced over it with `kind`'s op: n times the traffic, any reducer."""
    value_type = c.static_tensor(value)
    element, dims = value_type.element_type, list(value_type.get_shape())
    stacked = c.emit(hlo.ReshapeOp(value, TensorType(element, [1, *dims])))
    gathered = c.emit(hlo.AllGatherOp(stacked, all_gather_dim=0, replica_groups=c.groups(axes)))
    assert isinstance(element, IntegerType)
    all_ones = (
        (1 << element.width.data) - 1 if element.signedness.data == Signedness.UNSIGNED else -1
    )
    identity = all_ones if kind == ReductionKind.BITWISE_AND else 0
    init = c.emit(
        hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [identity]))
    )
    return c.emit(hlo.ReduceOp.create([gathered], [init], [0], _COMBINERS[kind]))


def _all_reduce(
    c: _FunctionConversion,
    value: SSAValue,
    result_type: Attribute,
    axes: Sequence[int],
    kind: ReductionKind,
) -> SSAValue:
    value = c.same_element_type(value, result_type)
    assert isinstance(result_type, TensorType)
    body = c.combiner(kind, result_type.element_type)
    if _needs_gather(kind, result_type.element_type):
        return _gathered_reduce(c, value, axes, kind)
    groups = c.groups(axes)
    reduced = c.emit(hlo.AllReduceOp(value, replica_groups=groups, body_op_class=body))
    if kind == ReductionKind.AVERAGE:
        reduced = _divide_by_group_size(c, reduced, len(groups[0]))
    return reduced


def _divide_by_group_size(c: _FunctionConversion, value: SSAValue, size: int) -> SSAValue:
    count = DenseIntOrFPElementsAttr.from_list(value.type, [float(size)])  # type: ignore[arg-type]
    return c.emit(hlo.DivideOp(value, c.emit(hlo.ConstantOp(count))))


def _convert_all_reduce(c: _FunctionConversion, op: shard.AllReduceOp | shard.ReduceOp):
    c.static_tensor(op.result)
    kind = op.reduction.data
    return [_all_reduce(c, op.input, op.result.type, op.grid_axes_tuple(), kind)]


def _convert_all_gather(c: _FunctionConversion, op: shard.AllGatherOp | shard.GatherOp):
    c.static_tensor(op.input)
    c.static_tensor(op.result)
    dim = op.gather_axis.value.data
    return [
        c.emit(
            hlo.AllGatherOp(
                op.input, all_gather_dim=dim, replica_groups=c.groups(op.grid_axes_tuple())
            )
        )
    ]


def _convert_reduce_scatter(c: _FunctionConversion, op: shard.ReduceScatterOp):
    result_type = c.static_tensor(op.result)
    value = c.same_element_type(op.input, result_type)
    kind, axes, dim = op.reduction.data, op.grid_axes_tuple(), op.scatter_axis.value.data
    body = c.combiner(kind, result_type.element_type)
    if _needs_gather(kind, result_type.element_type):
        return [_local_slice(c, _gathered_reduce(c, value, axes, kind), dim, axes, result_type)]
    groups = c.groups(axes)
    scattered = c.emit(
        hlo.ReduceScatterOp(value, scatter_dimension=dim, replica_groups=groups, body_op_class=body)
    )
    if kind == ReductionKind.AVERAGE:
        scattered = _divide_by_group_size(c, scattered, len(groups[0]))
    return [scattered]


def _convert_all_to_all(c: _FunctionConversion, op: shard.AllToAllOp):
    c.static_tensor(op.input)
    c.static_tensor(op.result)
    groups = c.groups(op.grid_axes_tuple())
    return [
        c.emit(
            hlo.AllToAllOp(
                op.input,
                split_dimension=op.split_axis.value.data,
                concat_dimension=op.concat_axis.value.data,
                split_count=len(groups[0]),
                replica_groups=groups,
            )
        )
    ]


def _local_slice(
    c: _FunctionConversion, value: SSAValue, dim: int, axes: Sequence[int], result_type: TensorType
) -> SSAValue:
    """This device's block of `value` along `dim`, split over `axes`."""
    source = c.static_tensor(value)
    size = result_type.get_shape()[dim]
    offset = c.group_index(axes)
    if size != 1:
        offset = c.emit(hlo.MultiplyOp(offset, constant(c.emit, size)))
    rank = source.get_num_dims()
    zero = constant(c.emit, 0) if rank > 1 else offset
    starts = [offset if d == dim else zero for d in range(rank)]
    return c.emit(hlo.DynamicSliceOp(value, starts, result_type.get_shape()))


def _convert_all_slice(c: _FunctionConversion, op: shard.AllSliceOp):
    result_type = c.static_tensor(op.result)
    return [_local_slice(c, op.input, op.slice_axis.value.data, op.grid_axes_tuple(), result_type)]


def _root_index(c: _FunctionConversion, op: shard.BroadcastOp | shard.ScatterOp) -> int | None:
    """The root's position in its group, when it is static."""
    if op.root_dynamic:
        return None
    index = 0
    for axis, coord in zip(op.grid_axes_tuple(), op.root.get_values(), strict=True):
        index = index * c.grid_shape[axis] + coord
    return index


def _root_tensor(c: _FunctionConversion, op: shard.BroadcastOp | shard.ScatterOp) -> SSAValue:
    """The root's position in its group as `tensor<i64>` (roots may be SSA values)."""
    dynamic = iter(op.root_dynamic)
    digits = [
        c.index_tensor(next(dynamic)) if v == DYNAMIC_INDEX else constant(c.emit, v)
        for v in op.root.get_values()
    ]
    axes = op.grid_axes_tuple()
    return mixed_radix(c.emit, digits, [c.grid_shape[a] for a in axes])


def _broadcast(c: _FunctionConversion, op: shard.BroadcastOp | shard.ScatterOp) -> SSAValue:
    value = op.input
    value_type = c.static_tensor(value)
    groups = c.groups(op.grid_axes_tuple())
    if c.target == "gpu":
        root = _root_index(c, op)
        if root is None:
            raise c.fail(
                "collective_broadcast takes its source from replica_groups, so the "
                "root must be static on target=gpu"
            )
        groups = [[g[root], *g[:root], *g[root + 1 :]] for g in groups]
        return c.emit(hlo.CollectiveBroadcastOp(value, replica_groups=groups))
    # XLA:CPU has no collective_broadcast: the root keeps its value, the others
    # contribute zeros, and an all_reduce over the same groups hands it to everyone.
    element = value_type.element_type
    is_bool = isinstance(element, IntegerType) and element.width.data == 1
    static_root = _root_index(c, op)
    root = constant(c.emit, static_root) if static_root is not None else _root_tensor(c, op)
    is_root = c.emit(hlo.CompareOp(c.group_index(op.grid_axes_tuple()), root, "EQ"))
    zeros = c.emit(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(value_type, [0])))
    masked = c.emit(hlo.SelectOp(is_root, value, zeros))
    body = hlo.OrOp if is_bool else hlo.AddOp
    return c.emit(hlo.AllReduceOp(masked, replica_groups=groups, body_op_class=body))


def _convert_broadcast(c: _FunctionConversion, op: shard.BroadcastOp):
    return [_broadcast(c, op)]


def _convert_scatter(c: _FunctionConversion, op: shard.ScatterOp):
    result_type = c.static_tensor(op.result)
    whole = _broadcast(c, op)
    return [_local_slice(c, whole, op.scatter_axis.value.data, op.grid_axes_tuple(), result_type)]


def _convert_shift(c: _FunctionConversion, op: shard.ShiftOp):
    c.static_tensor(op.input)
    axis, offset = op.shift_axis.value.data, op.offset.value.data
    size, n = c.grid_shape[axis], prod(c.grid_shape)
    stride = prod(c.grid_shape[axis + 1 :])
    pairs = []
    for device in range(n):
        coord = device // stride % size
        target = coord + offset
        if op.rotate is not None:
            target %= size
        elif not 0 <= target < size:
            continue  # off the grid; devices left without a source get zeros (undefined in shard)
        pairs.append((device, device + (target - coord) * stride))
    if not pairs:
        return [c.emit(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(op.result.type, [0])))]
    return [c.emit(hlo.CollectivePermuteOp(op.input, source_target_pairs=pairs))]


def _convert_update_halo(c: _FunctionConversion, op: shard.UpdateHaloOp):
    """Dim by dim, the lower halo gets the last core cells of the previous device in the
    group and the upper halo the first core cells of the next one (collective_permute);
    the group's first and last devices keep their outer halos. Later dims read the
    buffer earlier dims filled, so corners come from diagonal neighbours."""
    value = op.destination
    value_type = c.static_tensor(value)
    if op.halo_sizes:
        raise c.fail("halo sizes must be static")
    split = [(d, axes.get_values()) for d, axes in enumerate(op.split_axes.axes.data)]
    split = [(d, axes) for d, axes in split if axes]
    halos = op.static_halo_sizes.get_values()
    if halos and len(halos) != 2 * len(split):
        raise c.fail(f"expected 2 halo sizes per split dim ({len(split)}), got {len(halos)}")
    shape = value_type.get_shape()
    for i, (dim, axes) in enumerate(split if halos else ()):
        lo, hi = halos[2 * i], halos[2 * i + 1]
        core = shape[dim] - lo - hi
        if lo > core or hi > core:
            raise c.fail(f"halos ({lo}, {hi}) of dim {dim} are wider than its {core} core cells")
        groups = c.groups(axes)
        size = len(groups[0])
        down = [(g[k], g[k + 1]) for g in groups for k in range(size - 1)]
        up = [(b, a) for a, b in down]
        for width, fetch_at, halo_at, pairs, edge in (
            (lo, core, 0, down, 0),
            (hi, lo, lo + core, up, size - 1),
        ):
            if not width or not pairs:
                continue
            piece = _cut(c, value, dim, fetch_at, width)
            received = c.emit(hlo.CollectivePermuteOp(piece, source_target_pairs=pairs))
            at_edge = c.emit(hlo.CompareOp(c.group_index(axes), constant(c.emit, edge), "EQ"))
            halo = c.emit(hlo.SelectOp(at_edge, _cut(c, value, dim, halo_at, width), received))
            zero = constant(c.emit, 0)
            starts = [constant(c.emit, halo_at) if d == dim else zero for d in range(len(shape))]
            value = c.emit(hlo.DynamicUpdateSliceOp(value, halo, starts))
    return [value]


def _cut(c: _FunctionConversion, value: SSAValue, dim: int, start: int, width: int) -> SSAValue:
    """`value[start : start + width]` along `dim`, whole along the other dims."""
    shape = c.static_tensor(value).get_shape()
    starts = [start if d == dim else 0 for d in range(len(shape))]
    limits = [start + width if d == dim else n for d, n in enumerate(shape)]
    return c.emit(hlo.SliceOp(value, starts, limits))


# ---------------------------------------------------------------- device-dependent scf.if


def _select_branches(c: _FunctionConversion, op: scf.IfOp) -> None:
    """Both branches inlined before `op`, then one `stablehlo.select` per result:
    exact for pure branches, and the only form SPMD code has for a per-device choice."""
    if not op.false_region.blocks:
        raise c.fail("an scf.if on a process index needs an else branch to select from")
    for result in op.results:
        if not isinstance(result.type, TensorType):
            raise c.fail(
                f"its result of type {result.type} is not a tensor; a condition on a "
                "process index becomes a stablehlo.select of tensors"
            )
    branches: list[Sequence[SSAValue]] = []
    for region in (op.true_region, op.false_region):
        if len(region.blocks) != 1:
            raise c.fail("each branch must be a single block")
        block = region.block
        for inner in block.ops:
            if isinstance(inner, scf.YieldOp):
                continue
            if not _runs_unconditionally(inner):
                raise c.fail(
                    f"'{inner.name}' in a branch: both branches of an scf.if on a process "
                    "index run on every device, so they may hold only pure StableHLO ops "
                    "and scalar arith"
                )
        yielded = block.last_op
        assert isinstance(yielded, scf.YieldOp)
        branches.append(list(yielded.operands))
        Rewriter.erase_op(yielded, safe_erase=False)
        Rewriter.inline_block(block, InsertPoint.before(op))
    pred = c.index_values[op.cond]
    selected = [
        c.emit(hlo.SelectOp(pred, t, f)) for t, f in zip(branches[0], branches[1], strict=True)
    ]
    for old, new in zip(op.results, selected, strict=True):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(op)


def _runs_unconditionally(op: Operation) -> bool:
    """Whether `op` may run on every device whatever its branch: pure StableHLO, or
    arith this pass lowers."""
    if isinstance(op, (*SCALAR_OPS, arith.ConstantOp)):
        return True
    return op.name.startswith("stablehlo.") and is_side_effect_free(op)


# ---------------------------------------------------------------- process queries


def _query_axes(c: _FunctionConversion, op: shard.ProcessMultiIndexOp | shard.GridShapeOp):
    return op.axes.get_values() or tuple(range(len(c.grid_shape)))


def _index_results(c: _FunctionConversion, op: Operation, values: Sequence[SSAValue]) -> None:
    for old, new in zip(op.results, values, strict=True):
        c.index_values[old] = new


def _convert_linear_index(c: _FunctionConversion, op: shard.ProcessLinearIndexOp):
    _index_results(c, op, [c.partition.linear()])


def _convert_multi_index(c: _FunctionConversion, op: shard.ProcessMultiIndexOp):
    linear = c.partition.linear()
    _index_results(c, op, [coordinate(c.emit, linear, c.grid_shape, a) for a in _query_axes(c, op)])


def _convert_grid_shape(c: _FunctionConversion, op: shard.GridShapeOp):
    _index_results(c, op, [constant(c.emit, c.grid_shape[a]) for a in _query_axes(c, op)])


_CONVERSIONS: dict[type[Operation], Callable[[_FunctionConversion, object], object]] = {
    shard.AllReduceOp: _convert_all_reduce,
    shard.ReduceOp: _convert_all_reduce,
    shard.AllGatherOp: _convert_all_gather,
    shard.GatherOp: _convert_all_gather,
    shard.ReduceScatterOp: _convert_reduce_scatter,
    shard.AllToAllOp: _convert_all_to_all,
    shard.AllSliceOp: _convert_all_slice,
    shard.BroadcastOp: _convert_broadcast,
    shard.ScatterOp: _convert_scatter,
    shard.ShiftOp: _convert_shift,
    shard.UpdateHaloOp: _convert_update_halo,
    shard.ProcessLinearIndexOp: _convert_linear_index,
    shard.ProcessMultiIndexOp: _convert_multi_index,
    shard.GridShapeOp: _convert_grid_shape,
}  # type: ignore[assignment]


# ---------------------------------------------------------------- module


_MAX_PARTITIONS = (1 << 31) - 1


def _device_count(grids: Sequence[shard.GridOp]) -> int:
    """The partition count: every grid of the module must have the same device count."""
    count = None
    for grid in grids:
        shape = grid.shape.get_values()
        if any(d < 0 for d in shape):
            raise _fail(grid, "a dynamic grid has no fixed number of partitions")
        if prod(shape) > _MAX_PARTITIONS:
            raise _fail(
                grid, f"its {prod(shape)} devices exceed what mhlo.num_partitions (i32) counts"
            )
        if count is not None and prod(shape) != count:
            raise _fail(
                grid,
                f"its {prod(shape)} devices differ from the {count} of an "
                "earlier grid; one program runs on one set of partitions",
            )
        count = prod(shape)
    assert count is not None
    return count


def _entry_function(module: ModuleOp) -> func.FuncOp | None:
    """`@main`, else the module's only function (renamed `main`, the name XLA runs)."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    for fn in functions:
        if fn.sym_name.data == "main":
            return fn
    if len(functions) == 1 and not functions[0].is_declaration:
        functions[0].sym_name = StringAttr("main")
        return functions[0]
    return None


def _manual(attrs: ArrayAttr[DictionaryAttr] | None, count: int) -> ArrayAttr[DictionaryAttr]:
    old = attrs.data if attrs is not None else [DictionaryAttr({})] * count
    return ArrayAttr(DictionaryAttr({**d.data, **MANUAL.data}) for d in old)


@dataclass(frozen=True)
class ConvertShardToStablehloPass(ModulePass):
    """Options: `target` = cpu (default; broadcasts as masked all_reduces, which
    XLA:CPU runs) | gpu (`stablehlo.collective_broadcast`)."""

    name = "convert-shard-to-stablehlo"

    target: Target = "cpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        grids = [g for g in op.ops if isinstance(g, shard.GridOp)]
        if not grids:
            return
        count = _device_count(grids)
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                _FunctionConversion(fn, self.target).run()
        for leftover in list(op.walk()):
            if isinstance(leftover, shard.ShardingOp):
                for use in leftover.result.uses:
                    raise DiagnosticError(
                        use.operation,
                        f"'{use.operation.name}' uses a !shard.sharding value, which has no "
                        "StableHLO form",
                    )
                Rewriter.erase_op(leftover)
        for leftover in list(op.walk()):
            if (
                isinstance(leftover, arith.ConstantOp)
                and isinstance(leftover.result.type, IndexType | IntegerType)
                and not leftover.result.uses
            ):
                Rewriter.erase_op(leftover)  # scalar operands, now StableHLO constants
        for grid in grids:
            Rewriter.erase_op(grid)
        op.attributes["mhlo.num_partitions"] = IntegerAttr(count, i32)
        op.attributes["mhlo.num_replicas"] = IntegerAttr(1, i32)
        entry = _entry_function(op)
        if entry is not None:
            entry.arg_attrs = _manual(entry.arg_attrs, len(entry.function_type.inputs))
            entry.res_attrs = _manual(entry.res_attrs, len(entry.function_type.outputs))
