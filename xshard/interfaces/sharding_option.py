"""From the shardings known around an op to one consistent way of sharding its loops.

A `ShardingOption` assigns grid axes to each loop of an op (the RFC's "sharding
option on operations"), plus the partial state carried through a linear op.
`partition_options` lists the options shard-partition may run an op under, given
the layouts of its operands and those asked of its results; `operand_sharding`
and `result_sharding` read back what each tensor looks like under an option. A
split reduction loop makes results partial over its axes, with the loop's
reduction kind: the reduction is left for later, and the operands the op folds in
once (its accumulators) are partial alike.

`infer_option` is the propagation's variant: it reads split axes exactly as
MLIR's `defaultGetShardingOption` does (results first, then operands; a loop
given axes keeps them, an axis on two loops fails), so propagation makes the
same choices as upstream, and adds partial axes only where they fit.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xshard.interfaces.sharding_interface import (
    PartialFlow,
    ShardingRule,
    dim_loops,
)
from xshard.sharding.grid import Grid
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding, ShardingError


class ShardingConflict(Exception):
    """The given shardings cannot all hold for this op at once."""


@dataclass(frozen=True)
class ShardingOption:
    grid: str
    loop_axes: tuple[tuple[int, ...], ...]
    carried_axes: tuple[int, ...] = ()
    """Partial axes that pass through a linear op from its operands to its results."""
    carried_kind: ReductionKind = ReductionKind.SUM
    partial_operands: frozenset[int] = frozenset()
    """Operands that hold the carried partial state."""

    @property
    def is_empty(self) -> bool:
        return not self.carried_axes and not any(self.loop_axes)


class _Builder:
    def __init__(self, rule: ShardingRule, grid: str):
        self.rule = rule
        self.grid = grid
        self.loops: list[tuple[int, ...] | None] = [None] * len(rule.loops)
        self.carried: tuple[tuple[int, ...], ReductionKind] | None = None
        self.partial_operands: set[int] = set()

    def copy(self) -> _Builder:
        new = _Builder(self.rule, self.grid)
        new.loops, new.carried = list(self.loops), self.carried
        new.partial_operands = set(self.partial_operands)
        return new

    def check_grid(self, s: Sharding) -> None:
        if s.grid != self.grid:
            raise ShardingConflict(f"shardings on two grids, @{self.grid} and @{s.grid}")

    def assign(self, loop: int, axes: tuple[int, ...]) -> None:
        have = self.loops[loop]
        if have is None:
            self.loops[loop] = axes
        elif have != axes:
            raise ShardingConflict(f"loop {loop} split on {list(have)} and on {list(axes)}")

    def assign_dims(self, m, s: Sharding) -> None:
        for dim, loop in enumerate(dim_loops(m)):
            axes = s.axes_of(dim)
            if loop is None:
                if axes:
                    raise ShardingConflict(
                        f"dim {dim} is not indexed by a loop and cannot be split"
                    )
            else:
                self.assign(loop, axes)

    def carry(self, axes: tuple[int, ...], kind: ReductionKind, operand: int | None) -> None:
        if self.carried is not None and self.carried != (axes, kind):
            raise ShardingConflict("operands are partial in different ways")
        flow = self.rule.partial.flow
        if (
            operand is not None
            and flow is not PartialFlow.ALL_OPERANDS
            and self.partial_operands - {operand}
        ):
            raise ShardingConflict("more than one operand is partial")
        self.carried = (axes, kind)
        if operand is not None:
            self.partial_operands.add(operand)

    def add_result(self, index: int, s: Sharding) -> None:
        self.add_result_split(index, s)
        self.add_result_partial(index, s)

    def add_result_split(self, index: int, s: Sharding) -> None:
        self.check_grid(s)
        self.assign_dims(self.rule.result_maps[index], s)

    def add_result_partial(self, index: int, s: Sharding) -> None:
        """Explain the result's partial axes: those a carried operand state gives already,
        else a split reduction loop of their kind, else a carried state of their own."""
        carried = self.carried if self.carried and self.carried[1] == s.partial_kind else None
        covered = {
            a
            for i in self.rule.reduction_loops()
            if self.rule.loops[i].kind == s.partial_kind
            for a in self.loops[i] or ()
        }
        axes = tuple(
            a
            for a in s.partial_axes
            if a not in covered and (carried is None or a not in carried[0])
        )
        if not axes:
            return
        reductions = [
            i
            for i in self.rule.reduction_loops()
            if self.rule.loops[i].kind == s.partial_kind and self.loops[i] is None
        ]
        if reductions:
            self.assign(reductions[0], axes)
        elif s.partial_kind in self.rule.partial.kinds and self.carried is None:
            self.carry(axes, s.partial_kind, None)
        else:
            raise ShardingConflict(
                f"result {index} cannot be partial ({s.partial_kind.value}) here"
            )

    def add_operand(self, index: int, s: Sharding) -> None:
        m = self.rule.operand_maps[index]
        if m is None:
            return
        self.check_grid(s)
        self.assign_dims(m, s)
        if s.partial_axes:
            if not self.rule.partial.accepts(index, s.partial_kind):
                raise ShardingConflict(f"operand {index} must not be partial here")
            self.carry(s.partial_axes, s.partial_kind, index)

    def finish(self) -> ShardingOption:
        loop_axes = tuple(axes or () for axes in self.loops)
        carried_axes, kind = self.carried if self.carried else ((), ReductionKind.SUM)
        used = [a for axes in loop_axes for a in axes] + list(carried_axes)
        if len(used) != len(set(used)):
            raise ShardingConflict("a grid axis would shard two loops")
        kinds = {self.rule.loops[i].kind for i in self.rule.reduction_loops() if loop_axes[i]}
        if carried_axes:
            kinds.add(kind)
        if len(kinds) > 1:
            raise ShardingConflict("results would be partial with two reduction kinds")
        partial_operands = frozenset(self.partial_operands)
        if carried_axes and not partial_operands:
            partial_operands = frozenset(self._default_carriers())
        elif carried_axes and self.rule.partial.flow is PartialFlow.ALL_OPERANDS:
            if not self.rule.partial.replicated_join:
                partial_operands = frozenset(self._default_carriers())
        return ShardingOption(self.grid, loop_axes, carried_axes, kind, partial_operands)

    def _default_carriers(self) -> list[int]:
        allowed = [
            i
            for i, m in enumerate(self.rule.operand_maps)
            if m is not None
            and (self.rule.partial.operands is None or i in self.rule.partial.operands)
        ]
        if self.rule.partial.flow is PartialFlow.ALL_OPERANDS:
            return allowed
        return allowed[:1]


def partition_options(
    rule: ShardingRule,
    grid: str,
    operands: Sequence[Sharding | None],
    results: Sequence[Sharding | None],
) -> Iterator[ShardingOption]:
    """Options to run an op under, best first, for `shard-partition`.

    `operands` are the layouts the operands are in, `results` the layouts asked of the
    results (None: no wish). Any option is correct: the pass reshards each operand to
    what the option needs and each result from what it produces. The first keeps
    the split axes of every wanted result, then each operand's split and partial
    axes that fit (an
    operand whose partial state does not fit is settled first; a replicated one costs
    nothing to slice, so it asks for nothing), then the results' partial axes, which
    an operand's carried state explains before a split reduction loop does; then
    results alone, operands alone, and finally nothing split at all.
    """
    wanted = [(i, s) for i, s in enumerate(results) if s is not None]
    held = [(i, s) for i, s in enumerate(operands) if s is not None and not s.is_replicated]
    for keep_results, keep_operands in ((True, True), (True, False), (False, True)):
        b = _Builder(rule, grid)
        if keep_results:
            for i, s in wanted:
                b = _tried(b, lambda b, i=i, s=s: b.add_result_split(i, s))
        if keep_operands:
            for i, s in held:
                tried = _tried(b, lambda b, i=i, s=s: b.add_operand(i, s))
                if tried is b and s.is_partial:
                    tried = _tried(b, lambda b, i=i, s=s: b.add_operand(i, without_partial(s)))
                b = tried
        if keep_results:  # partial results: by the operands' carried state where they can
            for i, s in wanted:
                b = _tried(b, lambda b, i=i, s=s: b.add_result_partial(i, s))
        try:
            yield b.finish()
        except ShardingConflict:
            pass
    yield ShardingOption(grid, tuple(() for _ in rule.loops))


def _tried(b: _Builder, add) -> _Builder:
    """`b` after `add`, or `b` unchanged if `add` conflicts."""
    trial = b.copy()
    try:
        add(trial)
    except ShardingConflict:
        return b
    return trial


def option_from_loops(
    rule: ShardingRule, grid: str, loop_axes: Sequence[Sequence[int]]
) -> ShardingOption:
    """An option given loop by loop (an op's `sharding_option`), checked for consistency."""
    if len(loop_axes) > len(rule.loops):
        raise ShardingConflict(f"{len(loop_axes)} loops given, the op has {len(rule.loops)}")
    b = _Builder(rule, grid)
    for loop, axes in enumerate(loop_axes):
        b.assign(loop, tuple(axes))
    return b.finish()


def _dims(m, option: ShardingOption) -> list[tuple[int, ...]]:
    return [() if loop is None else option.loop_axes[loop] for loop in dim_loops(m)]


# What a tensor looks like under an option is asked for every op in every pass, about
# the few (rule, option) pairs a program has: each answer is computed once.


@functools.lru_cache(maxsize=4096)
def operand_sharding(rule: ShardingRule, option: ShardingOption, index: int) -> Sharding | None:
    m = rule.operand_maps[index]
    if m is None:
        return None
    if index in rule.accumulators:
        folded = result_sharding(rule, option, 0)
        return Sharding.of(option.grid, _dims(m, option), folded.partial_axes, folded.partial_kind)
    partial = option.carried_axes if index in option.partial_operands else ()
    return Sharding.of(option.grid, _dims(m, option), partial, option.carried_kind)


def operand_layout(
    rule: ShardingRule, option: ShardingOption, index: int, value: SSAValue
) -> Sharding | None:
    """What operand `index` (`value`) must look like; a tensor no map indexes is whole."""
    return _operand_layout(rule, option, index, value.type)


def _operand_layout(
    rule: ShardingRule, option: ShardingOption, index: int, t: Attribute
) -> Sharding | None:
    s = operand_sharding(rule, option, index)
    if s is None and isinstance(t, TensorType):
        return Sharding.replicated(option.grid)
    return s


def fitting_option(
    op: Operation,
    rule: ShardingRule,
    grid: Grid,
    operands: Sequence[Sharding | None],
    results: Sequence[Sharding | None],
) -> ShardingOption:
    """The first of `partition_options` under which every tensor of `op` divides evenly."""
    return _first_fitting(
        rule,
        grid,
        tuple(operands),
        tuple(results),
        tuple(v.type for v in op.operands),
        tuple(r.type for r in op.results),
    )


@functools.lru_cache(maxsize=4096)
def _first_fitting(
    rule: ShardingRule,
    grid: Grid,
    operands: tuple[Sharding | None, ...],
    results: tuple[Sharding | None, ...],
    operand_types: tuple[Attribute, ...],
    result_types: tuple[Attribute, ...],
) -> ShardingOption:
    return next(
        o
        for o in partition_options(rule, grid.name, operands, results)
        if _fits(rule, o, operand_types, result_types, grid)
    )


def option_fits(op: Operation, rule: ShardingRule, option: ShardingOption, grid: Grid) -> bool:
    """Whether every tensor operand and result of `op` divides evenly under `option`."""
    return _fits(
        rule, option, tuple(v.type for v in op.operands), tuple(r.type for r in op.results), grid
    )


@functools.lru_cache(maxsize=4096)
def _fits(
    rule: ShardingRule,
    option: ShardingOption,
    operand_types: tuple[Attribute, ...],
    result_types: tuple[Attribute, ...],
    grid: Grid,
) -> bool:
    """`option_fits`, once per question: the ops of a program ask the same few. Every
    tensor must divide evenly, and a loop with a minimum block (`min_blocks`) must leave
    blocks that wide."""
    layouts = [(t, _operand_layout(rule, option, i, t)) for i, t in enumerate(operand_types)]
    layouts += [
        (t, result_sharding(rule, option, j))
        for j, t in enumerate(result_types)
        if isinstance(t, TensorType)
    ]
    for t, s in layouts:
        if s is not None and isinstance(t, TensorType):
            try:
                shard_shape(t.get_shape(), s, grid)
            except ShardingError:
                return False
    for loop, cells in rule.min_blocks:
        if not (axes := option.loop_axes[loop]):
            continue
        n = grid.group_size(axes) or 1
        for m, t in zip(rule.operand_maps, operand_types, strict=True):
            if m is not None and isinstance(t, TensorType):
                shape = t.get_shape()
                if any(i == loop and shape[d] // n < cells for d, i in enumerate(dim_loops(m))):
                    return False
    return True


@functools.lru_cache(maxsize=4096)
def result_sharding(rule: ShardingRule, option: ShardingOption, index: int) -> Sharding:
    partial: list[int] = []
    kind = option.carried_kind
    for loop in rule.reduction_loops():
        if option.loop_axes[loop]:
            partial.extend(option.loop_axes[loop])
            kind = rule.loops[loop].kind or kind
    partial.extend(option.carried_axes)
    return Sharding.of(option.grid, _dims(rule.result_maps[index], option), tuple(partial), kind)


@dataclass(frozen=True)
class Annotation:
    """A sharding found on the IR, with its `split_axes` list as written.

    Upstream reads split axes unnormalized: `[[]]` gives the first loop an
    empty split, which conflicts with a split one, while the `[]` written for a
    0-d tensor says nothing; and an op whose last annotated operand says
    nothing (and no result is annotated) counts as unannotated.
    """

    sharding: Sharding
    split: tuple[tuple[int, ...], ...]


def without_partial(s: Sharding) -> Sharding:
    return replace(s, partial_axes=())


def infer_option(
    rule: ShardingRule,
    operands: Sequence[Annotation | None],
    results: Sequence[Annotation | None],
) -> ShardingOption | None:
    """The option the given annotations ask for, None when they say nothing.

    Split axes decide the loops as upstream does. Partial axes then ride along
    where the op lets them (a result of a split reduction loop, or an operand
    the op is linear in); a partial axis that does not fit is dropped, which
    means that operand is reduced before use.
    """
    loops: list[tuple[int, ...]] = [()] * len(rule.loops)
    grid: str | None = None

    def fill(s: Sharding, loop: int, axes: tuple[int, ...]) -> None:
        nonlocal grid
        if grid is not None and grid != s.grid:
            raise ShardingConflict(f"shardings on two grids, @{grid} and @{s.grid}")
        if loops[loop] and loops[loop] != axes:
            raise ShardingConflict(f"loop {loop} split on {list(loops[loop])} and on {list(axes)}")
        if any(a in loops[i] for i in range(len(loops)) if i != loop for a in axes):
            raise ShardingConflict("a grid axis would shard two loops")
        grid = s.grid
        loops[loop] = loops[loop] or axes

    def fill_dims(a: Annotation, m) -> None:
        for dim, (loop, axes) in enumerate(zip(dim_loops(m), a.split, strict=False)):
            if loop is not None:
                fill(a.sharding, loop, axes)
            elif axes:
                raise ShardingConflict(f"dim {dim} is not indexed by a loop and cannot be split")

    annotated = False
    carried: list[tuple[tuple[int, ...], ReductionKind]] = []
    for j, a in enumerate(results):
        if a is None:
            continue
        annotated = True
        s = a.sharding
        if a.split and rule.result_maps[j].results:
            fill_dims(a, rule.result_maps[j])
        else:
            grid = s.grid
        if s.partial_axes:
            carried.append((s.partial_axes, s.partial_kind))
    partial_operands: dict[int, tuple[tuple[int, ...], ReductionKind]] = {}
    for i, a in enumerate(operands):
        m = rule.operand_maps[i]
        if a is None:
            continue
        annotated = bool(a.split)
        if m is None:
            continue
        fill_dims(a, m)
        if a.sharding.partial_axes and rule.partial.accepts(i, a.sharding.partial_kind):
            partial_operands[i] = (a.sharding.partial_axes, a.sharding.partial_kind)
    if not annotated or grid is None:
        return None
    return _with_partial(rule, grid, tuple(loops), carried, partial_operands)


def loop_option(
    rule: ShardingRule,
    grid: str,
    loops: Sequence[Sequence[int]],
    operands: Sequence[Sharding | None],
) -> ShardingOption:
    """The option splitting each loop as given, carrying the partial state of the
    operands the op accepts partial (the first such state; operands partial otherwise
    are settled before the op)."""
    partials = {
        i: (s.partial_axes, s.partial_kind)
        for i, s in enumerate(operands)
        if s is not None
        and s.partial_axes
        and rule.operand_maps[i] is not None
        and rule.partial.accepts(i, s.partial_kind)
    }
    return _with_partial(rule, grid, tuple(tuple(a) for a in loops), [], partials)


def _with_partial(
    rule: ShardingRule,
    grid: str,
    loops: tuple[tuple[int, ...], ...],
    result_partials: list[tuple[tuple[int, ...], ReductionKind]],
    operand_partials: dict[int, tuple[tuple[int, ...], ReductionKind]],
) -> ShardingOption:
    """Add the partial state: result partials on a free reduction loop of their kind
    first, then one carried state through the op if every axis is still free."""
    loops_list = list(loops)
    used = {a for axes in loops_list for a in axes}
    carried: tuple[tuple[int, ...], ReductionKind] | None = None
    for axes, kind in result_partials:
        free = [
            i for i in rule.reduction_loops() if rule.loops[i].kind == kind and not loops_list[i]
        ]
        if free and not used & set(axes):
            loops_list[free[0]] = axes
            used |= set(axes)
        elif carried is None and kind in rule.partial.kinds:
            carried = (axes, kind)
    if carried is None and operand_partials:
        carried = next(iter(operand_partials.values()))
    kinds = {rule.loops[i].kind for i in rule.reduction_loops() if loops_list[i]}
    if carried is not None and (used & set(carried[0]) or kinds - {carried[1]}):
        carried = None
    if carried is None:
        return ShardingOption(grid, tuple(loops_list))
    holders = [i for i, p in operand_partials.items() if p == carried]
    flow = rule.partial.flow
    if flow is not PartialFlow.ALL_OPERANDS:
        holders = holders[:1]
    b = _Builder(rule, grid)
    if not holders or (flow is PartialFlow.ALL_OPERANDS and not rule.partial.replicated_join):
        holders = b._default_carriers()
    return ShardingOption(grid, tuple(loops_list), carried[0], carried[1], frozenset(holders))
