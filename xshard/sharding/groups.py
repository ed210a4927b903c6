"""Device groups of a collective over `grid_axes` (the shard dialect's rule).

Devices that agree on every axis NOT in `grid_axes` form a group. Inside a group,
devices are ordered by their coordinates on `grid_axes`, `grid_axes[0]` outermost.
Groups are listed by the row-major index of their fixed coordinates, which is the
order JAX prints `replica_groups` in for shard_map collectives.
"""

from collections.abc import Sequence
from itertools import product

from xshard.sharding.grid import Grid

__all__ = ["device_groups", "group_of", "group_position", "in_group_index"]


def _grid(grid_shape: Sequence[int | None], grid_axes: Sequence[int]) -> Grid:
    grid = Grid("grid", tuple(grid_shape))
    grid.check_axes(grid_axes)
    return grid


def device_groups(grid_shape: Sequence[int | None], grid_axes: Sequence[int]) -> list[list[int]]:
    """All groups as lists of row-major device ids, each in in-group order."""
    grid = _grid(grid_shape, grid_axes)
    shape = grid.static_shape()
    fixed_axes = [a for a in range(grid.rank) if a not in grid_axes]
    fixed_ranges = [range(shape[a]) for a in fixed_axes]
    member_ranges = [range(shape[a]) for a in grid_axes]
    groups: list[list[int]] = []
    for fixed in product(*fixed_ranges):
        group = []
        for member in product(*member_ranges):
            coords = [0] * grid.rank
            for axis, c in zip(fixed_axes, fixed, strict=True):
                coords[axis] = c
            for axis, c in zip(grid_axes, member, strict=True):
                coords[axis] = c
            group.append(grid.linear_index(coords))
        groups.append(group)
    return groups


def in_group_index(
    grid_shape: Sequence[int | None], grid_axes: Sequence[int], device: Sequence[int]
) -> int:
    """Position of `device` (a multi-index) in its group: the mixed-radix number of its
    coordinates on `grid_axes`, `grid_axes[0]` most significant. Also the index of the
    device's shard along a tensor dim split over `grid_axes`."""
    grid = _grid(grid_shape, grid_axes)
    grid.linear_index(device)  # validates the device
    return group_position(grid.static_shape(), grid_axes, device)


def group_position(
    grid_shape: Sequence[int], grid_axes: Sequence[int], device: Sequence[int]
) -> int:
    """`in_group_index` of axes and a device already checked against the grid."""
    index = 0
    for axis in grid_axes:
        index = index * grid_shape[axis] + device[axis]
    return index


def group_of(
    grid_shape: Sequence[int | None], grid_axes: Sequence[int], device: Sequence[int]
) -> list[int]:
    """The group (row-major ids, in-group order) that `device` belongs to."""
    grid = _grid(grid_shape, grid_axes)
    grid.linear_index(device)
    ids = []
    for member in product(*(range(grid.static_shape()[a]) for a in grid_axes)):
        coords = list(device)
        for axis, c in zip(grid_axes, member, strict=True):
            coords[axis] = c
        ids.append(grid.linear_index(coords))
    return ids
