"""The resharding planner: from one sharding of a tensor to another, as collectives.

`plan_reshard` searches the layouts reachable by the shard dialect's collectives
(each step below changes the layout the way its collective does), plus the local
`MakePartial`, for the cheapest sequence under a ring cost model, then replays the
plan to prove it lands on the target.
"""

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, permutations
from math import prod

from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding

__all__ = [
    "AllGather",
    "AllReduce",
    "AllSlice",
    "AllToAll",
    "MakePartial",
    "ReduceScatter",
    "ReshardError",
    "ReshardPlan",
    "Step",
    "UpdateHalo",
    "nominal_bytes",
    "nominal_group",
    "plan_reshard",
    "step_cost",
]

Shape = tuple[int | None, ...]
Axes = tuple[int, ...]

# The cost model needs sizes; what only run time knows is counted as these.
NOMINAL_DYNAMIC_EXTENT = 1024
NOMINAL_DYNAMIC_AXIS_SIZE = 2


class ReshardError(ShardingError):
    """A reshard that no sequence of collectives performs (or that xshard refuses)."""


def _fmt(axes: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, axes)) + "]"


def _dims(sharding: Sharding, rank: int) -> list[Axes]:
    return [sharding.axes_of(d) for d in range(rank)]


def _require_plain(sharding: Sharding, step: object) -> None:
    if sharding.halo_sizes or sharding.sharded_dims_offsets:
        raise ReshardError(f"{step} needs a sharding without halos or offsets, got {sharding}")


def _require_partial(sharding: Sharding, axes: Axes, kind: ReductionKind, step: object) -> None:
    if not set(axes) <= set(sharding.partial_axes) or (axes and kind != sharding.partial_kind):
        raise ReshardError(
            f"{step} needs a value partial ({kind.value}) over {_fmt(axes)}, got {sharding}"
        )


def _require_suffix(
    dims: list[Axes], dim: int, axes: Axes, step: object, sharding: Sharding
) -> None:
    if not axes or dims[dim][len(dims[dim]) - len(axes) :] != axes:
        raise ReshardError(
            f"{step} needs dim {dim} split over {_fmt(axes)} as its minor axes, got {sharding}"
        )


def _divide(extent: int | None, n: int | None, step: object) -> int | None:
    if extent is None or n is None:
        return None
    if extent % n:
        raise ReshardError(f"{step}: local size {extent} is not divisible by the group size {n}")
    return extent // n


def _times(extent: int | None, n: int | None) -> int | None:
    return None if extent is None or n is None else extent * n


@dataclass(frozen=True)
class AllReduce:
    """`shard.all_reduce`: combine the partial operands held along `axes`."""

    axes: Axes
    kind: ReductionKind = ReductionKind.SUM

    def apply(self, sharding: Sharding) -> Sharding:
        _require_partial(sharding, self.axes, self.kind, self)
        partial = tuple(a for a in sharding.partial_axes if a not in self.axes)
        return replace(sharding, partial_axes=partial)

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        return shape

    def __str__(self) -> str:
        return f"all_reduce grid_axes = {_fmt(self.axes)} reduction = {self.kind.value}"


@dataclass(frozen=True)
class ReduceScatter:
    """`shard.reduce_scatter`: combine partial operands, keep this device's slice of `dim`."""

    axes: Axes
    dim: int
    kind: ReductionKind = ReductionKind.SUM

    def apply(self, sharding: Sharding) -> Sharding:
        _require_plain(sharding, self)
        _require_partial(sharding, self.axes, self.kind, self)
        dims = _dims(sharding, max(self.dim + 1, len(sharding.split_axes)))
        dims[self.dim] += self.axes
        partial = tuple(a for a in sharding.partial_axes if a not in self.axes)
        return replace(sharding, split_axes=tuple(dims), partial_axes=partial)

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        local = list(shape)
        local[self.dim] = _divide(local[self.dim], grid.group_size(self.axes), self)
        return tuple(local)

    def __str__(self) -> str:
        return (
            f"reduce_scatter grid_axes = {_fmt(self.axes)} reduction = {self.kind.value} "
            f"scatter_axis = {self.dim}"
        )


@dataclass(frozen=True)
class AllGather:
    """`shard.all_gather`: undo the split of `dim` over its minor-most `axes`."""

    axes: Axes
    dim: int

    def apply(self, sharding: Sharding) -> Sharding:
        _require_plain(sharding, self)
        dims = _dims(sharding, max(self.dim + 1, len(sharding.split_axes)))
        _require_suffix(dims, self.dim, self.axes, self, sharding)
        dims[self.dim] = dims[self.dim][: -len(self.axes)]
        return replace(sharding, split_axes=tuple(dims))

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        local = list(shape)
        local[self.dim] = _times(local[self.dim], grid.group_size(self.axes))
        return tuple(local)

    def __str__(self) -> str:
        return f"all_gather grid_axes = {_fmt(self.axes)} gather_axis = {self.dim}"


@dataclass(frozen=True)
class AllSlice:
    """`shard.all_slice`: split `dim` further over `axes` (minor), without communication."""

    axes: Axes
    dim: int

    def apply(self, sharding: Sharding) -> Sharding:
        _require_plain(sharding, self)
        if set(self.axes) & set(sharding.used_axes):
            raise ReshardError(f"{self} needs grid axes {_fmt(self.axes)} unused, got {sharding}")
        dims = _dims(sharding, max(self.dim + 1, len(sharding.split_axes)))
        dims[self.dim] += self.axes
        return replace(sharding, split_axes=tuple(dims))

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        local = list(shape)
        local[self.dim] = _divide(local[self.dim], grid.group_size(self.axes), self)
        return tuple(local)

    def __str__(self) -> str:
        return f"all_slice grid_axes = {_fmt(self.axes)} slice_axis = {self.dim}"


@dataclass(frozen=True)
class AllToAll:
    """`shard.all_to_all`: move the minor-most `axes` of `concat_dim` to the minor end of
    `split_dim`."""

    axes: Axes
    split_dim: int
    concat_dim: int

    def apply(self, sharding: Sharding) -> Sharding:
        _require_plain(sharding, self)
        if self.split_dim == self.concat_dim:
            raise ReshardError(f"{self} moves nothing: split and concat dims are equal")
        dims = _dims(
            sharding, max(self.split_dim + 1, self.concat_dim + 1, len(sharding.split_axes))
        )
        _require_suffix(dims, self.concat_dim, self.axes, self, sharding)
        dims[self.concat_dim] = dims[self.concat_dim][: -len(self.axes)]
        dims[self.split_dim] += self.axes
        return replace(sharding, split_axes=tuple(dims))

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        n = grid.group_size(self.axes)
        local = list(shape)
        local[self.split_dim] = _divide(local[self.split_dim], n, self)
        local[self.concat_dim] = _times(local[self.concat_dim], n)
        return tuple(local)

    def __str__(self) -> str:
        return (
            f"all_to_all grid_axes = {_fmt(self.axes)} split_axis = {self.split_dim} "
            f"concat_axis = {self.concat_dim}"
        )


@dataclass(frozen=True)
class UpdateHalo:
    """`shard.update_halo`: re-cut each block with new halos, fetched from its neighbours.

    The core block stays; `src_halo_sizes` says where it sits in the input. Dropping
    all halos (`dst_halo_sizes == ()`) is a local slice and costs nothing.
    """

    split_axes: tuple[Axes, ...]
    src_halo_sizes: tuple[int, ...]
    dst_halo_sizes: tuple[int, ...]

    @property
    def split_dims(self) -> list[int]:
        return [d for d, axes in enumerate(self.split_axes) if axes]

    def _pairs(self, halos: tuple[int, ...]) -> list[tuple[int, int]]:
        return [
            (halos[2 * i], halos[2 * i + 1]) if halos else (0, 0)
            for i in range(len(self.split_dims))
        ]

    @property
    def src_pairs(self) -> list[tuple[int, int]]:
        """`(lo, hi)` of the input per split dim."""
        return self._pairs(self.src_halo_sizes)

    @property
    def dst_pairs(self) -> list[tuple[int, int]]:
        """`(lo, hi)` of the result per split dim."""
        return self._pairs(self.dst_halo_sizes)

    def apply(self, sharding: Sharding) -> Sharding:
        if sharding.split_axes != self.split_axes or sharding.halo_sizes != self.src_halo_sizes:
            raise ReshardError(f"{self} does not apply to {sharding}")
        return replace(sharding, halo_sizes=self.dst_halo_sizes)

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        local = list(shape)
        for d, (slo, shi), (dlo, dhi) in zip(
            self.split_dims, self.src_pairs, self.dst_pairs, strict=True
        ):
            extent = local[d]
            local[d] = None if extent is None else extent - slo - shi + dlo + dhi
        return tuple(local)

    def __str__(self) -> str:
        split = "[" + ", ".join(_fmt(a) for a in self.split_axes) + "]"
        return (
            f"update_halo split_axes = {split} halo_sizes = {_fmt(self.src_halo_sizes)} -> "
            f"{_fmt(self.dst_halo_sizes)}"
        )


# Kinds whose combiner gives the value back from n copies of it.
_IDEMPOTENT = frozenset(
    {
        ReductionKind.MAX,
        ReductionKind.MIN,
        ReductionKind.AVERAGE,
        ReductionKind.BITWISE_AND,
        ReductionKind.BITWISE_OR,
    }
)


@dataclass(frozen=True)
class MakePartial:
    """Turn a value that every device along `axes` holds into `kind` operands, locally.

    No shard op does this, and none is needed: for an idempotent kind each device keeps
    its copy; otherwise the first device of each group keeps it and the others hold the
    kind's identity (0 for sum and xor, 1 for product), which the group combines back.
    """

    axes: Axes
    kind: ReductionKind = ReductionKind.SUM

    @property
    def masks(self) -> bool:
        """Whether all but the first device of each group replace the value by the identity."""
        return self.kind not in _IDEMPOTENT

    def apply(self, sharding: Sharding) -> Sharding:
        if self.kind == ReductionKind.GENERIC:
            raise ReshardError(f"{self}: a generic reduction has no identity to start from")
        if set(self.axes) & set(sharding.used_axes):
            raise ReshardError(f"{self} needs grid axes {_fmt(self.axes)} unused, got {sharding}")
        if sharding.is_partial and sharding.partial_kind != self.kind:
            raise ReshardError(f"{self} cannot join {sharding}: the partial kinds differ")
        return replace(
            sharding, partial_axes=sharding.partial_axes + self.axes, partial_kind=self.kind
        )

    def result_shape(self, shape: Shape, grid: Grid) -> Shape:
        return shape

    def __str__(self) -> str:
        return f"make_partial grid_axes = {_fmt(self.axes)} reduction = {self.kind.value}"


Step = AllReduce | ReduceScatter | AllGather | AllSlice | AllToAll | MakePartial | UpdateHalo


def nominal_bytes(shape: Sequence[int | None], elem_bytes: int) -> int:
    """Bytes of a block of `shape`, a dynamic extent counted as NOMINAL_DYNAMIC_EXTENT."""
    return elem_bytes * prod(NOMINAL_DYNAMIC_EXTENT if e is None else e for e in shape)


def nominal_group(axes: Axes, grid: Grid) -> int:
    """Devices in a group spanned by `axes`, a dynamic axis counted as
    NOMINAL_DYNAMIC_AXIS_SIZE."""
    grid.check_axes(axes)
    return prod(NOMINAL_DYNAMIC_AXIS_SIZE if grid.shape[a] is None else grid.shape[a] for a in axes)  # type: ignore[misc]


def step_cost(step: Step, local_shape: Shape, elem_bytes: int, grid: Grid) -> Fraction:
    """Bytes each device sends in the ring model, for `step` applied to a `local_shape` block.

    all_gather (n-1)/n of its output, all_reduce 2(n-1)/n, reduce_scatter and
    all_to_all (n-1)/n of their input, all_slice and make_partial nothing, update_halo
    the halo cells of its output. Dynamic extents count as NOMINAL_DYNAMIC_EXTENT
    elements, dynamic axes as NOMINAL_DYNAMIC_AXIS_SIZE devices.
    """
    size = nominal_bytes(local_shape, elem_bytes)
    if isinstance(step, UpdateHalo):
        core = replace(step, dst_halo_sizes=()).result_shape(local_shape, grid)
        halo = step.result_shape(local_shape, grid)
        return Fraction(nominal_bytes(halo, elem_bytes) - nominal_bytes(core, elem_bytes))
    if isinstance(step, AllSlice | MakePartial):
        return Fraction(0)
    n = nominal_group(step.axes, grid)
    if isinstance(step, AllGather):
        return Fraction(size * (n - 1))
    if isinstance(step, AllReduce):
        return Fraction(2 * size * (n - 1), n)
    return Fraction(size * (n - 1), n)


@dataclass(frozen=True)
class ReshardPlan:
    """Steps in order; `local_shapes[i]` is the block before step `i`, the last one the result."""

    steps: tuple[Step, ...]
    local_shapes: tuple[Shape, ...]
    step_costs: tuple[Fraction, ...]

    @property
    def cost(self) -> Fraction:
        return sum(self.step_costs, Fraction(0))

    def __str__(self) -> str:
        return "\n".join(map(str, self.steps)) if self.steps else "(nothing to do)"


_STEP_ORDER = {
    AllReduce: 0,
    ReduceScatter: 1,
    AllGather: 2,
    AllToAll: 3,
    AllSlice: 4,
    MakePartial: 5,
    UpdateHalo: 6,
}


_FIELDS = {t: tuple(f.name for f in fields(t)) for t in _STEP_ORDER}


def _step_key(step: Step) -> tuple[object, ...]:
    return (_STEP_ORDER[type(step)], *(getattr(step, name) for name in _FIELDS[type(step)]))


def _same_layout(a: Sharding, b: Sharding) -> bool:
    return (
        a.split_axes == b.split_axes
        and set(a.partial_axes) == set(b.partial_axes)
        and a.partial_kind == b.partial_kind
        and a.halo_sizes == b.halo_sizes
        and a.sharded_dims_offsets == b.sharded_dims_offsets
    )


class _Search:
    """Dijkstra over layouts (split axes per dim, partial axes and their kind) of a
    halo-free tensor."""

    def __init__(
        self, src: Sharding, dst: Sharding, global_shape: Shape, grid: Grid, elem_bytes: int
    ):
        self.shape, self.grid, self.elem_bytes = global_shape, grid, elem_bytes
        self.kind = dst.partial_kind
        self.keep = frozenset(dst.partial_axes)
        self.wanted = frozenset(a for axes in dst.split_axes for a in axes)
        rank = len(global_shape)
        self.start = (tuple(_dims(src, rank)), frozenset(src.partial_axes), src.partial_kind)
        self.goal = (tuple(_dims(dst, rank)), frozenset(dst.partial_axes), dst.partial_kind)
        self._sizes: dict[Axes, int | None] = {}
        self._legal_dims: dict[tuple[Axes, ...], bool] = {}

    def _group(self, axes: Axes) -> int | None:
        if axes not in self._sizes:
            self._sizes[axes] = self.grid.group_size(axes)
        return self._sizes[axes]

    def _legal(self, dims: tuple[Axes, ...]) -> bool:
        if dims not in self._legal_dims:
            self._legal_dims[dims] = all(
                size is None or n is None or size % n == 0
                for size, n in zip(self.shape, map(self._group, dims), strict=True)
            )
        return self._legal_dims[dims]

    def _local(self, dims: tuple[Axes, ...]) -> Shape:
        return tuple(
            _divide(size, self._group(axes), "layout")
            for size, axes in zip(self.shape, dims, strict=True)
        )

    def _moves(self, dims: tuple[Axes, ...], partial: frozenset[int], kind: ReductionKind):
        """`(step, dims, partial axes, kind)` for every step from this layout."""
        rank = len(dims)
        # Operands of another kind than the target's are all settled first.
        settle = sorted(partial - self.keep if kind == self.kind else partial)
        for k in range(1, len(settle) + 1):
            for axes in combinations(settle, k):
                yield AllReduce(axes, kind), dims, partial - set(axes), kind
            for axes in permutations(settle, k):
                for d in range(rank):
                    yield (
                        ReduceScatter(axes, d, kind),
                        _put(dims, d, dims[d] + axes),
                        partial - set(axes),
                        kind,
                    )
        for s in range(rank):
            for k in range(1, len(dims[s]) + 1):
                axes, rest = dims[s][-k:], _put(dims, s, dims[s][:-k])
                yield AllGather(axes, s), rest, partial, kind
                for t in range(rank):
                    if t != s:
                        yield AllToAll(axes, t, s), _put(rest, t, rest[t] + axes), partial, kind
        used = {a for axes in dims for a in axes} | partial
        free = sorted(self.wanted - used)
        for k in range(1, len(free) + 1):
            for axes in permutations(free, k):
                for d in range(rank):
                    yield AllSlice(axes, d), _put(dims, d, dims[d] + axes), partial, kind
        if partial and kind != self.kind:
            return
        missing = sorted(self.keep - used)
        for k in range(1, len(missing) + 1):
            for axes in combinations(missing, k):
                yield MakePartial(axes, self.kind), dims, partial | set(axes), self.kind

    def run(self) -> list[Step] | None:
        start_key = (0, 0, ())
        best = {self.start: start_key}
        queue = [(start_key, self.start, [])]
        while queue:
            key, state, path = heapq.heappop(queue)
            if state == self.goal:
                return path
            if best[state] < key:
                continue
            cost, length, order = key
            local = self._local(state[0])
            for step, dims, partial, kind in self._moves(*state):
                if not self._legal(dims):
                    continue
                partial = frozenset(partial)
                new_state = (dims, partial, kind if partial else ReductionKind.SUM)
                new_cost = cost + _scaled_cost(step, local, self.elem_bytes, self.grid)
                known = best.get(new_state)
                if known is not None and known[:2] < (new_cost, length + 1):
                    continue
                new_key = (new_cost, length + 1, (*order, _step_key(step)))
                if known is None or new_key < known:
                    best[new_state] = new_key
                    heapq.heappush(queue, (new_key, new_state, [*path, step]))
        return None


@lru_cache(maxsize=65536)
def _scaled_cost(step: Step, local: Shape, elem_bytes: int, grid: Grid) -> int:
    """`step_cost` times the size of the whole grid, which every group size divides: an
    int, so that the search adds and compares ints rather than Fractions."""
    whole = nominal_group(tuple(range(grid.rank)), grid)
    scaled = step_cost(step, local, elem_bytes, grid) * whole
    assert scaled.denominator == 1
    return scaled.numerator


def _put(dims: tuple[Axes, ...], d: int, axes: Axes) -> tuple[Axes, ...]:
    return (*dims[:d], axes, *dims[d + 1 :])


def _check_shapes(src: Sharding, dst: Sharding, global_shape: Shape, grid: Grid) -> None:
    for role, sharding in (("source", src), ("target", dst)):
        try:
            shard_shape(global_shape, sharding, grid)
        except ShardingError as error:
            raise ReshardError(f"cannot reshard {src} -> {dst}: {role} sharding: {error}") from None


def _refusal(src: Sharding, dst: Sharding) -> str | None:
    if src.sharded_dims_offsets or dst.sharded_dims_offsets:
        return "uneven shardings (sharded_dims_offsets) can only be resharded to themselves"
    if None in src.halo_sizes or None in dst.halo_sizes:
        return "halo sizes known only at run time are not supported"
    if dst.partial_kind == ReductionKind.GENERIC:
        held = src.partial_axes if src.partial_kind == ReductionKind.GENERIC else ()
        new = [a for a in dst.partial_axes if a not in held]
        if new:
            return (
                f"the target holds generic operands over grid axes {_fmt(new)} where the "
                "source does not, and a generic reduction has no identity to make them with"
            )
    return None


def plan_reshard(
    src: Sharding,
    dst: Sharding,
    global_shape: Sequence[int | None],
    grid: Grid,
    elem_bytes: int = 4,
) -> ReshardPlan:
    """The cheapest sequence of collectives that turns `src`'s layout into `dst`'s.

    Ties go to fewer steps, then to plans whose steps come earlier in the order
    all_reduce, reduce_scatter, all_gather, all_to_all, all_slice, make_partial (then
    smaller axes and dims). Halos are dropped before and added after the other steps,
    unless the only other steps are all-reduces and make-partials, which are elementwise
    and keep halos intact. Costs are exact fractions of bytes (see `step_cost`);
    `elem_bytes` is the size of one element.
    """
    return _plan(src, dst, tuple(global_shape), grid, elem_bytes)


@lru_cache(maxsize=4096)
def _plan(src: Sharding, dst: Sharding, shape: Shape, grid: Grid, elem_bytes: int) -> ReshardPlan:
    if src.grid != dst.grid or src.grid != grid.name:
        raise ReshardError(f"cannot reshard {src} -> {dst} on grid @{grid.name}: the grids differ")
    _check_shapes(src, dst, shape, grid)
    if _same_layout(src, dst):
        return _replay(src, dst, [], shape, grid, elem_bytes)
    reason = _refusal(src, dst)
    if reason is not None:
        raise ReshardError(f"cannot reshard {src} -> {dst}: {reason}")
    core = _Search(
        replace(src, halo_sizes=()), replace(dst, halo_sizes=()), shape, grid, elem_bytes
    ).run()
    if core is None:
        raise ReshardError(
            f"internal error: no plan for {src} -> {dst}, yet gathering everything and "
            "slicing to the target always works"
        )
    return _replay(src, dst, _with_halos(core, src, dst), shape, grid, elem_bytes)


def _with_halos(core: list[Step], src: Sharding, dst: Sharding) -> list[Step]:
    if all(isinstance(step, AllReduce | MakePartial) for step in core):
        if src.halo_sizes == dst.halo_sizes:
            return core
        return [*core, UpdateHalo(dst.split_axes, src.halo_sizes, dst.halo_sizes)]  # type: ignore[arg-type]
    steps: list[Step] = []
    if src.halo_sizes:
        steps.append(UpdateHalo(src.split_axes, src.halo_sizes, ()))  # type: ignore[arg-type]
    steps += core
    if dst.halo_sizes:
        steps.append(UpdateHalo(dst.split_axes, (), dst.halo_sizes))  # type: ignore[arg-type]
    return steps


def _replay(
    src: Sharding, dst: Sharding, steps: list[Step], shape: Shape, grid: Grid, elem_bytes: int
) -> ReshardPlan:
    """Apply the steps to the layout and the local shape; the result must be `dst`."""
    layout, local = src, shard_shape(shape, src, grid)
    shapes, costs = [local], []
    for step in steps:
        costs.append(step_cost(step, local, elem_bytes, grid))
        layout, local = step.apply(layout), step.result_shape(local, grid)
        shapes.append(local)
    if not _same_layout(layout, dst) or local != shard_shape(shape, dst, grid):
        raise ReshardError(f"planner bug: {src} -> {dst} reached {layout} with local shape {local}")
    return ReshardPlan(tuple(steps), tuple(shapes), tuple(costs))
