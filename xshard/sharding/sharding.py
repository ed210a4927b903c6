"""`Sharding`: how a tensor is laid out on a grid (split, partial, halos, offsets)."""

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.reduction import ReductionKind

__all__ = ["Sharding", "ShardingError"]


def _fmt(values: Iterable[int | None]) -> str:
    return "[" + ", ".join("?" if v is None else str(v) for v in values) + "]"


@dataclass(frozen=True)
class Sharding:
    """The value of a `shard.sharding` op, plus xshard's partial axes.

    `split_axes[d]` lists the grid axes tensor dim `d` is split over, major to minor.
    `partial_axes` are the axes along which devices hold operands of `partial_kind`
    that combine into the true value. Halo sizes are flat `(lo, hi)` pairs, one per
    split dim; `sharded_dims_offsets` give, per split dim, every shard's start plus
    the end of the last one. `None` in halos or offsets is a size known at run time.

    Stored normalized so that equal layouts compare equal: trailing unsplit dims are
    dropped (`[[0], []]` == `[[0]]`), all-zero halos are no halos (as upstream's
    canonicalizer has it), and the kind is `sum` when nothing is partial.
    """

    grid: str
    split_axes: tuple[tuple[int, ...], ...] = ()
    partial_axes: tuple[int, ...] = ()
    partial_kind: ReductionKind = ReductionKind.SUM
    halo_sizes: tuple[int | None, ...] = ()
    sharded_dims_offsets: tuple[int | None, ...] = ()

    def __post_init__(self) -> None:
        split = [tuple(axes) for axes in self.split_axes]
        while split and not split[-1]:
            split.pop()
        set_ = object.__setattr__
        set_(self, "split_axes", tuple(split))
        set_(self, "partial_axes", tuple(self.partial_axes))
        kind = ReductionKind(self.partial_kind) if self.partial_axes else ReductionKind.SUM
        set_(self, "partial_kind", kind)
        set_(
            self,
            "halo_sizes",
            tuple(self.halo_sizes) if any(h != 0 for h in self.halo_sizes) else (),
        )
        set_(self, "sharded_dims_offsets", tuple(self.sharded_dims_offsets))
        self._verify()

    def _verify(self) -> None:
        seen: set[int] = set()
        for axis in (*(a for axes in self.split_axes for a in axes), *self.partial_axes):
            if axis < 0:
                raise ShardingError(
                    f"grid axis is expected to be non-negative, got {axis} in {self}"
                )
            if axis in seen:
                raise ShardingError(f"grid axis {axis} duplicated in {self}")
            seen.add(axis)
        if self.halo_sizes and self.sharded_dims_offsets:
            raise ShardingError(f"halo sizes and shard offsets are mutually exclusive in {self}")
        if self.halo_sizes and len(self.halo_sizes) != 2 * len(self.split_dims):
            raise ShardingError(
                f"halo sizes must be specified for all split axes: "
                f"{len(self.split_dims)} split dims need {2 * len(self.split_dims)} halo sizes, "
                f"got {len(self.halo_sizes)} in {self}"
            )
        if any(h is not None and h < 0 for h in self.halo_sizes):
            raise ShardingError(f"halo sizes must be non-negative in {self}")

    @classmethod
    def of(
        cls,
        grid: Grid | str,
        split_axes: Sequence[Sequence[int]] = (),
        partial_axes: Sequence[int] = (),
        partial_kind: ReductionKind | str = ReductionKind.SUM,
        halo_sizes: Sequence[int | None] = (),
        sharded_dims_offsets: Sequence[int | None] = (),
    ) -> "Sharding":
        """Build from lists; given a `Grid` (not just its name), also check against it."""
        sharding = cls(
            grid.name if isinstance(grid, Grid) else grid,
            tuple(tuple(axes) for axes in split_axes),
            tuple(partial_axes),
            ReductionKind(partial_kind),
            tuple(halo_sizes),
            tuple(sharded_dims_offsets),
        )
        if isinstance(grid, Grid):
            sharding.check(grid)
        return sharding

    @classmethod
    def replicated(cls, grid: Grid | str) -> "Sharding":
        return cls(grid.name if isinstance(grid, Grid) else grid)

    def check(self, grid: Grid) -> None:
        """The rules that need the grid: its name, axis bounds, and the offsets' count.

        Each (sharding, grid) pair is checked once, when first asked (by `Sharding.of`
        given a `Grid`, or by the first query): the queries (`shard_shape`,
        `shard_offset`, the simulator's per-device placement) call it on every question
        and then trust the axes, so running a program does not re-check the same layout
        for every device. A failing pair is not remembered: it fails again, alike."""
        _check_on_grid(self, grid)

    @property
    def is_partial(self) -> bool:
        return bool(self.partial_axes)

    @property
    def is_replicated(self) -> bool:
        """No split and no partial axis: every device holds the whole value."""
        return not self.split_axes and not self.partial_axes

    @property
    def split_dims(self) -> tuple[int, ...]:
        return tuple(d for d, axes in enumerate(self.split_axes) if axes)

    @property
    def used_axes(self) -> tuple[int, ...]:
        """Split axes (dim by dim, major to minor), then partial axes."""
        return (*(a for axes in self.split_axes for a in axes), *self.partial_axes)

    def axes_of(self, dim: int) -> tuple[int, ...]:
        return self.split_axes[dim] if dim < len(self.split_axes) else ()

    def halo_of(self, dim: int) -> tuple[int | None, int | None]:
        """`(lo, hi)` halo of tensor dim `dim`; `(0, 0)` for an unsplit dim or no halos."""
        if not self.halo_sizes or not self.axes_of(dim):
            return (0, 0)
        i = self.split_dims.index(dim)
        return (self.halo_sizes[2 * i], self.halo_sizes[2 * i + 1])

    def offsets_of(self, dim: int, grid: Grid) -> tuple[int | None, ...] | None:
        """The shard boundaries of `dim` (shard count + 1 values), or None if not given."""
        if not self.sharded_dims_offsets or not self.axes_of(dim):
            return None
        i = self.split_dims.index(dim)
        counts = [grid.size_along(self.axes_of(d)) + 1 for d in self.split_dims]  # type: ignore[operator]
        start = sum(counts[:i])
        return self.sharded_dims_offsets[start : start + counts[i]]

    def __str__(self) -> str:
        text = (
            f"@{self.grid} split_axes = ["
            + ", ".join(_fmt(a) for a in self.split_axes or [()])
            + "]"
        )
        if self.partial_axes:
            text += f" partial = {self.partial_kind.value} {_fmt(self.partial_axes)}"
        if self.halo_sizes:
            text += f" halo_sizes = {_fmt(self.halo_sizes)}"
        if self.sharded_dims_offsets:
            text += f" sharded_dims_offsets = {_fmt(self.sharded_dims_offsets)}"
        return text


@functools.lru_cache(maxsize=4096)
def _check_on_grid(sharding: Sharding, grid: Grid) -> None:
    """`Sharding.check`'s rules, run once per pair (a raise is not cached)."""
    if grid.name != sharding.grid:
        raise ShardingError(
            f"sharding {sharding} refers to grid @{sharding.grid}, not @{grid.name}"
        )
    grid.check_axes(sharding.used_axes)
    if not sharding.sharded_dims_offsets:
        return
    if not grid.is_static:
        raise ShardingError(
            f"sharded dims offsets are not allowed for device grids with dynamic shape: {sharding}"
        )
    expected = sum(grid.size_along(sharding.axes_of(d)) + 1 for d in sharding.split_dims)  # type: ignore[operator]
    if len(sharding.sharded_dims_offsets) != expected:
        raise ShardingError(
            f"sharded dims offsets has wrong size: {sharding} needs {expected} "
            f"(shard count + 1 per split dim), got {len(sharding.sharded_dims_offsets)}"
        )
    for dim in sharding.split_dims:
        static = [o for o in sharding.offsets_of(dim, grid) or () if o is not None]
        if any(a > b for a, b in pairwise(static)):
            raise ShardingError(
                f"sharded dims offsets must be non-decreasing in dim {dim} of {sharding}"
            )
