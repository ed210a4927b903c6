"""A numpy model of sharded tensors: lay a global array out on a grid, run the shard
collectives on the per-device blocks, and read the global value back.

It lets tests prove a resharding plan (or a partitioned program) right by running it,
rather than by comparing it with the plan the test author expected.
"""

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache, reduce
from math import prod

import numpy as np

from xshard.sharding.grid import Grid
from xshard.sharding.groups import device_groups, group_of, in_group_index
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.resharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    MakePartial,
    ReduceScatter,
    Step,
    UpdateHalo,
)
from xshard.sharding.shapes import shard_offset, shard_shape
from xshard.sharding.sharding import Sharding

__all__ = ["PerDevice", "SimulationError", "apply_step", "assemble", "combine", "distribute"]

PerDevice = dict[tuple[int, ...], np.ndarray]


class SimulationError(Exception):
    """Per-device data that does not match the layout it claims, or a step that cannot run."""


_COMBINE = {
    ReductionKind.SUM: np.add,
    ReductionKind.AVERAGE: np.add,
    ReductionKind.PRODUCT: np.multiply,
    ReductionKind.MAX: np.maximum,
    ReductionKind.MIN: np.minimum,
    ReductionKind.BITWISE_AND: np.bitwise_and,
    ReductionKind.BITWISE_OR: np.bitwise_or,
    ReductionKind.BITWISE_XOR: np.bitwise_xor,
}


def combine(kind: ReductionKind, operands: Sequence[np.ndarray]) -> np.ndarray:
    """The true value of partial `operands`, combined in the order given."""
    if kind not in _COMBINE:
        raise SimulationError(f"no numpy combiner for reduction kind {kind.value}")
    total = reduce(_COMBINE[kind], operands)
    return total / len(operands) if kind == ReductionKind.AVERAGE else total


def _operands(
    value: np.ndarray, kind: ReductionKind, count: int, rng: np.random.Generator
) -> list[np.ndarray]:
    """`count` arrays that `combine(kind, ...)` turns back into `value`, none of them trivially."""
    if count == 1:
        return [value]
    shape = value.shape
    chosen = rng.integers(count, size=shape)  # where MAX/MIN/AND/OR keep the true value
    junk = [rng.integers(1, 10, size=shape).astype(value.dtype) for _ in range(count)]
    if kind in (ReductionKind.SUM, ReductionKind.AVERAGE):
        total = value * count if kind == ReductionKind.AVERAGE else value
        others = [rng.integers(-9, 10, size=shape).astype(value.dtype) for _ in range(count - 1)]
        return [*others, total - reduce(np.add, others)]
    if kind == ReductionKind.PRODUCT:  # powers of two keep the division exact
        others = [
            rng.choice([-2.0, -0.5, 0.5, 2.0], size=shape).astype(value.dtype)
            for _ in range(count - 1)
        ]
        return [*others, value / reduce(np.multiply, others)]
    if kind == ReductionKind.MAX:
        return [np.where(chosen == p, value, value - junk[p]) for p in range(count)]
    if kind == ReductionKind.MIN:
        return [np.where(chosen == p, value, value + junk[p]) for p in range(count)]
    if kind == ReductionKind.BITWISE_AND:
        return [np.where(chosen == p, value, value | junk[p]) for p in range(count)]
    if kind == ReductionKind.BITWISE_OR:
        return [np.where(chosen == p, value, value & junk[p]) for p in range(count)]
    if kind == ReductionKind.BITWISE_XOR:
        return [*junk[1:], value ^ reduce(np.bitwise_xor, junk[1:])]
    raise SimulationError(f"cannot make partial operands for reduction kind {kind.value}")


def _window(array: np.ndarray, begin: Sequence[int], shape: Sequence[int]) -> np.ndarray:
    """`array[begin : begin + shape]`, zero where the window leaves the array."""
    out = np.zeros(shape, dtype=array.dtype)
    src, dst = [], []
    for b, n, size in zip(begin, shape, array.shape, strict=True):
        lo, hi = max(b, 0), min(b + n, size)
        src.append(slice(lo, max(lo, hi)))
        dst.append(slice(lo - b, lo - b + max(0, hi - lo)))
    out[tuple(dst)] = array[tuple(src)]
    return out


# Sweeps lay out the same few shardings thousands of times: the geometry is cached.
_group_index = lru_cache(maxsize=1 << 16)(in_group_index)


@lru_cache(maxsize=1 << 16)
def _placement(
    global_shape: tuple[int, ...], sharding: Sharding, grid: Grid, device: tuple[int, ...]
):
    """Where `device`'s local block starts (halo included), its local shape, where its
    core block starts and the core's shape."""
    start = shard_offset(global_shape, sharding, grid, device)
    lo = [sharding.halo_of(d)[0] for d in range(len(global_shape))]
    local = shard_shape(global_shape, sharding, grid, device)
    extent = shard_shape(global_shape, replace(sharding, halo_sizes=()), grid, device)
    return tuple(s - h for s, h in zip(start, lo, strict=True)), local, start, extent


def distribute(
    global_array: np.ndarray, sharding: Sharding, grid: Grid, rng: np.random.Generator | None = None
) -> PerDevice:
    """Each device's block of `global_array` under `sharding`.

    Partial axes get random operands that combine to the global value; halos hold the
    neighbours' data, and zeros where they stick out of the array.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    operands = _operands(
        global_array,
        sharding.partial_kind,
        prod(grid.static_shape()[a] for a in sharding.partial_axes),
        rng,
    )
    per_device: PerDevice = {}
    for device in grid.devices():
        begin, local, _, _ = _placement(global_array.shape, sharding, grid, device)
        operand = operands[_group_index(grid.shape, sharding.partial_axes, device)]
        per_device[device] = _window(operand, begin, local)  # type: ignore[arg-type]
    return per_device


def assemble(
    per_device: PerDevice, sharding: Sharding, grid: Grid, global_shape: Sequence[int]
) -> np.ndarray:
    """The global value that `per_device` holds under `sharding`.

    Raises `SimulationError` if a block has the wrong shape, if devices that should hold
    the same data (replicas, or a halo and the neighbour it copies) disagree, or if part
    of the tensor is held by no device.
    """
    if set(per_device) != set(grid.devices()):
        raise SimulationError(
            f"expected one block per device of @{grid.name}, got {sorted(per_device)}"
        )
    global_shape = tuple(global_shape)
    count = prod(grid.static_shape()[a] for a in sharding.partial_axes)
    dtype = next(iter(per_device.values())).dtype
    operands = [np.zeros(global_shape, dtype=dtype) for _ in range(count)]
    filled = [np.zeros(global_shape, dtype=bool) for _ in range(count)]
    for device, block in per_device.items():
        begin, local, start, extent = _placement(global_shape, sharding, grid, device)
        if block.shape != local:
            raise SimulationError(
                f"device {device} holds a {block.shape} block, {sharding} gives {local}"
            )
        inner = tuple(slice(s - b, s - b + n) for s, b, n in zip(start, begin, extent, strict=True))  # type: ignore[operator]
        where = tuple(slice(s, s + n) for s, n in zip(start, extent, strict=True))  # type: ignore[operator]
        p = _group_index(grid.shape, sharding.partial_axes, device)
        seen = filled[p][where]
        if not np.array_equal(operands[p][where][seen], block[inner][seen], equal_nan=True):
            raise SimulationError(
                f"device {device} disagrees with a replica of its block under {sharding}"
            )
        operands[p][where] = block[inner]
        filled[p][where] = True
    if not all(f.all() for f in filled):
        raise SimulationError(f"part of the tensor is held by no device under {sharding}")
    for device, block in per_device.items():
        begin, local, _, _ = _placement(global_shape, sharding, grid, device)
        p = _group_index(grid.shape, sharding.partial_axes, device)
        inside = _window(np.ones(global_shape, dtype=bool), begin, local)  # type: ignore[arg-type]
        if not np.array_equal(
            block[inside],
            _window(operands[p], begin, local)[inside],  # type: ignore[arg-type]
            equal_nan=True,
        ):
            raise SimulationError(
                f"the halo of device {device} disagrees with its neighbours under {sharding}"
            )
    return combine(sharding.partial_kind, operands)


def _pieces(block: np.ndarray, n: int, dim: int, step: Step) -> list[np.ndarray]:
    if block.shape[dim] % n:
        raise SimulationError(f"{step}: dim {dim} of a {block.shape} block does not split in {n}")
    return np.split(block, n, axis=dim)


_IDENTITY = {ReductionKind.SUM: 0, ReductionKind.PRODUCT: 1, ReductionKind.BITWISE_XOR: 0}


def apply_step(per_device: PerDevice, step: Step, grid: Grid) -> PerDevice:
    """Run one collective on every group of devices, as the shard dialect defines it."""
    if isinstance(step, UpdateHalo):
        return _update_halo(per_device, step, grid)
    if isinstance(step, MakePartial):
        return _make_partial(per_device, step, grid)
    result: PerDevice = {}
    for group in device_groups(grid.shape, step.axes):
        devices = [grid.multi_index(i) for i in group]
        blocks = [per_device[d] for d in devices]
        n = len(devices)
        for j, device in enumerate(devices):
            if isinstance(step, AllReduce):
                result[device] = combine(step.kind, blocks)
            elif isinstance(step, ReduceScatter):
                result[device] = _pieces(combine(step.kind, blocks), n, step.dim, step)[j]
            elif isinstance(step, AllGather):
                result[device] = np.concatenate(blocks, axis=step.dim)
            elif isinstance(step, AllSlice):
                result[device] = _pieces(blocks[j], n, step.dim, step)[j]
            else:
                assert isinstance(step, AllToAll)
                parts = [_pieces(b, n, step.split_dim, step)[j] for b in blocks]
                result[device] = np.concatenate(parts, axis=step.concat_dim)
    return result


def _make_partial(per_device: PerDevice, step: MakePartial, grid: Grid) -> PerDevice:
    """The first device of each group keeps its block, the others hold the identity
    (every device keeps its block for an idempotent kind)."""
    if not step.masks:
        return dict(per_device)
    if step.kind not in _IDENTITY:
        raise SimulationError(f"{step}: no identity for reduction kind {step.kind.value}")
    return {
        device: block
        if _group_index(grid.shape, step.axes, device) == 0
        else np.full_like(block, _IDENTITY[step.kind])
        for device, block in per_device.items()
    }


def _update_halo(per_device: PerDevice, step: UpdateHalo, grid: Grid) -> PerDevice:
    """Keep each core block, then fill the new halos dim by dim from the neighbours'
    buffers (so corners come from diagonal neighbours); halos past the edge stay zero."""
    buffers: PerDevice = {}
    for device, block in per_device.items():
        core_at = [slice(None)] * block.ndim
        pad = [(0, 0)] * block.ndim
        for d, (slo, shi), (dlo, dhi) in zip(
            step.split_dims, step.src_pairs, step.dst_pairs, strict=True
        ):
            core_at[d] = slice(slo, block.shape[d] - shi)
            pad[d] = (dlo, dhi)
        buffers[device] = np.pad(block[tuple(core_at)], pad)
    for d, (lo, hi) in zip(step.split_dims, step.dst_pairs, strict=True):
        axes = step.split_axes[d]
        updated = {device: buffer.copy() for device, buffer in buffers.items()}
        for device, buffer in updated.items():
            core = buffer.shape[d] - lo - hi
            if lo > core or hi > core:
                raise SimulationError(
                    f"{step}: halos wider than the {core} core elements of dim {d}"
                )
            group = group_of(grid.shape, axes, device)
            k = group.index(grid.linear_index(device))
            if lo and k > 0:
                prev = buffers[grid.multi_index(group[k - 1])]
                _along(buffer, d, slice(0, lo))[...] = _along(prev, d, slice(core, core + lo))
            if hi and k + 1 < len(group):
                nxt = buffers[grid.multi_index(group[k + 1])]
                _along(buffer, d, slice(lo + core, lo + core + hi))[...] = _along(
                    nxt, d, slice(lo, lo + hi)
                )
        buffers = updated
    return buffers


def _along(array: np.ndarray, dim: int, part: slice) -> np.ndarray:
    index = [slice(None)] * array.ndim
    index[dim] = part
    return array[tuple(index)]
