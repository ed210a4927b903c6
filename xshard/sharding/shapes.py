"""Shard-shape arithmetic: global shape + sharding -> each device's local block."""

import functools
from collections.abc import Sequence
from itertools import pairwise

from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.groups import group_position
from xshard.sharding.sharding import Sharding

__all__ = ["shard_offset", "shard_shape"]

Shape = tuple[int | None, ...]


def _check(global_shape: Sequence[int | None], sharding: Sharding, grid: Grid) -> None:
    """What the queries take on trust after: the sharding on the grid (checked once per
    pair, `Sharding.check`) and the tensor's rank. A device asked about is checked once
    per query, before its position along any axes is read."""
    sharding.check(grid)
    if len(sharding.split_axes) > len(global_shape):
        raise ShardingError(
            f"sharding {sharding} splits dim {len(sharding.split_axes) - 1} "
            f"of a tensor of rank {len(global_shape)}"
        )


def _even_extent(size: int | None, dim: int, sharding: Sharding, grid: Grid) -> int | None:
    axes = sharding.axes_of(dim)
    shards = grid.size_along(axes)
    if size is None or shards is None:
        return None
    if size % shards:
        raise ShardingError(
            f"dim {dim} of size {size} is not divisible by the {shards} shards of grid axes "
            f"{list(axes)} (sharding {sharding})"
        )
    return size // shards


def _uneven_extents(
    size: int | None, dim: int, offsets: Sequence[int | None], sharding: Sharding
) -> list[int | None]:
    if size is not None and offsets[-1] is not None and offsets[-1] != size:
        raise ShardingError(
            f"sharded dims offsets of dim {dim} end at {offsets[-1]}, "
            f"not at its size {size} ({sharding})"
        )
    return [None if a is None or b is None else b - a for a, b in pairwise(offsets)]


def shard_shape(
    global_shape: Sequence[int | None],
    sharding: Sharding,
    grid: Grid,
    device: Sequence[int] | None = None,
) -> Shape:
    """The local shape on `device` (a multi-index), or the one all devices share.

    Each split dim is divided by the product of its axes' sizes (upstream's
    `shardShapedType`), then halos add `lo + hi`. With `sharded_dims_offsets` a dim's
    extent is the device's own when `device` is given, else static only if every shard
    has the same extent. Upstream 22.1.8 counts a dim's shards as the *sum* of its axes'
    sizes when reading offsets; that is only right for one axis, so xshard uses the product.
    `None` is a size known only at run time.
    """
    where = None if device is None else tuple(device)
    return _shard_shape(tuple(global_shape), sharding, grid, where)


@functools.lru_cache(maxsize=8192)
def _shard_shape(
    global_shape: Shape, sharding: Sharding, grid: Grid, device: tuple[int, ...] | None
) -> Shape:
    """`shard_shape`, once per question: the passes ask the same few many times."""
    _check(global_shape, sharding, grid)
    if device is not None and sharding.sharded_dims_offsets:
        grid.linear_index(device)
    local: list[int | None] = []
    for dim, size in enumerate(global_shape):
        axes = sharding.axes_of(dim)
        if not axes:
            local.append(size)
            continue
        offsets = sharding.offsets_of(dim, grid)
        if offsets is not None:
            extents = _uneven_extents(size, dim, offsets, sharding)
            if device is not None:
                local.append(extents[group_position(grid.shape, axes, device)])  # type: ignore[arg-type]
            else:
                local.append(extents[0] if len(set(extents)) == 1 else None)
            continue
        extent = _even_extent(size, dim, sharding, grid)
        lo, hi = sharding.halo_of(dim)
        local.append(None if extent is None or lo is None or hi is None else extent + lo + hi)
    return tuple(local)


def shard_offset(
    global_shape: Sequence[int | None],
    sharding: Sharding,
    grid: Grid,
    device: Sequence[int],
) -> tuple[int, ...]:
    """Global index where `device`'s block starts in each dim (halos excluded).

    The device's shard along a dim split over axes `(a0, a1, ...)` is the mixed-radix
    number of its coordinates on those axes, `a0` most significant.
    """
    _check(global_shape, sharding, grid)
    if sharding.split_dims:
        grid.linear_index(device)
    start: list[int] = []
    for dim, size in enumerate(global_shape):
        axes = sharding.axes_of(dim)
        if not axes:
            start.append(0)
            continue
        shard = group_position(grid.shape, axes, device)  # type: ignore[arg-type]
        offsets = sharding.offsets_of(dim, grid)
        if offsets is not None:
            _uneven_extents(size, dim, offsets, sharding)
            begin = offsets[shard]
        else:
            extent = _even_extent(size, dim, sharding, grid)
            begin = None if extent is None else shard * extent
        if begin is None:
            raise ShardingError(
                f"the offset of dim {dim} under {sharding} is only known at run time"
            )
        start.append(begin)
    return tuple(start)
