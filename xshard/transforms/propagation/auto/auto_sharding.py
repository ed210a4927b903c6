"""`auto-sharding`: choose a sharding for every tensor value by integer programming.

The RFC's "sharding mutation", solved as Alpa and XLA's auto-sharding do. Each op with
a sharding model is a decision among its candidate options (`strategies.py`), each
argument a decision among its layouts; `shard.shard` ops the user wrote, and ops with a
`shard.sharding_option`, are fixed and never changed. An edge from a value to a user
costs `CostModel.reshard_time` from the layout the producer's choice gives to the
layout the user's choice wants (a pair with no reshard is forbidden), its all_reduces
sharing latencies with those of independent edges that XLA combines with them
(`buckets.py`); a returned value left partial costs its settling; and each op costs
its compute, its iteration space
(twice that with a reduction: a multiply-add) over the devices its option splits it
across, at `H100_COMPUTE`'s flop rate (beside `NVLINK` links), so that of two plans
moving the same bytes the one that divides the work wins, as in Alpa. The program
(`ilp.py`) minimizes the summed cost under `memory-limit`: per device, at every point
of the program in its order, the arguments and the returned values (held for the
whole call, as XLA holds them), the op results defined and still to be read there,
and the copies reshards make, each in its chosen layout, from their reader to the
value's next reader (where `shard-partition` may reuse them) (`memory_points`; a value
XLA fuses into its elementwise and reducing readers counts nothing, and so does a
constant the plan does not slice; a reshape lies in its operand's buffer).

Coarsening: an elementwise op reading a value of its own shape from another decision
joins that decision (its loops take that value's split axes), so a chain of them is
one variable; a constant (an op reading no tensor) joins its first reader's decision,
laid out as that reader wants it. Then repeats share decisions (`repeats`): where a
run of at least `MIN_RUN` ops recurs `d` ops later, op for op alike (name, types,
attributes, and operands made `d` ops apart or by alike ops, or arguments), as the
layers of an unrolled model and their gradients and optimizer updates do, each op's
decision and its arguments' are tied to the recurrence's, when they have the same
candidates. The ILP is solved on the tied groups (`ilp.coarsen`): optimal among plans
that lay out repeated layers alike.

A `stablehlo.while` is planned in place (`add_while`): each carry is one decision
(its operand, region arguments, yield and result alike, as `shard-partition` lays a
loop out), its regions' ops are decided once for every trip and their costs counted
once per trip, and in the memory points its regions run once, in place of the loop.
A `stablehlo.case` likewise (`add_case`): its index whole, each result one decision
that every branch yields, each branch's ops decided and their costs counted (a
`lax.cond` that accumulates or applies a gradient, optax's `MultiSteps`).
A value dead before a returned value is made may lie in that value's buffer, as XLA's
buffer assignment lays it (`_hosted`).

The plan is written as `sharding-propagation` writes its annotations, so
`shard-partition` follows it: a result annotation on every argument and op result,
and an `annotate_for_users` annotation wherever a user wants another layout (a
returned partial value is settled). A user's result annotation that differs from the
chosen layout reads the chosen one, i.e. it becomes a reshard.

Options: `memory-limit` (bytes per device; default: none), `report` (default false):
print each function's modeled cost, memory, decision count and solver time to stderr
(and the limit, where one is given);
`tie-repeats` (default true): tie the decisions of repeats (false: one per op, which
may find a cheaper plan that lays out alike layers apart, at a longer solve);
`time-limit` (seconds; default none): the solve gives the best plan it has found by
then that holds the memory limit (with none by then, a quick one, a few seconds later),
and the report says how far from optimal it may be.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, NamedTuple

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from xshard.diagnostics import DiagnosticError
from xshard.dialects import stablehlo as hlo
from xshard.dialects.shard import GridOp, ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import (
    annotation,
    is_result_annotation,
    reading_uses,
    result_annotation,
    sharding_of,
    sharding_option_of,
)
from xshard.interfaces.models.stablehlo_control_flow import trip_count
from xshard.interfaces.sharding_interface import ShardingRule, dim_loops, is_tensor
from xshard.interfaces.sharding_option import (
    ShardingConflict,
    ShardingOption,
    operand_layout,
    option_fits,
    option_from_loops,
    result_sharding,
    without_partial,
)
from xshard.sharding.cost_model import CostModel, shard_bytes
from xshard.sharding.grid import Grid
from xshard.sharding.overlap_cost import H100_COMPUTE
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding
from xshard.sharding.tensor_bytes import element_bytes
from xshard.transforms.propagation.auto.buckets import (
    Key,
    Priced,
    follows,
    price,
)
from xshard.transforms.propagation.auto.ilp import (
    Bucket,
    Infeasible,
    Link,
    MemoryPoint,
    Problem,
    Solution,
    Sums,
    coarsen,
    solve,
)
from xshard.transforms.propagation.auto.strategies import (
    Partial,
    follow,
    is_elementwise,
    op_options,
    shape_of,
    value_layouts,
)
from xshard.transforms.propagation.option_cost import splits_further
from xshard.transforms.propagation.sharding_propagation import needs_model, rule_of

if TYPE_CHECKING:
    import numpy as np


FREE = Priced(0.0)
"""A reshard with nothing to do, or only slicing."""

MIN_RUN = 8
"""The fewest ops in a row that recur alike for `repeats` to tie their decisions."""


MAX_PERIODS = 16
"""The most distances `repeats` tries (each is a pass over the program)."""


def _signature(op: Operation) -> tuple:
    """What makes two ops alike: name, operand and result types, properties, attributes."""
    return (
        op.name,
        tuple(v.type for v in op.operands),
        tuple(r.type for r in op.results),
        tuple(sorted(op.properties.items())),
        tuple(sorted(op.attributes.items())),
    )


def _periods(signatures: list[tuple]) -> list[int]:
    """The distances at which ops recur, most frequent first: between consecutive
    occurrences of each signature, kept where at least `MIN_RUN` such pairs agree, at
    most `MAX_PERIODS` of them."""
    last: dict[tuple, int] = {}
    votes: dict[int, int] = {}
    for i, sig in enumerate(signatures):
        if sig in last:
            d = i - last[sig]
            votes[d] = votes.get(d, 0) + 1
        last[sig] = i
    found = sorted((d for d, n in votes.items() if n >= MIN_RUN), key=lambda d: -votes[d])
    return found[:MAX_PERIODS]


@dataclass(frozen=True)
class _Var:
    """A value whose layout is decided by group `group`: `layouts[a]` under strategy `a`."""

    group: int
    layouts: tuple[Sharding, ...]


Source = Sharding | _Var
"""Where a value's layout comes from: fixed, or a decision."""


class Pair(NamedTuple):
    """`matrix[a, b]` when group `g` takes strategy `a` while group `h` takes `b`."""

    g: int
    h: int
    matrix: np.ndarray


Spread = float | tuple[int, list[float]] | Pair
"""A figure over the choices that decide two layouts (`_spread`)."""


def _spread(src: Source, dst: Source, f: Callable[[Sharding, Sharding], float]) -> Spread:
    """`f(src layout, dst layout)` over the choices that decide them: a number when both
    are fixed, (group, a value per strategy) when one group decides them, else a `Pair`.
    """
    if isinstance(src, Sharding) and isinstance(dst, Sharding):
        return f(src, dst)
    if isinstance(src, Sharding):
        assert isinstance(dst, _Var)
        return dst.group, [f(src, d) for d in dst.layouts]
    if isinstance(dst, Sharding):
        return src.group, [f(s, dst) for s in src.layouts]
    if src.group == dst.group:
        return src.group, [f(s, d) for s, d in zip(src.layouts, dst.layouts, strict=True)]
    import numpy as np  # not at import: `xshard-spmd` loads this pass, seldom runs it

    # `f` once per distinct pair of layouts: many strategies lay a value out alike
    srcs = {s: i for i, s in enumerate(dict.fromkeys(src.layouts))}
    dsts = {d: i for i, d in enumerate(dict.fromkeys(dst.layouts))}
    distinct = np.array([[f(s, d) for d in dsts] for s in srcs])
    rows, cols = [srcs[s] for s in src.layouts], [dsts[d] for d in dst.layouts]
    return Pair(src.group, dst.group, distinct[np.ix_(rows, cols)])


def _link(runs: Spread) -> Link:
    """An edge's link: the choices under which it runs one of its all_reduces (`runs`,
    1.0 where it does)."""
    link = Link()
    if isinstance(runs, Pair):
        if runs.matrix.any():
            link.add_pair(*runs)
    elif isinstance(runs, tuple):
        group, per = runs
        link.terms[group] = {a for a, x in enumerate(per) if x}
    else:
        link.always = runs > 0
    return link


def _adds(spread: Spread) -> bool:
    """Whether a figure over the choices (`_spread`) is more than 0 under some."""
    if isinstance(spread, Pair):
        return bool(spread.matrix.any())
    if isinstance(spread, tuple):
        return any(spread[1])
    return spread > 0


def _may_copy(src: Source, dst: Source) -> bool:
    """Whether a reshard from `src` to `dst` makes a copy under some plan: not where
    both are fixed alike, or one group lays them out alike under every strategy."""
    if isinstance(src, Sharding) or isinstance(dst, Sharding):
        return src != dst
    return src.group != dst.group or src.layouts != dst.layouts


def _slices(src: Sharding, dst: Sharding) -> bool:
    """Whether `dst` only splits further what `src` splits (and may add partial axes):
    each device slices what it holds, with no communication."""
    if src.halo_sizes or src.sharded_dims_offsets or dst.halo_sizes or dst.sharded_dims_offsets:
        return False
    return splits_further(src, without_partial(dst))


def _gathers_inner(
    shape: tuple[int | None, ...], src: Sharding, dst: Sharding, grid: Grid
) -> bool:
    """Whether a reshard from `src` to `dst` gathers along a dim behind one that `dst`
    leaves longer than 1 per device: XLA's CPU all_gather lays its result out with the
    gathered dim major, and then copies it to row-major, the two whole at once."""
    outer = False
    have_shape, want_shape = shard_shape(shape, src, grid), shard_shape(shape, dst, grid)
    for have, want in zip(have_shape, want_shape, strict=True):
        if outer and have is not None and want is not None and want > have:
            return True
        outer = outer or want != 1
    return False


def function_grid(fn: func.FuncOp) -> Grid | None:
    """The one grid `fn` is laid out on: the one its annotations name, else the module's
    only `shard.grid`; None when there is none."""
    names = {op.grid.root_reference.data for op in fn.walk() if isinstance(op, ShardingOp)}
    table = fn.parent_op()
    if not names and table is not None:
        names = {op.sym_name.data for op in table.walk() if isinstance(op, GridOp)}
    if not names:
        return None
    if len(names) > 1:
        raise DiagnosticError(
            fn, f"auto-sharding lays a function out on one grid, found {sorted(names)}"
        )
    (name,) = names
    found = lookup_grid(fn, SymbolRefAttr(name))
    if found is None:
        raise DiagnosticError(fn, f"undefined grid @{name}")
    shape = found.shape_tuple()
    if None in shape:
        raise DiagnosticError(fn, f"auto-sharding needs a static grid, @{name} has {shape}")
    return Grid(name, shape)


FLOOR = (
    "memory-limit={limit} cannot be met: every plan holds at least {least} bytes per device "
    "at some point of the program"
)
"""The refusal of a limit below what any plan holds, made before any solve."""


def least_held(message: str) -> int | None:
    """The bytes every plan holds, from a `FLOOR` refusal in `message` (None: none)."""
    found = re.search(r"every plan holds at least (\d+) bytes per device", message)
    return None if found is None else int(found[1])


class _Planner:
    """One function: its decisions as a `Problem`, then the chosen plan written back."""

    def __init__(
        self, fn: func.FuncOp, grid: Grid, limit: int | None, model: CostModel, tie: bool = True
    ):
        if len(fn.body.blocks) != 1:
            raise DiagnosticError(fn, "only functions with one block are supported")
        self.fn = fn
        self.block: Block = fn.body.block
        self.grid = grid
        self.model = model
        self.problem = Problem(limit=limit)
        self.sources: dict[SSAValue, Source] = {}
        self.options: dict[Operation, tuple[int, list[ShardingOption], ShardingRule]] = {}
        """Each decided op: its group and its option under each of the group's strategies."""
        self.user_shards: set[ShardOp] = set()
        self.fixed_cost = 0.0
        self.costs: dict[tuple, float] = {}
        self.deferred: dict[SSAValue, Operation] = {}
        """Source ops not decided yet, by their result (`is_source`)."""
        self.sizes: dict[SSAValue, int | tuple[int, list[int]]] = {}
        """Each value's bytes per device: fixed, or (group, under each strategy)."""
        self.tie = tie
        self.tied = 0
        """The decisions left once repeats are tied (`repeats`), after `solve`."""
        self.copies: list[tuple[Operation, SSAValue, Source, Source]] = []
        """Each edge (the op reading the value, the value, from, to): where they differ,
        the reshard makes a copy in the `to` layout, live while that op runs."""
        self.order: list[Operation] = []
        """The ops in the order they run, a loop's regions once, before the loop op."""
        self.entry: dict[hlo.WhileOp, int] = {}
        """Each loop's first op in `order`."""
        self.read_only: dict[hlo.WhileOp, set[int]] = {}
        """Each loop's carries its body yields unchanged: as XLA does, the loop holds them
        in their operand's buffer (where the layouts agree), which lives until the
        result's last reader."""
        self.weight = 1.0
        """How many times the ops being added run: a loop's trips, within its regions."""
        self.followers: dict[int, int] = {}
        """Each group of a follower that carries or settles (`_carry_or_settle`): the
        group of the value it follows."""
        self.sums = Sums()
        """The copies' sizes added up at the memory points (`Sums`)."""
        self.bitcasts: set[SSAValue] = set()
        """The values that lie in another's buffer (`_bitcasts`), once `memory_points` ran."""
        self.bucketed: list[tuple[Operation, SSAValue, Key, float, Spread]] = []
        """Each edge (reader, value) that may run an all_reduce: its bucket key, its
        weight, and where it runs one (1.0) over the choices deciding its layouts. The
        buckets are made once every edge is known (`add_buckets`)."""

    # ------------------------------------------------------------------ the problem

    def build(self) -> None:
        for arg in self.block.args:
            if not is_tensor(arg):
                continue
            given = result_annotation(arg)  # the layout it arrives in, as shard-partition reads
            if given is not None:
                self.add_value(arg, sharding_of(given.sharding, given))
            else:
                self.add_value(arg, self.new_var(value_layouts(arg, self.grid)))
        self.add_block(self.block)
        for value in list(self.deferred):  # read by no op
            self.source(value)
        self.problem.points = self.memory_points()
        self.add_buckets()

    def add_block(self, block: Block) -> None:
        """`block`'s ops, in order, into the problem and into `order`."""
        for op in block.ops:
            if isinstance(op, hlo.WhileOp):
                self.add_while(op)
            elif isinstance(op, hlo.CaseOp):
                self.add_case(op)
            self.order.append(op)
            if isinstance(op, ShardOp):
                self.user_shards.add(op)
                s = sharding_of(op.sharding, op)
                self.edge(op, op.src, self.source(op.src), s)
                self.sources[op.result] = s
            elif isinstance(op, hlo.WhileOp | hlo.CaseOp):
                continue
            elif op.has_trait(IsTerminator):
                if block is self.block:
                    for v in op.operands:
                        if is_tensor(v) and not isinstance(v.owner, ShardOp):
                            self.settle(op, v)
            elif needs_model(op):
                if self.is_source(op):
                    self.deferred[op.results[0]] = op
                else:
                    self.add_op(op)
            else:
                for r in op.results:
                    if is_tensor(r):
                        self.add_value(r, self.replicated)

    def add_case(self, op: hlo.CaseOp) -> None:
        """A `case`: its index whole (every device takes the same branch), each result one
        layout, which every branch yields (as `shard-partition` lays a case out), the
        user's where they annotated it; each branch's ops decided and their costs counted
        (the plan pays for either branch it takes). In `order` the branches come before
        the case op, one after another, as only one runs."""
        index = op.operands[0]
        self.edge(op, index, self.source(index), self.replicated)
        slots = [self._slot(r, result_annotation(r)) for r in op.results]
        for branch in op.branches:
            self.add_block(branch.block)
            terminator = branch.block.last_op
            assert terminator is not None
            for v, slot in zip(terminator.operands, slots, strict=True):
                if is_tensor(v):
                    self.edge(terminator, v, self.source(v), slot)
        for r, slot in zip(op.results, slots, strict=True):
            if is_tensor(r):
                self.add_value(r, slot)

    def _slot(self, r: SSAValue, given: ShardOp | None) -> Source:
        """The layout of a region op's result `r` and what flows into it: the user's
        annotation `given`, else a decision among its layouts."""
        if not is_tensor(r):
            return self.replicated
        if given is not None:
            return sharding_of(given.sharding, given)
        layouts = value_layouts(r, self.grid)
        return layouts[0] if len(layouts) == 1 else self.new_var(layouts)

    def add_while(self, op: hlo.WhileOp) -> None:
        """A loop: each carry one layout, on entry, in both regions, yielded and after the
        loop (as `shard-partition` lays it out), the user's where they annotated the
        carry; the regions' ops are decided once for every trip, their costs counted
        once per trip. In `order` the regions come before the loop op, which stands for
        its end: whatever the loop reads from above lives through every trip."""
        cond, body = op.cond.block, op.body.block
        slots: list[Source] = []
        for i, r in enumerate(op.results):
            given = next(
                (a for v in (cond.args[i], body.args[i], r) if (a := result_annotation(v))),
                None,
            )
            slot = self._slot(r, given)
            slots.append(slot)
            v = op.operands[i]
            if is_tensor(v):
                if v in self.deferred and isinstance(slot, _Var):
                    self.join(self.deferred.pop(v), slot)
                self.edge(op, v, self.source(v), slot)
            self.sources[cond.args[i]] = self.sources[body.args[i]] = slot
        self.entry[op] = len(self.order)
        trips = trip_count(op)
        outer = self.weight
        self.weight = outer * (1 if trips is None else trips)
        self.add_block(cond)
        self.add_block(body)
        terminator = body.last_op
        assert terminator is not None
        for v, slot in zip(terminator.operands, slots, strict=True):
            if is_tensor(v):
                self.edge(terminator, v, self.source(v), slot)
        self.weight = outer
        for r, slot in zip(op.results, slots, strict=True):
            if is_tensor(r):
                self.add_value(r, slot)
        self.read_only[op] = {
            k
            for k, v in enumerate(terminator.operands)
            if is_tensor(v) and self._annotated(v) is body.args[k]
        }

    def memory_points(self) -> list[MemoryPoint]:
        """The bytes live while each op runs that may be the peak: its operands and
        results, every value defined before it and read after it, and the arguments.
        Only ops after which some value or copy dies are kept (every op a reshard
        copies for: so the copies of readers one after another never count together):
        the others hold a subset of what the next op holds."""
        ops = self.order
        index = {op: i for i, op in enumerate(ops)}
        last = len(ops) - 1
        returned = self._returned()
        outputs = set(returned)
        self.bitcasts = self._bitcasts(outputs)
        dies: dict[SSAValue, int] = {}
        """Each value's last reader, in its fixed layout, or in any of its group's."""
        for op in reversed(ops):
            for r in op.results:
                fixed = self.sources.get(r)
                layout = fixed if isinstance(fixed, Sharding) else None
                dies[r] = self._last_read(r, layout, dies, index)
        born: dict[int, list[SSAValue]] = {}
        ending: set[int] = {last}
        held = MemoryPoint()
        for value in returned:  # XLA gives each result a buffer for the whole call
            self._add(held, value, 1)
        deaths: dict[SSAValue, list[int]] = {}
        """Per value, its last reader's index under each strategy of its group."""
        in_place = self._in_place(dies, index)
        aliases = {loop.results[k]: k for loop, carries in self.read_only.items() for k in carries}
        for value in self.sizes:
            if value.owner is self.block:  # an argument: held for the whole call
                self._add(held, value, 1)
            elif value in outputs or value in in_place or value in aliases or self._fused(value):
                continue
            elif value in self.bitcasts:
                continue
            elif (sliced := self._sliced(value)) is not None and not any(sliced):
                continue
            else:
                deaths[value] = self._deaths(value, dies, index)
        for value in self._hosted(deaths, returned, index, last):
            del deaths[value]
        for value, ends in deaths.items():
            born.setdefault(self._birth(value, index), []).append(value)
            ending.update(ends)
        copies = [c for c in self.copies if c[0] not in self.entry]  # a loop's carries: its results
        ending.update(
            index[reader]
            for reader, _, src, dst in copies
            if not isinstance(reader, ShardOp) and _may_copy(src, dst)
        )
        points: list[MemoryPoint] = []
        at: list[int] = []
        dead_at: dict[int, list[tuple[SSAValue, list[bool] | None]]] = {}
        for i in range(len(ops)):
            for value in born.get(i, ()):
                sliced = self._sliced(value)
                self._add(held, value, 1, sliced)
                ends = deaths[value]
                distinct = set(ends)
                for end in distinct:
                    dying = None if len(distinct) == 1 else [e == end for e in ends]
                    if sliced is not None:
                        dying = [a and (dying is None or dying[k]) for k, a in enumerate(sliced)]
                    dead_at.setdefault(end, []).append((value, dying))
            if i in ending:
                terms = {g: list(m) for g, m in held.terms.items() if any(m)}
                points.append(MemoryPoint(held.base, terms))
                at.append(i)
            for value, dying in dead_at.pop(i, ()):
                self._add(held, value, -1, dying)
        # A copy lives from its reader to the value's next reader: `shard-partition` reuses
        # a reshard for every later reader that wants the same layout, so it outlives its
        # first reader where the next one wants it too (a weight gathered in the forward
        # pass and read again in the backward); and at least at the first point from its
        # reader on. A copy an annotation makes lives as the annotation's result, one copy
        # for every annotation of the value into the same layout.
        readers: dict[SSAValue, list[int]] = {}
        annotated: dict[tuple[SSAValue, Sharding], tuple[int, int, Source]] = {}
        transients: list[tuple[int, SSAValue, Source, Source]] = []
        """Each reshard's point and (value, from, to): its second copy (`_with_transients`)."""
        for reader, value, src, dst in copies:
            readers.setdefault(value, []).append(index[reader])
            if isinstance(reader, ShardOp) and isinstance(dst, Sharding):
                start, end, _ = annotated.get((value, dst), (index[reader], 0, src))
                annotated[(value, dst)] = (start, max(end, dies[reader.result]), src)
        for later in readers.values():
            later.sort()
        for reader, value, src, dst in copies:
            if isinstance(reader, ShardOp) and isinstance(dst, Sharding):
                continue
            later = readers[value]
            i = index[reader]
            nxt = later[bisect_right(later, i)] if later[-1] > i else i
            first = bisect_left(at, i)
            end = bisect_left(at, nxt)
            if reader.results and reader.results[0] in self.bitcasts:  # the copy, reshaped
                end = max(end, bisect_right(at, dies[reader.results[0]]))
            self._add_copy(points[first : max(first + 1, end)], value, src, dst)
            if not self._elementwise(reader):  # (an elementwise reader fuses the copy)
                transients.append((first, value, src, dst))
        for (value, dst), (start, end, src) in annotated.items():
            first = bisect_left(at, start)
            self._add_copy(points[first : max(first + 1, bisect_right(at, end))], value, src, dst)
            transients.append((first, value, src, dst))
        for r, k in aliases.items():  # a read-only carry: the operand, or its copy
            loop = r.owner
            v = loop.operands[k]  # type: ignore[union-attr]
            first = bisect_left(at, self.entry[loop])  # type: ignore[index]
            end = bisect_right(at, dies[r])
            self._add_copy(points[first : max(first + 1, end)], v, self.sources[v], self.sources[r])
            transients.append((first, v, self.sources[v], self.sources[r]))
        return self._with_transients(points, transients)

    def _with_transients(
        self, points: list[MemoryPoint], transients: list[tuple[int, SSAValue, Source, Source]]
    ) -> list[MemoryPoint]:
        """`points` with the second copy each reshard that gathers along an inner dim
        makes at its point (`_gathers_inner`). XLA makes such copies one after another, so
        a point with several becomes one point per copy, each holding that one."""
        at: dict[int, list[Spread]] = {}
        for i, value, src, dst in transients:
            spread = self._copy_spread(value, src, dst, second=True)
            if i < len(points) and _adds(spread):
                at.setdefault(i, []).append(spread)
        found: list[MemoryPoint] = []
        for i, point in enumerate(points):
            if i not in at:
                found.append(point)
            for spread in at.get(i, ()):
                held = MemoryPoint(
                    point.base, {g: list(m) for g, m in point.terms.items()}, dict(point.pairs)
                )
                self._add_spread([held], spread)
                found.append(held)
        return found

    def _hosted(
        self,
        deaths: dict[SSAValue, list[int]],
        returned: list[SSAValue],
        index: dict[Operation, int],
        last: int,
    ) -> set[SSAValue]:
        """The values XLA lays into a returned value's buffer before that value is made,
        which hold nothing beside it. XLA's buffer assignment gives each returned value
        its own buffer for the whole call, then tries each other value, largest first,
        in the smallest such buffer that holds it and that nothing holds while the value
        lives (a scanned model's stacked residuals go into the buffers of the updated
        stacked weights). A value is laid in only where it fits whatever the plan: its
        largest layout within the returned value's smallest."""
        terminator = self.block.last_op
        assert terminator is not None
        hosts = sorted(
            (
                (self._pinned(v, min), [(self._birth(self._annotated(v), index), last)])
                for v in terminator.operands
                if self._annotated(v) in returned and not isinstance(v.owner, Block)
            ),
            key=lambda h: h[0],
        )
        needs = {value: self._pinned(value, max) for value in deaths}
        found: set[SSAValue] = set()
        for value in sorted(deaths, key=lambda v: -needs[v]):
            start, end, need = self._birth(value, index), max(deaths[value]), needs[value]
            for size, held in hosts:
                if size >= need and all(end < a or b < start for a, b in held):
                    held.append((start, end))
                    found.add(value)
                    break
        return found

    def _pinned(self, value: SSAValue, pick: Callable[[list[int]], int]) -> int:
        """`value`'s bytes per device in the layout its result annotation (or, for a
        returned value, the return's) gives it; else `pick` of its bytes under each
        strategy."""
        given = result_annotation(value) or value.owner
        if isinstance(given, ShardOp) and isinstance(s := self.sources.get(given.result), Sharding):
            return shard_bytes(shape_of(value), element_bytes(value.type), s, self.grid)  # type: ignore[arg-type]
        size = self.sizes[self._annotated(value)]
        return size if isinstance(size, int) else pick(size[1])

    def _last_read(
        self,
        value: SSAValue,
        layout: Sharding | None,
        dies: dict[SSAValue, int],
        index: dict[Operation, int],
    ) -> int:
        """The index of `value`'s last reader in `layout` (None: in any) (`_read_at`); a
        `shard.shard` that keeps `layout` reads it as long as the annotation's result is
        read, and one that lays it out anew only where it runs, its copy living on in
        its place."""
        ends = [self._birth(value, index)]
        for use in value.uses:
            op = use.operation
            ends.append(self._read_at(value, op, index))
            if op in self.read_only and use.index in self.read_only[op]:  # type: ignore[index]
                ends.append(dies[op.results[use.index]])  # its result is this buffer
            if isinstance(op, ShardOp) and op in index:
                if layout is None or layout == self.sources[op.result]:
                    ends.append(dies[op.result])
            if op.results and op.results[0] in self.bitcasts:  # its buffer, reshaped
                ends.append(dies[op.results[0]])
        return max(ends)

    def _birth(self, value: SSAValue, index: dict[Operation, int]) -> int:
        """Where `value` comes to be: its op; a loop's result at the loop's entry (it is
        the loop's carry, live through every trip); a region's argument at its first op."""
        owner = value.owner
        if isinstance(owner, Block):
            loop = owner.parent_op()
            return 0 if owner is self.block or loop is None else self.entry[loop]  # type: ignore[index]
        return self.entry[owner] if owner in self.entry else index[owner]  # type: ignore[index]

    def _read_at(self, value: SSAValue, reader: Operation, index: dict[Operation, int]) -> int:
        """Where `reader` reads `value`: a use in a region counts at the op of `value`'s
        block that holds it (a loop reads what it captures through every trip), and a
        loop reads its operands just before its entry (they become its carries)."""
        block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
        assert block is not None
        holder = block.find_ancestor_op_in_block(reader)
        assert holder is not None
        if holder is reader and reader in self.entry:
            return max(0, self.entry[reader] - 1)  # type: ignore[index]
        return index[holder]

    def _in_place(self, dies: dict[SSAValue, int], index: dict[Operation, int]) -> set[SSAValue]:
        """The values a loop's body yields into their carry's buffer, so that they hold no
        buffer of their own: made in the body after its argument for that carry was
        last read (a `dynamic_update_slice` of a stacked carry, `h = f(h)`)."""
        found: set[SSAValue] = set()
        for loop in self.entry:
            body = loop.body.block
            assert body.last_op is not None
            for arg, v in zip(body.args, body.last_op.operands, strict=True):
                v = self._annotated(v)
                if isinstance(v, OpResult) and v.owner.parent_block() is body:
                    if self._last_read(arg, None, dies, index) <= index[v.owner]:
                        found.add(v)
        return found

    def _deaths(
        self, value: SSAValue, dies: dict[SSAValue, int], index: dict[Operation, int]
    ) -> list[int]:
        """`value`'s last reader under each strategy of its group (one entry when its
        layout is fixed, or no annotation reads it)."""
        size = self.sizes[value]
        if not isinstance(size, tuple) or not any(
            isinstance(use.operation, ShardOp) for use in value.uses
        ):
            return [dies[value]]
        layouts = self.sources[value].layouts  # type: ignore[union-attr]
        return [self._last_read(value, layout, dies, index) for layout in layouts]

    def _returned(self) -> list[SSAValue]:
        """The values the function returns, each through the annotations it is read by."""
        terminator = self.block.last_op
        found = map(self._annotated, terminator.operands if terminator is not None else ())
        return [value for value in found if value in self.sizes]

    def _annotated(self, value: SSAValue) -> SSAValue:
        """The value that `value`, the result of a chain of annotations, annotates."""
        while value not in self.sizes and isinstance(value.owner, ShardOp):
            value = value.owner.src
        return value

    def _add_copy(
        self, points: list[MemoryPoint], value: SSAValue, src: Source, dst: Source
    ) -> None:
        """The copy of `value` a reshard from `src` to `dst` makes, where they differ, at
        each of `points`."""
        self._add_spread(points, self._copy_spread(value, src, dst))

    def _copy_spread(
        self, value: SSAValue, src: Source, dst: Source, second: bool = False
    ) -> Spread:
        """The bytes of the copy a reshard of `value` from `src` to `dst` makes, where
        they differ; with `second`, of the second copy its gather makes, where it gathers
        along an inner dim (`_gathers_inner`)."""
        shape, elem = shape_of(value), element_bytes(value.type)  # type: ignore[arg-type]
        grid = self.grid

        def size(s: Sharding, d: Sharding) -> int:
            made = _gathers_inner(shape, s, d, grid) if second else s != d
            return shard_bytes(shape, elem, d, grid) if made else 0

        return _spread(src, dst, size)

    def _add_spread(self, points: list[MemoryPoint], spread: Spread) -> None:
        """Add a copy's bytes (`_copy_spread`) at each of `points`."""
        if isinstance(spread, Pair):
            if spread.matrix.any():
                for point in points:
                    point.add_pair(*spread, self.sums)
        elif isinstance(spread, tuple):
            group, per = spread
            for point in points:
                point.add_terms(group, [int(m) for m in per])
        else:
            for point in points:
                point.base += int(spread)

    def _fused(self, value: SSAValue) -> bool:
        """Whether XLA keeps no buffer for `value`: made elementwise (or a constant) and
        read only by elementwise ops and reductions, which XLA fuses it into (recomputing
        it in each, as it does a cheap elementwise producer). Its readers are found
        through its annotations: a `shard.shard` is a layout, not a reader."""
        users = {use.operation for use in reading_uses(value)}
        return (
            bool(users)
            and self._elementwise(value.owner)
            and all(self._elementwise(op) or op.name == "stablehlo.reduce" for op in users)
        )

    def _bitcasts(self, outputs: set[SSAValue]) -> set[SSAValue]:
        """The reshapes' results that lie in their operand's buffer, as XLA makes a
        reshape of a row-major array a bitcast: the operand (or the copy a reshard makes
        of it for the reshape) lives as long as the result is read. A returned result
        (in `outputs`) has its own buffer."""
        return {
            op.results[0]
            for op in self.order
            if isinstance(op, hlo.ReshapeOp) and op.results[0] not in outputs
        }

    def _sliced(self, value: SSAValue) -> list[bool] | None:
        """For a constant, under each strategy whether its layout holds a slice of it
        (or a partial copy): XLA keeps constants out of the buffers it assigns, and only
        what a plan computes from one takes a buffer (a closed-over weight). None for
        any other value: it holds a buffer in every layout."""
        if not isinstance(value.owner, hlo.ConstantOp):
            return None
        source = self.sources[value]
        layouts = (source,) if isinstance(source, Sharding) else source.layouts
        return [not s.is_replicated for s in layouts]

    def _elementwise(self, op: Operation | Block) -> bool:
        return op in self.options and (
            not op.operands or is_elementwise(op, self.options[op][2])  # type: ignore[union-attr]
        )

    def _add(
        self, point: MemoryPoint, value: SSAValue, sign: int, only: list[bool] | None = None
    ) -> None:
        """`value`'s bytes, times `sign`, under every strategy (or those `only` marks)."""
        size = self.sizes[value]
        if isinstance(size, int):
            point.base += sign * size
            return
        group, per = size
        point.add_terms(
            group, [sign * m if only is None or only[a] else 0 for a, m in enumerate(per)]
        )

    @property
    def replicated(self) -> Sharding:
        return Sharding.replicated(self.grid.name)

    @property
    def free_arguments(self) -> int:
        return sum(isinstance(self.sources.get(a), _Var) for a in self.block.args)

    def new_var(self, layouts: list[Sharding]) -> _Var:
        return _Var(self.problem.add_group(len(layouts)), tuple(layouts))

    def add_value(self, value: SSAValue, source: Source) -> None:
        """Record `value`'s layout and its bytes per device."""
        self.sources[value] = source
        shape, elem = shape_of(value), element_bytes(value.type)  # type: ignore[arg-type]
        if isinstance(source, Sharding):
            self.sizes[value] = shard_bytes(shape, elem, source, self.grid)
        else:
            per = [shard_bytes(shape, elem, s, self.grid) for s in source.layouts]
            self.sizes[value] = (source.group, per)

    def is_source(self, op: Operation) -> bool:
        """An op that reads no tensor and makes one (a constant, an iota): it is decided
        with its first reader, laid out as that reader wants it."""
        return (
            len(op.results) == 1
            and is_tensor(op.results[0])
            and not any(map(is_tensor, op.operands))
            and sharding_option_of(op) is None
        )

    def source(self, value: SSAValue) -> Source:
        """`value`'s layout source; a deferred source op read here becomes its own decision."""
        if value in self.deferred:
            self.add_op(self.deferred.pop(value))
        return self.sources.get(value, self.replicated)

    def add_op(self, op: Operation) -> None:
        rule = rule_of(op)
        group, options = self.decision(op, rule)
        self.options[op] = (group, options, rule)
        self.add_compute(op, rule, group, options)
        for i, v in enumerate(op.operands):
            if is_tensor(v):
                wants = tuple(operand_layout(rule, o, i, v) or self.replicated for o in options)
                if v in self.deferred:
                    self.join(self.deferred.pop(v), _Var(group, wants))
                self.edge(op, v, self.source(v), _Var(group, wants))
        for j, r in enumerate(op.results):
            if is_tensor(r):
                self.add_value(r, _Var(group, tuple(result_sharding(rule, o, j) for o in options)))

    def add_compute(
        self, op: Operation, rule: ShardingRule, group: int, options: list[ShardingOption]
    ) -> None:
        """`op`'s compute time under each of `group`'s strategies."""
        extents = [1] * len(rule.loops)
        maps = (*rule.operand_maps, *rule.result_maps)
        for value, m in zip((*op.operands, *op.results), maps, strict=True):
            if m is None or not is_tensor(value):
                continue
            for n, loop in zip(shape_of(value), dim_loops(m), strict=True):
                if loop is not None and n is not None:
                    extents[loop] = max(extents[loop], n)
        flops = prod(extents) * (2 if any(loop.is_reduction for loop in rule.loops) else 1)
        seconds = flops / H100_COMPUTE.flops
        for a, option in enumerate(options):
            split = prod(self.grid.shape[axis] for axes in option.loop_axes for axis in axes)
            self.problem.linear[group][a] += self.weight * seconds / split

    def repeats(self) -> list[int]:
        """Each group's representative after tying the decisions of recurring runs of
        ops (the module docstring)."""
        ops = list(self.block.ops)
        signatures = [_signature(op) for op in ops]
        index = {op: i for i, op in enumerate(ops)}
        described = self._descriptions(signatures, index)
        parent = list(range(len(self.problem.linear)))

        def find(g: int) -> int:
            while parent[g] != g:
                parent[g] = parent[parent[g]]
                g = parent[g]
            return g

        def tie(g: int, h: int) -> None:
            if described[g] == described[h]:
                g, h = sorted((find(g), find(h)))
                parent[h] = g

        def tie_ops(a: Operation, b: Operation) -> None:
            if a in self.options and b in self.options:
                tie(self.options[a][0], self.options[b][0])
            for v, w in zip(a.operands, b.operands, strict=True):
                src, dst = self.sources.get(v), self.sources.get(w)
                if v.owner is self.block and isinstance(src, _Var) and isinstance(dst, _Var):
                    tie(src.group, dst.group)

        def alike(i: int, d: int) -> bool:
            if signatures[i] != signatures[i + d]:
                return False
            for v, w in zip(ops[i].operands, ops[i + d].operands, strict=True):
                if isinstance(v, OpResult) and isinstance(w, OpResult):
                    q, r = index.get(v.owner), index.get(w.owner)
                    if q is None or r is None or v.index != w.index:
                        return False
                    if r - q != d and signatures[q] != signatures[r]:
                        return False
                elif not (v.owner is self.block and w.owner is self.block):
                    return False
            return True

        for d in _periods(signatures):
            run: list[int] = []
            for i in range(len(ops) - d + 1):
                if i < len(ops) - d and alike(i, d):
                    run.append(i)
                    continue
                if len(run) >= MIN_RUN:
                    for j in run:
                        tie_ops(ops[j], ops[j + d])
                run = []
        # a follower deciding for itself (`_carry_or_settle`) goes with its like on a
        # tied operand, wherever it stands (an optimizer's update of each layer's weight)
        followed: dict[int, list[int]] = {}
        for group, leader in self.followers.items():
            alike_ones = followed.setdefault(find(leader), [])
            for other in alike_ones:
                if described[other] == described[group]:
                    tie(other, group)
                    break
            else:
                alike_ones.append(group)
        return [find(g) for g in range(len(parent))]

    def _descriptions(self, signatures: list[tuple], index: dict[Operation, int]) -> list[list]:
        """What each group decides, to tie only groups with the same candidates: its
        arguments' layouts, its ops' signatures and options, in order."""
        described: list[list] = [[] for _ in self.problem.linear]
        for arg in self.block.args:
            if isinstance(src := self.sources.get(arg), _Var):
                described[src.group].append((arg.type, src.layouts))
        for op, (group, options, _) in self.options.items():
            i = index.get(op)
            described[group].append(
                (_signature(op) if i is None else signatures[i], tuple(options))
            )
        return described

    def decision(self, op: Operation, rule: ShardingRule) -> tuple[int, list[ShardingOption]]:
        """The group deciding `op`'s option, and its option under each strategy."""
        if (given := sharding_option_of(op)) is not None:
            try:
                fixed = option_from_loops(rule, *given)
            except ShardingConflict as err:
                raise DiagnosticError(op, f"invalid sharding option: {err}") from err
            return self.problem.add_group(1), [fixed]
        if is_elementwise(op, rule):
            for i, v in enumerate(op.operands):
                src = self.sources.get(v)
                if isinstance(src, _Var) and shape_of(v) == shape_of(op.results[0]):
                    held: list[Sharding | None] = [None] * len(op.operands)
                    options = []
                    for s in src.layouts:
                        held[i] = s
                        options.append(follow(rule, s, held))
                    if not all(option_fits(op, rule, o, self.grid) for o in options):
                        continue
                    if not any(o.carried_axes for o in options):
                        return src.group, options
                    others = [self.partial_states(w) for j, w in enumerate(op.operands) if j != i]
                    if not others:  # (a negate: carrying leaves the settling to its readers)
                        return src.group, options
                    if not all(others):  # (a partial sum plus a whole value: settled first)
                        settled = [follow(rule, without_partial(s), []) for s in src.layouts]
                        return src.group, settled
                    return self._carry_or_settle(src, rule, options)
        partials = [self.partial_states(v) for v in op.operands]
        options = op_options(op, rule, self.grid, partials)
        return self.problem.add_group(len(options)), options

    def _carry_or_settle(
        self, src: _Var, rule: ShardingRule, carried: list[ShardingOption]
    ) -> tuple[int, list[ShardingOption]]:
        """A follower of a partial sum whose other operands may be partial sums too
        decides whether it carries the sums on (adding two partial sums: one
        all_reduce after) or settles them first: its own group, its layout its
        operand's under every strategy (any other pair with the operand's group is
        forbidden)."""
        import numpy as np

        options, base = list(carried), list(range(len(carried)))
        for a, option in enumerate(carried):
            if option.carried_axes:
                options.append(follow(rule, without_partial(src.layouts[a]), []))
                base.append(a)
        group = self.problem.add_group(len(options))
        self.followers[group] = src.group
        tied = np.full((len(carried), len(options)), np.inf)
        tied[base, range(len(options))] = 0.0
        self.problem.add_pair(src.group, group, tied)
        return group, options

    def join(self, op: Operation, wanted: _Var) -> None:
        """Decide source op `op` with its reader: under each strategy, as `wanted` says."""
        rule = rule_of(op)
        options = [follow(rule, without_partial(s), []) for s in wanted.layouts]
        if not is_elementwise(op, rule) or not all(
            option_fits(op, rule, o, self.grid) for o in options
        ):
            self.add_op(op)
            return
        self.options[op] = (wanted.group, options, rule)
        self.add_compute(op, rule, wanted.group, options)
        layouts = tuple(result_sharding(rule, o, 0) for o in options)
        self.add_value(op.results[0], _Var(wanted.group, layouts))

    def partial_states(self, value: SSAValue) -> set[Partial]:
        """The partial states `value` may be in, under any strategy."""
        src = self.sources.get(value)
        layouts = () if src is None else (src,) if isinstance(src, Sharding) else src.layouts
        return {(s.partial_axes, s.partial_kind) for s in layouts if s.is_partial}

    def settle(self, ret: Operation, value: SSAValue) -> None:
        """A returned value leaves in its layout, settled if partial."""
        src = self.source(value)
        if isinstance(src, Sharding):
            self.edge(ret, value, src, without_partial(src))
        else:
            layouts = tuple(map(without_partial, src.layouts))
            self.edge(ret, value, src, _Var(src.group, layouts))

    def price(self, value: SSAValue, src: Sharding, dst: Sharding) -> Priced:
        key = (src, dst, value.type)
        if key not in self.costs:
            free = src == dst or _slices(src, dst)  # (and zeros, for a partial `dst`)
            self.costs[key] = FREE if free else price(self.model, src, dst, value, self.grid)
        return self.costs[key]

    def edge(self, reader: Operation, value: SSAValue, src: Source, dst: Source) -> None:
        """The reshard of `value` from `src` to `dst` for `reader`, into the problem's
        costs and buckets (and its copy into the memory points, `memory_points`)."""
        self.copies.append((reader, value, src, dst))
        priced: dict[tuple[Sharding, Sharding], Priced] = {}

        def seconds(s: Sharding, d: Sharding) -> float:
            priced[s, d] = found = self.price(value, s, d)
            return self.weight * found.seconds

        self._add_cost(_spread(src, dst, seconds))
        keys = {key for found in priced.values() for key in found.shared}
        for key in sorted(keys, key=repr):  # (an order no hash seed changes)
            runs = _spread(src, dst, lambda s, d, key=key: float(key in priced[s, d].shared))
            self.bucketed.append((reader, value, key, self.weight, runs))

    def add_buckets(self) -> None:
        """The edges of a block that may run an all_reduce of one key: one `Bucket`,
        each edge a link following the edges it follows whatever the plan (`follows`)."""
        keyed: dict[tuple[Block | None, Key], list[int]] = {}
        for k, (reader, _, key, _, _) in enumerate(self.bucketed):
            keyed.setdefault((reader.parent_block(), key), []).append(k)
        for (block, key), ks in keyed.items():
            assert block is not None
            at = {op: i for i, op in enumerate(block.ops)}
            ks.sort(key=lambda k: at[self.bucketed[k][0]])
            latency = self.model.collective_latency("all_reduce", key[0], self.grid)
            bucket = Bucket(self.bucketed[ks[0]][3] * latency)
            after = follows(block, [self.bucketed[k][:2] for k in ks])
            for k, before in zip(ks, after, strict=True):
                bucket.add(_link(self.bucketed[k][4]), before)
            self.problem.buckets.append(bucket)

    def _add_cost(self, spread: Spread) -> None:
        if isinstance(spread, Pair):
            self.problem.add_pair(*spread)
        elif isinstance(spread, tuple):
            group, per = spread
            for a, c in enumerate(per):
                self.problem.linear[group][a] += c
        else:
            self.fixed_cost += spread

    # ------------------------------------------------------------------ the plan

    def solve(self, time_limit: float | None = None) -> Solution:
        limit = self.problem.limit
        if limit is not None and (least := self.problem.least_memory()) > limit:
            raise DiagnosticError(self.fn, FLOOR.format(limit=limit, least=least))
        groups = range(len(self.problem.linear))
        coarse, back = coarsen(self.problem, self.repeats() if self.tie else list(groups))
        try:
            found = solve(coarse, time_limit)
        except Infeasible as err:
            raise DiagnosticError(
                self.fn, f"auto-sharding found no plan within memory-limit={limit}: {err}"
            ) from err
        self.tied = len(coarse.linear)
        choice = [found.choice[back[g]] for g in range(len(back))]
        return Solution(choice, found.cost, found.memory, found.seconds, found.gap)

    def layout(self, source: Source, choice: list[int]) -> Sharding:
        return source if isinstance(source, Sharding) else source.layouts[choice[source.group]]

    def write(self, choice: list[int]) -> None:
        rewriter = Rewriter()
        held: dict[SSAValue, Sharding] = {}
        """The layout each value is in, as `shard-partition` will see it."""
        self.write_arguments(self.block, choice, held, rewriter)
        self.write_block(self.block, choice, held, rewriter)

    def write_arguments(
        self, block: Block, choice: list[int], held: dict[SSAValue, Sharding], rewriter: Rewriter
    ) -> None:
        """A result annotation on each of `block`'s arguments whose layout was decided:
        the function's, and a loop body's (where `shard-partition` reads its carry's)."""
        args: list[Operation] = []
        for arg in block.args:
            if is_tensor(arg) and result_annotation(arg) is None:
                source = self.sources.get(arg)
                if source is None or (block is self.block and not isinstance(source, _Var)):
                    continue
                s = self.layout(source, choice)
                sharding, shard = annotation(arg, s, False)
                arg.replace_uses_with_if(shard.result, lambda u, new=shard: u.operation is not new)
                args += (sharding, shard)
                held[arg] = held[shard.result] = s
        if args:
            rewriter.insert_op(args, InsertPoint.at_start(block))

    def write_block(
        self, block: Block, choice: list[int], held: dict[SSAValue, Sharding], rewriter: Rewriter
    ) -> None:
        for op in list(block.ops):
            if isinstance(op, ShardOp) and op in self.user_shards:
                held[op.result] = sharding_of(op.sharding, op)
            elif op in self.options:
                self.write_op(op, choice, held, rewriter)
            elif isinstance(op, hlo.WhileOp | hlo.CaseOp):
                if isinstance(op, hlo.WhileOp):
                    self.write_arguments(op.body.block, choice, held, rewriter)
                for region in op.regions:
                    self.write_block(region.block, choice, held, rewriter)
                for r in reversed(op.results):  # each is written just after the op
                    if is_tensor(r):
                        self.write_result(
                            op, r, self.layout(self.sources[r], choice), held, rewriter
                        )
            elif op.has_trait(IsTerminator) and block is self.block:
                for i, v in enumerate(op.operands):
                    s = held.get(v)
                    if s is not None and s.is_partial and v.owner not in self.user_shards:
                        sharding, shard = annotation(v, without_partial(s), True)
                        rewriter.insert_op((sharding, shard), InsertPoint.before(op))
                        op.operands[i] = shard.result

    def write_op(
        self, op: Operation, choice: list[int], held: dict[SSAValue, Sharding], rewriter: Rewriter
    ) -> None:
        group, options, rule = self.options[op]
        option = options[choice[group]]
        for i, v in enumerate(op.operands):
            want = operand_layout(rule, option, i, v)
            if want is not None and want != held.get(v, self.replicated):
                sharding, shard = annotation(v, want, True)
                rewriter.insert_op((sharding, shard), InsertPoint.before(op))
                op.operands[i] = shard.result
        for j, r in enumerate(op.results):
            if is_tensor(r):
                self.write_result(op, r, result_sharding(rule, option, j), held, rewriter)

    def write_result(
        self,
        op: Operation,
        r: SSAValue,
        s: Sharding,
        held: dict[SSAValue, Sharding],
        rewriter: Rewriter,
    ) -> None:
        """`op`'s result `r` annotated as laid out `s`: by the user's own annotation,
        where it comes before every other reader, else by a new one."""
        block = op.parent_block()
        assert block is not None
        readers = [block.find_ancestor_op_in_block(u.operation) for u in r.uses]
        same = [
            u.operation
            for u in r.uses
            if u.operation in self.user_shards
            and u.operation.parent_block() is block
            and is_result_annotation(u.operation)
            and sharding_of(u.operation.sharding, u.operation) == s
            and all(
                other is u.operation or u.operation.is_before_in_block(other)  # type: ignore[arg-type]
                for other in readers
            )
        ]
        if same:
            target = same[0]
        else:
            sharding, target = annotation(r, s, False)
            rewriter.insert_op((sharding, target), InsertPoint.after(op))
        r.replace_uses_with_if(target.result, lambda u, t=target: u.operation is not t)
        held[r] = held[target.result] = s


@dataclass(frozen=True)
class AutoShardingPass(ModulePass):
    """Choose shardings by integer programming.

    Options: `memory-limit` (bytes per device, default none), `report` (default false),
    `tie-repeats` (default true), `time-limit` (seconds the solve may take, default
    none: solved to optimality)."""

    name = "auto-sharding"

    memory_limit: int | None = None
    report: bool = False
    tie_repeats: bool = True
    time_limit: int | float | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.memory_limit is not None and self.memory_limit <= 0:
            raise DiagnosticError(op, f"memory-limit must be positive, got {self.memory_limit}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise DiagnosticError(op, f"time-limit must be positive, got {self.time_limit}")
        for fn in op.walk():
            if not isinstance(fn, func.FuncOp) or not fn.body.blocks:
                continue
            grid = function_grid(fn)
            if grid is None:
                continue
            planner = _Planner(fn, grid, self.memory_limit, CostModel(), self.tie_repeats)
            planner.build()
            solution = planner.solve(self.time_limit)
            planner.write(solution.choice)
            if self.report:
                cost = solution.cost + planner.fixed_cost
                gap = f" (time limit: within {solution.gap:.2%} of optimal)" if solution.gap else ""
                limit = self.memory_limit
                under = "" if limit is None else f", under memory-limit={limit}"
                print(
                    f"auto-sharding @{fn.sym_name.data}: cost {cost:.3e} s, "
                    f"{solution.memory} bytes per device, {len(planner.problem.linear)} decisions "
                    f"for {len(planner.options)} ops and {planner.free_arguments} arguments "
                    f"({planner.tied} once repeats are tied), "
                    f"solved in {solution.seconds:.3f} s{gap}{under}",
                    file=sys.stderr,
                )
