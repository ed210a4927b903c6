"""From a resharding plan to shard collectives on a local value.

`plan_reshard` picks the steps; this module only writes each one as the shard
op that performs it, typed with the plan's local shapes. Halo changes have no
single collective: the old halos are sliced off locally, the block is padded to
its new extent and `shard.update_halo` fills the new halos from the neighbours.
Making a value partial has none either, and needs none: each device selects
between its block and the reduction's identity by its place in the group.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i1
from xdsl.ir import Operation, SSAValue

from xshard.diagnostics import DiagnosticError
from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.stablehlo_partition import reduction_identity
from xshard.sharding.grid import Grid
from xshard.sharding.resharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    MakePartial,
    ReduceScatter,
    Step,
    UpdateHalo,
    plan_reshard,
)
from xshard.sharding.sharding import Sharding, ShardingError
from xshard.sharding.tensor_bytes import element_bytes
from xshard.xdsl_compat.dense_splat import splat_attr, splat_element


def emit_reshard(
    builder: Builder,
    at: Operation,
    value: SSAValue,
    src: Sharding,
    dst: Sharding,
    global_type: TensorType,
    grid: Grid,
) -> SSAValue:
    """`value`, the local block under `src`, as the local block under `dst`; for an
    empty tensor (a dim of 0), an empty constant.

    Errors are reported at `at`."""
    try:
        plan = plan_reshard(src, dst, global_type.get_shape(), grid, element_bytes(global_type))
    except ShardingError as err:
        raise DiagnosticError(at, str(err)) from err
    if 0 in global_type.get_shape() and None not in plan.local_shapes[-1]:
        # an empty tensor holds nothing to move (XLA refuses collectives of one)
        empty = TensorType(global_type.element_type, plan.local_shapes[-1])
        return builder.insert(
            hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(empty, []))
        ).results[0]
    for step, shape in zip(plan.steps, plan.local_shapes[1:], strict=True):
        if None in shape:
            raise DiagnosticError(
                at, f"cannot reshard {src} -> {dst}: local shapes are only known at run time"
            )
        out = TensorType(global_type.element_type, shape)
        if isinstance(step, MakePartial):
            value = _emit_make_partial(builder, value, step, out, grid)
        else:
            value = _emit_step(builder, value, step, out, grid.name)
    return value


def _emit_step(
    builder: Builder, value: SSAValue, step: Step, out: TensorType, grid: str
) -> SSAValue:
    match step:
        case AllReduce(axes, kind):
            op: Operation = shard.AllReduceOp(value, grid, axes, kind)
        case ReduceScatter(axes, dim, kind):
            op = shard.ReduceScatterOp(value, grid, axes, dim, out, kind)
        case AllGather(axes, dim):
            op = shard.AllGatherOp(value, grid, axes, dim, out)
        case AllSlice(axes, dim):
            op = shard.AllSliceOp(value, grid, axes, dim, out)
        case AllToAll(axes, split_dim, concat_dim):
            op = shard.AllToAllOp(value, grid, axes, split_dim, concat_dim, out)
        case UpdateHalo():
            return _emit_halo(builder, value, step, grid)
    return builder.insert(op).results[0]


def _emit_make_partial(
    builder: Builder, value: SSAValue, step: MakePartial, t: TensorType, grid: Grid
) -> SSAValue:
    """`select(first in its group, value, identity)`; the first device's place comes from
    its slice of a constant `[true, false, ...]` table, as all_slice finds it. An
    idempotent kind, or a value that already is the identity, needs no mask."""
    identity = reduction_identity(step.kind, t.element_type)
    if not step.masks or _is_splat(value, identity):
        return value
    n = grid.group_size(step.axes)
    assert identity is not None and n is not None, "masking kinds have one; grids are static"
    first = DenseIntOrFPElementsAttr.from_list(TensorType(i1, [n]), [1] + [0] * (n - 1))
    table = builder.insert(hlo.ConstantOp(first))
    mine = builder.insert(shard.AllSliceOp(table, grid.name, step.axes, 0, TensorType(i1, [1])))
    mask = builder.insert(hlo.ReshapeOp(mine, TensorType(i1, []))).results[0]
    if t.get_shape():
        mask = builder.insert(
            hlo.BroadcastInDimOp(mask, [], TensorType(i1, t.get_shape()))
        ).results[0]
    other = builder.insert(hlo.ConstantOp(splat_attr(t, identity)))
    return builder.insert(hlo.SelectOp(mask, value, other)).results[0]


def _is_splat(value: SSAValue, element: float | int | None) -> bool:
    """Whether `value` is a constant holding `element` everywhere: the identity it
    would be masked to, so masking changes nothing."""
    op = value.owner
    return isinstance(op, hlo.ConstantOp) and splat_element(op.value) == (element,)


def _emit_halo(builder: Builder, value: SSAValue, step: UpdateHalo, grid: str) -> SSAValue:
    t = value.type
    assert isinstance(t, TensorType)
    shape = list(t.get_shape())
    rank = len(shape)
    if step.src_halo_sizes:
        lo, hi = [0] * rank, list(shape)
        for d, (slo, shi) in zip(step.split_dims, step.src_pairs, strict=True):
            lo[d], hi[d] = slo, shape[d] - shi
        value = builder.insert(hlo.SliceOp(value, lo, hi)).results[0]
    if not step.dst_halo_sizes:
        return value
    low, high = [0] * rank, [0] * rank
    for d, (dlo, dhi) in zip(step.split_dims, step.dst_pairs, strict=True):
        low[d], high[d] = dlo, dhi
    zero = builder.insert(hlo.ConstantOp(splat_attr(TensorType(t.element_type, []), 0)))
    padded = builder.insert(hlo.PadOp(value, zero.results[0], low, high)).results[0]
    return builder.insert(
        shard.UpdateHaloOp(padded, grid, step.split_axes, step.dst_halo_sizes)
    ).results[0]
