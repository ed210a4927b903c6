"""How values flow through an op whose regions run in its place (`while`, `case`).

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import BlockArgument, Operation, SSAValue


@dataclass(frozen=True)
class Carry:
    """One value threaded through a region op."""

    operand: int | None
    """The op's operand that enters it (None: a `case` result, made inside each branch)."""
    args: tuple[BlockArgument, ...]
    """The region block arguments that hold it."""
    yields: tuple[tuple[Operation, int], ...]
    """(terminator, operand index) of each region that yields it."""
    result: int
    """The op's result that holds it after the op."""

    def values(self, op: Operation) -> list[SSAValue]:
        """Every place of this carry: they share one layout."""
        entering = [] if self.operand is None else [op.operands[self.operand]]
        yielded = [t.operands[j] for t, j in self.yields]
        return [*entering, *self.args, *yielded, op.results[self.result]]


@dataclass(frozen=True)
class RegionFlow:
    carries: tuple[Carry, ...]
    whole_operands: tuple[int, ...] = ()
    """Operands every device must hold whole and alike (a `case` index)."""
    whole_yields: tuple[tuple[Operation, int], ...] = ()
    """Yields every device must hold whole and alike (a `cond` predicate)."""


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
