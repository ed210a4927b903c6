"""How values flow through an op whose regions run in its place (`while`, `case`,
`sdy.manual_computation`).

Such an op has no sharding rule of its own: each of its results is one value
threaded through the op's regions (Shardy's data-flow edges). A loop carry is the
while's operand, the block argument of `cond` and of `body`, the body's yielded
value and the while's result; a `case` result is what every branch returns. All
the places of one carry hold one layout, so propagation treats them as one value
and `shard-partition` gives them one layout: the operand is resharded to it on
entry, each yield to it before it leaves its region, and the regions' ops are
partitioned in place, with their collectives inside.

Some operands and yields must be whole on every device because every device has to
take the same path: a `case` index and a `cond` predicate.

A manual computation (a `shard_map` body) is per-device code over its manual axes:
its carries have two frames. Outside, the operand and the result are laid out over
the manual axes the op states (`outer_axes`, major in each dim) and then over free
axes; inside, the block argument and the returned value are the per-manual-device
values, laid out over the free axes alone. Its body is inlined (`inline`): it is the
program each device runs, once its free axes are partitioned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xshard.sharding.sharding import Sharding


@dataclass(frozen=True)
class Carry:
    """One value threaded through a region op."""

    operand: int | None
    """The op's operand that enters it (None: a `case` result, made inside each branch)."""
    args: tuple[BlockArgument, ...]
    """The region block arguments that hold it."""
    yields: tuple[tuple[Operation, int], ...]
    """(terminator, operand index) of each region that yields it."""
    result: int | None
    """The op's result that holds it after the op (None: a manual computation's operand)."""
    outer_axes: tuple[tuple[int, ...], ...] | None = None
    """Grid axes per dim that the operand and the result are split over before the
    free axes the regions' values are split over (a manual computation's manual
    axes); None: all places are laid out alike."""

    def outer(self, op: Operation) -> list[SSAValue]:
        """The places outside the regions: the operand and the result."""
        entering = [] if self.operand is None else [op.operands[self.operand]]
        leaving = [] if self.result is None else [op.results[self.result]]
        return [*entering, *leaving]

    def inner(self) -> list[SSAValue]:
        """The places inside the regions: block arguments and yielded values."""
        return [*self.args, *(t.operands[j] for t, j in self.yields)]

    def values(self, op: Operation) -> list[SSAValue]:
        """Every place of this carry: they share one layout (up to `outer_axes`)."""
        return [*self.outer(op), *self.inner()]

    def framed(self, grid: str, inner: Sharding | None) -> Sharding | None:
        """The layout of the outer places whose inner places are laid out as `inner`
        (None: whole): `outer_axes` first in each dim, then `inner`'s axes."""
        if self.outer_axes is None:
            return inner
        dims = [
            axes + (inner.axes_of(d) if inner else ()) for d, axes in enumerate(self.outer_axes)
        ]
        if inner is None:
            return Sharding.of(grid, dims)
        return Sharding.of(grid, dims, inner.partial_axes, inner.partial_kind)


@dataclass(frozen=True)
class RegionFlow:
    carries: tuple[Carry, ...]
    whole_operands: tuple[int, ...] = ()
    """Operands every device must hold whole and alike (a `case` index)."""
    whole_yields: tuple[tuple[Operation, int], ...] = ()
    """Yields every device must hold whole and alike (a `cond` predicate)."""
    inline: bool = False
    """Whether the op goes and its only region's ops take its place (a manual
    computation), rather than the op being kept on local types."""
    grid: str | None = None
    """The grid `outer_axes` name axes of."""
    manual_axes: frozenset[int] = frozenset()
    """Grid axes the regions' values may not be split over (they are per-device there)."""


FLOWS: dict[type[Operation], Callable[[Operation], RegionFlow]] = {}


def register_flow(
    *op_classes: type[Operation],
) -> Callable[[Callable[[Operation], RegionFlow]], Callable[[Operation], RegionFlow]]:
    def attach(flow: Callable[[Operation], RegionFlow]) -> Callable[[Operation], RegionFlow]:
        for cls in op_classes:
            FLOWS[cls] = flow
        return flow

    return attach


def region_flow(op: Operation) -> RegionFlow | None:
    """The flow of `op` if its regions run in its place, else None."""
    flow = FLOWS.get(type(op))
    return None if flow is None else flow(op)


def function_ops(block: Block) -> Iterator[Operation]:
    """`block`'s ops in program order, each op with a flow followed by the ops of its
    regions (which run in its place), recursively: the ops a function's layouts concern."""
    for op in block.ops:
        yield op
        if region_flow(op) is not None:
            for region in op.regions:
                for inner in region.blocks:
                    yield from function_ops(inner)
