"""Device grids: named N-D arrays of devices, as declared by `shard.grid`."""

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xshard.sharding.errors import ShardingError


@dataclass(frozen=True)
class Grid:
    """A device grid; `None` marks an axis whose size is only known at run time.

    Devices are numbered row-major over the whole grid (last axis fastest), the
    linearization of the shard dialect and of StableHLO's `partition_id`.
    """

    name: str
    shape: tuple[int | None, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.shape))
        if not self.shape:
            raise ShardingError(
                f"grid @{self.name}: rank of grid is expected to be a positive integer"
            )
        for axis, size in enumerate(self.shape):
            if size is not None and size < 0:
                raise ShardingError(f"grid @{self.name}: axis {axis} has negative size {size}")

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return None not in self.shape

    @property
    def device_count(self) -> int | None:
        return self.group_size(range(self.rank))

    def check_axes(self, axes: Sequence[int]) -> None:
        """Reject axes out of range or repeated, with the shard dialect's wording."""
        seen: set[int] = set()
        for axis in axes:
            if not 0 <= axis < self.rank:
                raise ShardingError(
                    f"0-based grid axis index {axis} is out of bounds. "
                    f'The referenced grid "{self.name}" is of rank {self.rank}.'
                )
            if axis in seen:
                raise ShardingError(f"grid axis {axis} is used more than once in {list(axes)}")
            seen.add(axis)

    def axis_size(self, axis: int) -> int | None:
        self.check_axes((axis,))
        return self.shape[axis]

    def group_size(self, axes: Sequence[int]) -> int | None:
        """Number of devices in a group spanned by `axes` (product of their sizes)."""
        self.check_axes(axes)
        return self.size_along(axes)

    def size_along(self, axes: Sequence[int]) -> int | None:
        """`group_size` of axes known to be valid (those of a sharding checked against
        this grid), without checking them again."""
        sizes = [self.shape[axis] for axis in axes]
        return None if None in sizes else prod(sizes)  # type: ignore[arg-type]

    def static_shape(self) -> tuple[int, ...]:
        """The shape, or a `ShardingError` when an axis is dynamic."""
        if not self.is_static:
            raise ShardingError(
                f"grid @{self.name} has a dynamic shape; device indices need a static one"
            )
        return self.shape  # type: ignore[return-value]

    def multi_index(self, linear: int) -> tuple[int, ...]:
        """Coordinates of the device with row-major index `linear`."""
        shape = self.static_shape()
        if not 0 <= linear < prod(shape):
            raise ShardingError(
                f"device {linear} is out of range for grid @{self.name} of {prod(shape)} devices"
            )
        coords: list[int] = []
        for size in reversed(shape):
            linear, coord = divmod(linear, size)
            coords.append(coord)
        return tuple(reversed(coords))

    def linear_index(self, multi: Sequence[int]) -> int:
        """Row-major index of the device at coordinates `multi`."""
        shape = self.static_shape()
        if len(multi) != len(shape) or any(
            not 0 <= c < s for c, s in zip(multi, shape, strict=True)
        ):
            raise ShardingError(
                f"device {tuple(multi)} is not a device of grid @{self.name} of shape {shape}"
            )
        linear = 0
        for coord, size in zip(multi, shape, strict=True):
            linear = linear * size + coord
        return linear

    def devices(self) -> list[tuple[int, ...]]:
        """All device multi-indices, in linear order."""
        return [self.multi_index(i) for i in range(prod(self.static_shape()))]
