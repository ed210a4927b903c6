"""The candidates `auto-sharding` chooses among: options of an op, layouts of an argument.

An op's candidates assign each grid axis (of size > 1) to at most one of its loops, or
to none, in every combination, the replicated option first, each followed by its
variants carrying through the op a partial state its operands may arrive in
(`_carrying`), so sums stay unreduced across adds as in propagation; an argument's
assign each
axis to at most one of its dims. Only those that split every tensor evenly are kept,
and at most `MAX_STRATEGIES` of them, in that order, so a many-loop op on a big grid
stays a small decision. Axes that share a loop are listed in increasing order only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from xshard.interfaces.sharding_interface import ShardingRule, dim_loops
from xshard.interfaces.sharding_option import ShardingOption, loop_option, option_fits
from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding

MAX_STRATEGIES = 64


def _assignments(grid: Grid, slots: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Each way to give every grid axis of size > 1 one of `slots` slots or none (-1)."""
    axes = [a for a, size in enumerate(grid.shape) if size != 1]
    for choice in product(range(-1, slots), repeat=len(axes)):
        per_slot: list[list[int]] = [[] for _ in range(slots)]
        for axis, slot in zip(axes, choice, strict=True):
            if slot >= 0:
                per_slot[slot].append(axis)
        yield tuple(map(tuple, per_slot))


Partial = tuple[tuple[int, ...], ReductionKind]
"""A partial state: its axes and kind."""


def op_options(
    op: Operation, rule: ShardingRule, grid: Grid, partials: Sequence[set[Partial]]
) -> list[ShardingOption]:
    """`partials[i]`: the partial states operand `i` may arrive in."""
    found: dict[ShardingOption, None] = {}
    for loops in _assignments(grid, len(rule.loops)):
        for option in (ShardingOption(grid.name, loops), *_carrying(rule, grid, loops, partials)):
            if option not in found and option_fits(op, rule, option, grid):
                found[option] = None
                if len(found) == MAX_STRATEGIES:
                    return list(found)
    return list(found)


def _carrying(
    rule: ShardingRule,
    grid: Grid,
    loops: tuple[tuple[int, ...], ...],
    partials: Sequence[set[Partial]],
) -> Iterator[ShardingOption]:
    """`loops` carrying a partial state through the op, one per state an operand may
    arrive in that the op lets pass (a sum through an add, a max through a maximum)
    on axes the loops leave free: partial values flow on unreduced, as
    `shard-partition` lets them. Only states some operand may have are tried, which
    keeps the program small."""
    for i, states in enumerate(partials):
        for axes, kind in sorted(states, key=lambda p: (p[0], p[1].value)):
            if rule.operand_maps[i] is not None and rule.partial.accepts(i, kind):
                held: list[Sharding | None] = [None] * len(partials)
                held[i] = Sharding(grid.name, (), axes, kind)
                option = loop_option(rule, grid.name, loops, held)
                if option.carried_axes:
                    yield option


def value_layouts(value: SSAValue, grid: Grid) -> list[Sharding]:
    """The layouts an argument may arrive in: never partial (callers hand whole values)."""
    assert isinstance(value.type, TensorType)
    shape = shape_of(value)
    found: list[Sharding] = []
    for dims in _assignments(grid, len(shape)):
        s = Sharding.of(grid.name, dims)
        try:
            shard_shape(shape, s, grid)
        except ShardingError:
            continue
        found.append(s)
        if len(found) == MAX_STRATEGIES:
            break
    return found


def shape_of(value: SSAValue) -> tuple[int | None, ...]:
    """The static shape of a tensor value, None for a dynamic extent."""
    assert isinstance(value.type, TensorType)
    return tuple(None if n < 0 else n for n in value.type.get_shape())


def is_elementwise(op: Operation, rule: ShardingRule) -> bool:
    """Whether `op` maps equal-shaped tensors position by position: its loops are its
    result's dims and every tensor it reads is indexed by them in order."""
    if len(op.results) != 1 or any(loop.is_reduction for loop in rule.loops):
        return False
    identity = tuple(range(len(rule.loops)))
    maps = [m for m in (*rule.operand_maps, *rule.result_maps) if m is not None]
    if any(dim_loops(m) != identity for m in maps):
        return False
    shape = shape_of(op.results[0])
    read = [v for v, m in zip(op.operands, rule.operand_maps, strict=True) if m is not None]
    return all(shape_of(v) == shape for v in read)


def follow(
    rule: ShardingRule, layout: Sharding, operands: Sequence[Sharding | None]
) -> ShardingOption:
    """The option of an elementwise op whose loops take the split axes of `layout`,
    carrying the partial state of `operands` (the layouts they are in) where it may."""
    loops = [layout.axes_of(d) for d in range(len(rule.loops))]
    return loop_option(rule, layout.grid, loops, operands)
