"""Shardy-style propagation of split axes: what `sharding-propagation{strategy=aggressive}` runs.

Upstream's propagation writes an annotation for every value it visits, "replicated"
included, in one or two sweeps, so a replicated result (a gradient returned whole)
pins the loops of everything before it: a data-parallel backward pass ends up
gathering its activations. Here, as in Shardy, only axes propagate; a value nobody
has split is open, and an annotation the user wrote is closed (never changed, but in
the dims its `xshard.open_dims` lists: a constraint's `P.UNCONSTRAINED`):

1. **Split axes, to a fixed point.** Each op's loops (its sharding rule's factors)
   take, from the dims of its operands and results that they index, the most sharded
   axes all those dims agree with (the longest one the others are prefixes of; on a
   conflict, the one over most devices, then the one more elements hold); an axis
   shards one loop only (the loop over most devices, then the one whose axes more
   elements hold, keeps it: moving the smaller tensors is cheaper; an argument the
   user did not lay out weighs nothing, its layout is free), and a loop keeps only
   the axes every dim it indexes divides by. Open dims then grow to their
   loop's axes. `shard.shard` ops pass axes through unchanged (both ends are one
   value). Sweeps go forward and backward until nothing grows.
2. **Annotations.** In program order each op runs under the option its loops give,
   carrying the partial state of an operand it accepts partial if that operand has
   no other reader (a partial value read twice is settled once, not once per chain
   it would flow down) or the user wants the op's result partial; a split reduction
   loop leaves its results partial, as before. Its results get that layout as result
   annotations, and each operand whose layout differs gets an annotation for the op.
   An argument the user did not lay out arrives as its first user reads it (never
   partial); a returned value left partial is settled, unless the user's annotation
   says partial.

Regions (`while`, `case`, `optimization_barrier`, `sdy.manual_computation`): each
carry of the op's flow (`region_flow`) is an `Edge`, joined in the sweeps as an
identity op over its places, and the ops of the regions are propagated with the
rest. In phase 2 a carry's places get its one layout (a manual computation's outer
places after its manual axes), and a loop carry that only accumulates a partial value
is carried partial where the cost model says it is worth it (`partial_carry`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod

from xdsl.dialects import func
from xdsl.dialects.builtin import SymbolRefAttr, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove, IsTerminator

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import (
    is_result_annotation,
    open_dims,
    reading_uses,
    shard_op,
    sharding_of,
    sharding_op,
    sharding_option_of,
)
from xshard.interfaces.models.stablehlo_control_flow import trip_count
from xshard.interfaces.region_flow import Carry, RegionFlow, function_ops, region_flow
from xshard.interfaces.sharding_interface import ShardingRule, is_tensor
from xshard.interfaces.sharding_option import (
    ShardingConflict,
    ShardingOption,
    loop_option,
    operand_layout,
    option_fits,
    option_from_loops,
    result_sharding,
    without_partial,
)
from xshard.sharding.cost_model import CostModel, shard_bytes
from xshard.sharding.grid import Grid
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.sharding import Sharding
from xshard.sharding.tensor_bytes import element_bytes
from xshard.transforms.propagation.option_cost import (
    MODEL,
    Known,
    assignment_cost,
    reshard_time,
)

Axes = tuple[int, ...]

MAX_SWEEPS = 32
MAX_CHAIN = 16
"""How far `shrinks` follows a partial value's readers."""
MAX_ALTERNATIVES = 256
"""Past this many ways to give an op's loops their candidates' axes, no cost-aware pick."""


def _elements(value: SSAValue) -> int:
    return prod(max(n, 1) for n in value.type.get_shape())  # type: ignore[union-attr]


def _rank(value: SSAValue) -> int:
    t = value.type
    return t.get_num_dims() if isinstance(t, TensorType) else 0


@dataclass(eq=False)
class Edge:
    """The places of one carry of a `while`, `case` or manual computation (`region_flow`):
    one layout for all, as if an identity op joined them. A manual computation's operand
    and result hold the carry's manual axes before it (`framed`), and its manual axes
    split nothing inside."""

    op: Operation
    carry: Carry
    manual: frozenset[int]

    @functools.cached_property
    def values(self) -> tuple[SSAValue, ...]:
        return tuple(self.carry.values(self.op))

    @functools.cached_property
    def framed(self) -> frozenset[SSAValue]:
        outer = self.carry.outer(self.op) if self.carry.outer_axes is not None else ()
        return frozenset(outer)

    def wanted(self, value: SSAValue, loops: Sequence[Axes]) -> list[Axes]:
        """The dims of `value` when the carry's loops are split over `loops`."""
        if value in self.framed:
            assert self.carry.outer_axes is not None
            return [o + a for o, a in zip(self.carry.outer_axes, loops, strict=True)]
        return list(loops)

    def free(self, axes: Axes) -> Axes:
        """`axes` without the manual ones: what a dim says of the carry's loop."""
        return tuple(a for a in axes if a not in self.manual)


def _indexed(op: Operation, rule: ShardingRule) -> list[tuple[SSAValue, tuple[int | None, ...]]]:
    """Each tensor the op reads or writes, with the loop indexing each of its dims. Built
    on each call from the rule's (shared) loops, as fast as a list kept per op, which
    cost ~5 MB of the pass's peak at 20k ops."""
    operand_loops, result_loops = rule.indexing
    out = [
        (v, loops)
        for v, loops in zip(op.operands, operand_loops, strict=True)
        if loops is not None and is_tensor(v)
    ]
    out += zip(op.results, result_loops, strict=True)
    return out


class FactorPropagation:
    """Propagation of one function; `rules` are its ops' sharding rules, from the pass."""

    def __init__(
        self, fn: func.FuncOp, rules: dict[Operation, ShardingRule], model: CostModel = MODEL
    ):
        if len(fn.body.blocks) != 1:
            raise DiagnosticError(fn, "only functions with one block are supported")
        self.fn = fn
        self.block: Block = fn.body.block
        self.rules = rules
        self.ops = list(function_ops(self.block))
        self.flows: dict[Operation, RegionFlow] = {
            op: flow for op in self.ops if (flow := region_flow(op)) is not None
        }
        self.edges: dict[Operation, list[Edge]] = {
            op: [Edge(op, c, flow.manual_axes) for c in flow.carries]
            for op, flow in self.flows.items()
        }
        self.grid = self._grid()
        self.dims: dict[SSAValue, list[Axes]] = {}
        self.closed: dict[SSAValue, Sharding] = {}
        """Values the user laid out: their annotation, never changed but in its open dims."""
        self.open: dict[SSAValue, frozenset[int]] = {}
        """Dims of closed values that may grow (a constraint's `xshard.open_dims`)."""
        self.fixed: dict[Operation, ShardingOption] = {}
        self.loops: dict[Operation | Edge, list[Axes]] = {}
        """Each op's loop axes as last visited: at the fixed point, the sweep that changed
        nothing read them, so annotations are written from them without recomputing."""
        self.open_args: set[SSAValue] = set()
        """Arguments not laid out yet: each arrives as its first user reads it."""
        self.unmet: set[Operation] = set()
        """Ops whose loops, as last visited, leave some layout around them unmet."""
        self.behind: dict[SSAValue, frozenset[Operation]] = {}
        """`settles_behind`'s answers, as the annotations are written."""
        self.readers: dict[SSAValue, int] = {}
        """How many ops read each value, before annotations are written."""
        self.rewriter = Rewriter()
        self.model = model
        self.shardings: dict[Block, dict[Sharding, ShardingOp]] = {}
        """One `shard.sharding` per layout and scope (the function, or a manual
        computation's body, isolated from above), at its top, for every annotation
        written there: a long program repeats a few layouts thousands of times."""

    def _grid(self) -> Grid | None:
        """The one grid the function's annotations, and its manual computations, name."""
        names = {op.grid.root_reference.data for op in self.ops if isinstance(op, ShardingOp)}
        names |= {flow.grid for flow in self.flows.values() if flow.grid is not None}
        if not names:
            return None
        if len(names) > 1:
            raise DiagnosticError(
                self.fn,
                f"aggressive propagation lays a function out on one grid, found {sorted(names)}",
            )
        (name,) = names
        found = lookup_grid(self.fn, SymbolRefAttr(name))
        if found is None:
            raise DiagnosticError(self.fn, f"undefined grid @{name}")
        return Grid(name, found.shape_tuple())

    def run(self) -> None:
        if self.grid is None:
            return
        self.seed()
        ops: list[Operation | Edge] = []
        for op in self.ops:
            if op in self.rules or isinstance(op, ShardOp):
                ops.append(op)
            ops += (e for e in self.edges.get(op, ()) if is_tensor(e.values[0]))
        changed = False
        for sweep in range(MAX_SWEEPS):
            order = ops if sweep % 2 == 0 else ops[::-1]
            changed = False
            for op in order:
                changed |= self.visit(op)
            if not changed and sweep:
                break
        if changed:  # out of sweeps: the loops the last sweep read are stale
            for item in ops:
                if not isinstance(item, ShardOp):
                    self.loops[item] = self.loop_axes(item)
        self.write()

    # ------------------------------------------------------------------ phase 1

    def seed(self) -> None:
        """Every tensor starts open and unsplit; the user's annotations close theirs."""
        blocks = [self.block, *(b for op in self.flows for r in op.regions for b in r.blocks)]
        for block in blocks:
            for arg in block.args:
                if is_tensor(arg):
                    self.dims[arg] = [()] * _rank(arg)
        for op in self.ops:
            for r in op.results:
                if is_tensor(r):
                    self.dims[r] = [()] * _rank(r)
        for op in self.ops:
            if isinstance(op, ShardOp):
                s = sharding_of(op.sharding, op)
                self.close(op.result, s)
                if opened := open_dims(op):
                    self.open[op.result] = opened
                if is_result_annotation(op) and op.src not in self.closed:
                    self.close(op.src, s)
            elif op in self.rules and (given := sharding_option_of(op)) is not None:
                grid, loops = given
                try:
                    self.fixed[op] = option_from_loops(self.rules[op], grid, loops)
                except ShardingConflict as err:
                    raise DiagnosticError(op, f"invalid sharding option: {err}") from err

    def close(self, value: SSAValue, s: Sharding) -> None:
        self.closed[value] = s
        self.dims[value] = [s.axes_of(d) for d in range(_rank(value))]

    def visit(self, op: Operation | Edge) -> bool:
        """Grow the open dims around `op` to its loops' axes; whether any grew."""
        if isinstance(op, ShardOp):  # one value: its open dims grow from either end
            grew = self.grow(op.src, self.dims[op.result])
            return self.grow(op.result, self.dims[op.src]) or grew
        loops = self.loops[op] = self.loop_axes(op)
        changed = False
        if isinstance(op, Edge):
            for v in op.values:
                changed |= self.grow(v, op.wanted(v, loops))
            return changed
        for v, loop_of in _indexed(op, self.rules[op]):
            wanted = [() if loop is None else loops[loop] for loop in loop_of]
            changed |= self.grow(v, wanted)
        return changed

    def grow(self, value: SSAValue, wanted: Sequence[Axes]) -> bool:
        """Extend each open dim of `value` whose axes are a prefix of the wanted ones."""
        if value not in self.dims or (value in self.closed and value not in self.open):
            return False
        opened = self.open.get(value)
        dims = self.dims[value]
        changed = False
        for d, (have, want) in enumerate(zip(dims, wanted, strict=True)):
            if opened is not None and d not in opened:
                continue
            others = {a for e, axes in enumerate(dims) if e != d for a in axes}
            if len(want) > len(have) and want[: len(have)] == have and not others & set(want):
                dims[d] = want
                changed = True
        return changed

    def loop_axes(self, op: Operation | Edge) -> list[Axes]:
        if isinstance(op, Edge):
            return self.edge_axes(op)
        if op in self.fixed:
            return [tuple(a) for a in self.fixed[op].loop_axes]
        rule = self.rules[op]
        candidates: list[list[tuple[Axes, int]]] = [[] for _ in rule.loops]
        extents: list[list[int]] = [[] for _ in rule.loops]
        blocks: list[list[tuple[int, int]]] = [[] for _ in rule.loops]
        cells = dict(rule.min_blocks)
        operands = set(op.operands)
        for v, loop_of in _indexed(op, rule):
            shape = v.type.get_shape()  # type: ignore[union-attr]
            size = 0 if self.is_free(v) else _elements(v)
            for d, loop in enumerate(loop_of):
                if loop is None:
                    continue
                if self.dims[v][d]:
                    candidates[loop].append((self.dims[v][d], size))
                if shape[d] >= 0:
                    extents[loop].append(shape[d])
                    if loop in cells and v in operands:
                        blocks[loop].append((shape[d], cells[loop]))
        for r in op.results:
            s = self.closed.get(r)
            if s is not None and s.is_partial:
                kinds = [i for i in rule.reduction_loops() if rule.loops[i].kind == s.partial_kind]
                if kinds:
                    size = _elements(r)
                    candidates[kinds[0]].append((s.partial_axes, size))
        loops = self.assign([self.best(c) for c in candidates], extents, blocks)
        unmet = any(loops[i][: len(a)] != a for i, c in enumerate(candidates) for a, _ in c)
        if not unmet:
            self.unmet.discard(op)
            return loops
        self.unmet.add(op)
        return self.cheapest(op, rule, candidates, extents, blocks, loops)

    def edge_axes(self, edge: Edge) -> list[Axes]:
        """One layout for every place of a carry: each dim takes the most sharded axes its
        places agree with, as an op's loop does (`best`, `assign`)."""
        rank = _rank(edge.values[0])
        candidates: list[list[tuple[Axes, int]]] = [[] for _ in range(rank)]
        for v in edge.values:
            size = 0 if self.is_free(v) else _elements(v)
            for d, axes in enumerate(self.dims[v]):
                if free := edge.free(axes):
                    candidates[d].append((free, size))
        inner = next(v for v in edge.values if v not in edge.framed)
        extents = [[n] if n >= 0 else [] for n in inner.type.get_shape()]  # type: ignore[union-attr]
        return self.assign([self.best(c) for c in candidates], extents)

    def assign(
        self,
        chosen: list[tuple[Axes, int]],
        extents: list[list[int]],
        blocks: list[list[tuple[int, int]]] | None = None,
    ) -> list[Axes]:
        """Loop axes from each loop's pick: an axis goes to the loop over most devices,
        then the one whose axes more elements hold; a loop keeps only the axes every
        dim it indexes divides by, into blocks at least as wide as the op's rule asks
        of its operands (`blocks[i]`: each such operand extent and its least block; a
        windowed dim's halo must fit in a neighbour's block). A loop that cannot keep
        an axis leaves the other loops theirs: a cumulative sum along a dim too short
        to split still runs on each device's part of the batch."""
        order = sorted(
            range(len(chosen)), key=lambda i: (-self.devices(chosen[i][0]), -chosen[i][1])
        )
        used: set[int] = set()
        loops: list[Axes] = [()] * len(chosen)
        narrow = blocks or [[] for _ in chosen]
        for i in order:
            axes = chosen[i][0]
            cut = next((k for k, a in enumerate(axes) if a in used), len(axes))
            while cut and (
                any(n % self.devices(axes[:cut]) for n in extents[i])
                or any(n // self.devices(axes[:cut]) < least for n, least in narrow[i])
            ):
                cut -= 1
            loops[i] = axes[:cut]
            used |= set(loops[i])
        return loops

    def cheapest(
        self,
        op: Operation,
        rule: ShardingRule,
        candidates: list[list[tuple[Axes, int]]],
        extents: list[list[int]],
        blocks: list[list[tuple[int, int]]],
        first: list[Axes],
    ) -> list[Axes]:
        """Where the layouts around `op` disagree: of `first` (the pick by devices and
        elements) and each other way to give the loops their candidates' axes, the one
        whose reshards take least modeled time; ties keep the earlier one. A reshard
        that other readers share (`Known.shared`: a weight's input gathered for the
        forward dot, read gathered again by the backward one) is free to an option that
        splits the op's work over as many devices as `first`: one that splits it less
        would trade the reshard for work on every device and a less split result."""
        picks = [sorted({a for a, _ in c} | {()}) for c in candidates]
        if prod(map(len, picks)) > MAX_ALTERNATIVES:
            return first
        options = [first]
        for combo in product(*picks):
            loops = self.assign([(axes, 0) for axes in combo], extents, blocks)
            if loops not in options:
                options.append(loops)
        assert self.grid is not None
        grid = self.grid
        most = self.devices(tuple(a for axes in first for a in axes))

        @functools.cache
        def known(value: SSAValue, share: bool) -> Known | None:
            return self.known(value, op if share else None)  # the same for every option

        def cost(loops: list[Axes]) -> float:
            share = self.devices(tuple(a for axes in loops for a in axes)) >= most
            return assignment_cost(op, rule, grid, loops, lambda v: known(v, share), self.model)

        costs = [cost(o) for o in options]
        return options[costs.index(min(costs))]

    def is_free(self, value: SSAValue) -> bool:
        """An argument the user did not lay out: its layout is free (it arrives as read)."""
        return (
            isinstance(value, BlockArgument)
            and value.block is self.block
            and value not in self.closed
        )

    def known(self, value: SSAValue, reader: Operation | None) -> Known | None:
        """What cost-aware picks for `reader` reshard from or to: the closed layout, or
        the open dims so far, and the layouts `value`'s other readers read it in under
        their loops so far (none without a `reader`); nothing for a free argument."""
        if self.is_free(value):
            return None
        assert self.grid is not None
        shared = frozenset(self.read_as(value, reader)) if reader is not None else frozenset()
        closed = self.closed.get(value)
        if closed is not None:
            return Known(closed, shared=shared)
        return Known(Sharding.of(self.grid.name, self.dims[value]), open=True, shared=shared)

    def read_as(self, value: SSAValue, reader: Operation) -> Iterator[Sharding]:
        """The layouts the ops other than `reader` in its block read `value` in, where the
        layouts around them disagree (`unmet`), as their loops stand: where they agree,
        an op reads a value as it is, or as far as its layout has grown so far."""
        assert self.grid is not None
        for use in value.uses:
            other = use.operation
            if other is reader or other not in self.unmet:
                continue
            if other.parent_block() is not reader.parent_block():
                continue
            rule = self.rules[other]
            option = loop_option(rule, self.grid.name, self.loops[other], [])
            if (want := operand_layout(rule, option, use.index, value)) is not None:
                yield want

    def best(self, candidates: list[tuple[Axes, int]]) -> tuple[Axes, int]:
        """The most sharded candidate every other one is a prefix of; on a conflict, the
        one over most devices, then the one held by the most elements (moving the
        smaller tensors is cheaper). With it, how many elements hold those axes."""
        if not candidates:
            return (), 0
        held: dict[Axes, int] = {}
        for axes, size in candidates:
            held[axes] = held.get(axes, 0) + size
        ranked = sorted(held, key=lambda c: (-self.devices(c), -held[c]))
        for c in ranked:
            if all(c[: len(o)] == o for o in held):
                return c, sum(n for o, n in held.items() if c[: len(o)] == o)
        return ranked[0], held[ranked[0]]

    def devices(self, axes: Axes) -> int:
        assert self.grid is not None
        return prod(self.grid.shape[a] or 1 for a in axes)

    # ------------------------------------------------------------------ phase 2

    def write(self) -> None:
        assert self.grid is not None
        for v in self.open:
            self.refine(v)
        self.readers = {v: len({use.operation for use in v.uses}) for v in self.dims}
        layouts: dict[SSAValue, Sharding] = dict(self.closed)
        self.open_args = {a for a in self.block.args if is_tensor(a) and a not in self.closed}
        self.write_block(self.block, layouts)

    def refine(self, value: SSAValue) -> None:
        """A constraint whose open dims grew states the grown layout."""
        assert self.grid is not None and isinstance(value.owner, ShardOp)
        s = self.closed[value]
        grown = Sharding.of(self.grid.name, self.dims[value], s.partial_axes, s.partial_kind)
        if grown != s:
            value.owner.operands[1] = self.sharding_value(grown, value.owner.parent_block())
            self.closed[value] = grown

    def write_block(self, block: Block, layouts: dict[SSAValue, Sharding]) -> None:
        for op in list(block.ops):
            if op in self.rules:
                self.write_op(op, layouts)
            elif op in self.flows:
                self.write_flow(op, layouts)
            elif op.has_trait(IsTerminator) and block is self.block:
                self.settle_returned(op, layouts)

    def write_op(self, op: Operation, layouts: dict[SSAValue, Sharding]) -> None:
        assert self.grid is not None
        rule = self.rules[op]
        held = [layouts.get(v) if is_tensor(v) else None for v in op.operands]
        kept = any(r in self.closed and self.closed[r].is_partial for r in op.results)
        carried = [
            s if s is None or not s.is_partial or kept or self.readers.get(v, 0) == 1 else None
            for v, s in zip(op.operands, held, strict=True)
        ]
        option = self.fixed.get(op) or loop_option(rule, self.grid.name, self.loops[op], carried)
        if op not in self.fixed and not kept and self.waits(op, rule, option, held, layouts):
            option = loop_option(rule, self.grid.name, self.loops[op], [None] * len(held))
        if not option_fits(op, rule, option, self.grid):
            option = loop_option(rule, self.grid.name, [()] * len(rule.loops), held)
        for i, v in enumerate(op.operands):
            self.feed(op, i, operand_layout(rule, option, i, v), layouts)
        for j, r in enumerate(op.results):
            if not is_tensor(r):
                continue
            if r in self.closed:
                continue
            s = result_sharding(rule, option, j)
            layouts[r] = s
            if not s.is_replicated:
                self.annotate_value(r, s, InsertPoint.after(op), layouts)

    def waits(
        self,
        op: Operation,
        rule: ShardingRule,
        option: ShardingOption,
        held: list[Sharding | None],
        layouts: dict[SSAValue, Sharding],
    ) -> bool:
        """Whether `option` carries a partial sum through `op` by making a whole operand
        partial that waits on a settle the partial one does not: the carried sum would
        then be settled after that one, where settled now the two are independent and
        XLA combines them (a batch norm's `E[x^2] - E[x]^2`: two chained all_reduces
        where `jax.jit` runs one). A whole operand waiting on no other settle (a bias, a
        loop's carry) is made partial: the sum is settled as late, in as many bytes; and
        so is one where the sum goes on to shrink before it is settled, if settling the
        smaller sum then (its latency paid alone) is cheaper than settling the partial
        operands now beside the other settle (their bytes alone)."""
        whole = [
            (v, want)
            for i, v in enumerate(op.operands)
            if is_tensor(v)
            and not isinstance(v, BlockArgument)
            and not (held[i] and held[i].is_partial)
            and (want := operand_layout(rule, option, i, v)) is not None
            and want.is_partial
        ]
        if not whole:
            return False
        partial = [(v, s) for v, s in zip(op.operands, held, strict=True) if s and s.is_partial]
        behind = [self.settles_behind(v, layouts) for v, _ in partial]
        waiting = []
        for v, want in whole:
            mine = self.settles_behind(v, layouts)
            if any(not mine <= other for other in behind):
                waiting.append(want)
        if not waiting:
            return False
        shrunk = self.shrinks(op.results[0], waiting[0].partial_kind) if op.results else None
        if shrunk is None:
            return True
        assert self.grid is not None
        model, grid, axes = self.model, self.grid, waiting[0].partial_axes
        now = 0.0
        for v, s in partial:
            size = shard_bytes(v.type.get_shape(), element_bytes(v.type), s, grid)  # type: ignore[union-attr]
            now += model.collective_time("all_reduce", size, s.partial_axes, grid)
            now -= model.collective_latency("all_reduce", s.partial_axes, grid)
        size = _elements(shrunk) * element_bytes(shrunk.type)  # type: ignore[arg-type]
        return model.collective_time("all_reduce", size, axes, grid) >= now

    def shrinks(self, value: SSAValue, kind: ReductionKind) -> SSAValue | None:
        """The first value with fewer elements that a partial `value` flows into, reader
        after only reader, each taking it partial; None if none does."""
        if not is_tensor(value):
            return None
        size = _elements(value)
        for _ in range(MAX_CHAIN):
            uses = reading_uses(value)
            if len(uses) != 1:
                return None
            op, i = uses[0].operation, uses[0].index
            rule = self.rules.get(op)
            if rule is None or not rule.partial.accepts(i, kind) or not op.results:
                return None
            value = op.results[0]
            if is_tensor(value) and _elements(value) < size:
                return value
        return None

    def settles_behind(
        self, value: SSAValue, layouts: dict[SSAValue, Sharding]
    ) -> frozenset[Operation]:
        """The annotations settling a partial sum that `value` is computed from, in its
        block."""
        stack = [value]
        while stack:
            v = stack[-1]
            if v in self.behind:
                stack.pop()
                continue
            owner = v.owner
            inputs = list(owner.operands) if isinstance(owner, Operation) else []
            missing = [u for u in inputs if u not in self.behind]
            if missing:
                stack += missing
                continue
            stack.pop()
            found = frozenset().union(*(self.behind[u] for u in inputs))
            if isinstance(owner, ShardOp) and not sharding_of(owner.sharding, owner).is_partial:
                src = layouts.get(owner.src)
                if src is not None and src.is_partial:
                    found |= {owner}
            self.behind[v] = found
        return self.behind[value]

    def feed(
        self, op: Operation, i: int, want: Sharding | None, layouts: dict[SSAValue, Sharding]
    ) -> None:
        """Operand `i` of `op` as `want`: an annotation for `op` where it is in another
        layout; an argument nobody laid out yet arrives so (never partial)."""
        assert self.grid is not None
        v = op.operands[i]
        if v in self.open_args and want is not None:
            self.open_args.discard(v)  # arrives as its first user reads it
            if not (arrives := without_partial(want)).is_replicated:
                self.annotate_value(v, arrives, None, layouts)
                v = op.operands[i]
        have = layouts.get(v) or Sharding.replicated(self.grid.name)
        if want is not None and want != have:
            shard = self.annotation(v, want, True, op.parent_block())
            self.rewriter.insert_op(shard, InsertPoint.before(op))
            op.operands[i] = shard.result

    def write_flow(self, op: Operation, layouts: dict[SSAValue, Sharding]) -> None:
        """A `while`, `case` or manual computation: each carry's places in the layout its
        edge's loops give (after its manual axes outside a manual computation), the
        regions written in between; a loop carry that only accumulates a partial value
        is carried partial (`partial_carry`)."""
        assert self.grid is not None
        grid = self.grid.name
        flow = self.flows[op]
        inner: list[Sharding | None] = [
            Sharding.of(grid, self.loops[e]) if is_tensor(e.values[0]) else None
            for e in self.edges[op]
        ]
        for c, s in zip(flow.carries, inner, strict=True):
            for arg in c.args if s is not None else ():
                layouts[arg] = s
                if not s.is_replicated:
                    self.annotate_value(arg, s, InsertPoint.at_start(arg.block), layouts)
        for region in op.regions:
            for block in region.blocks:
                self.write_block(block, layouts)
        for k, c in enumerate(flow.carries):
            if (partial := self.partial_carry(op, c, inner[k], layouts)) is not None:
                self.carry_partial(c, partial, layouts)
                inner[k] = partial
        whole = Sharding.replicated(grid)
        for c, s in zip(flow.carries, inner, strict=True):
            if s is None:
                continue
            outer = c.framed(grid, s)
            assert outer is not None
            if c.operand is not None:
                self.feed(op, c.operand, outer, layouts)
            for t, j in c.yields:
                self.feed(t, j, s, layouts)
            if c.result is not None:
                r = op.results[c.result]
                layouts[r] = outer
                if r not in self.closed and not outer.is_replicated:
                    self.annotate_value(r, outer, InsertPoint.after(op), layouts)
        for i in flow.whole_operands:
            self.feed(op, i, whole, layouts)
        for t, j in flow.whole_yields:
            self.feed(t, j, whole, layouts)

    def partial_carry(
        self,
        op: Operation,
        carry: Carry,
        s: Sharding | None,
        layouts: dict[SSAValue, Sharding],
    ) -> Sharding | None:
        """The partial layout to carry `carry` in, where it is worth it: the loop yields
        it partial and reads it nowhere but to add to it (each reader makes it partial
        alike), so settling it once after the loop replaces settling it every trip.
        The cost model compares the two (`trips` times one settle against one)."""
        assert self.grid is not None
        if s is None or s.is_partial or carry.outer_axes is not None or carry.result is None:
            return None
        if not carry.args or len(carry.yields) != 1:
            return None
        t, j = carry.yields[0]
        partial = layouts.get(t.operands[j])
        if partial is None or not partial.is_partial or without_partial(partial) != s:
            return None
        if not self.reads_as(carry.args, partial):
            return None
        per_trip = reshard_time(self.model, partial, s, t.operands[j], self.grid)
        trips = trip_count(op)
        return partial if per_trip * (2 if trips is None else trips) >= per_trip else None

    def reads_as(self, args: Sequence[BlockArgument], s: Sharding) -> bool:
        """Whether every reader of `args` (through their own annotations) takes them as
        `s`, by an annotation this pass wrote, and one does."""
        readers = []
        for arg in args:
            annotated = [u.operation for u in arg.uses if is_result_annotation(u.operation)]
            values = (arg, *(a.result for a in annotated))
            readers += [u.operation for v in values for u in v.uses if u.operation not in annotated]
        mine = self.shardings.get(self.scope(args[0].block), {}).get(s) if args else None
        return bool(readers) and all(
            isinstance(r, ShardOp)
            and r.annotate_for_users is not None
            and mine is not None
            and r.sharding is mine.result
            for r in readers
        )

    def carry_partial(self, carry: Carry, s: Sharding, layouts: dict[SSAValue, Sharding]) -> None:
        """Re-lay `carry`'s block arguments out as the partial `s`: their annotations now
        state it, so the readers that asked for it get it as it is."""
        for arg in carry.args:
            annotated = [u.operation for u in arg.uses if is_result_annotation(u.operation)]
            for shard in annotated:
                assert isinstance(shard, ShardOp)
                shard.operands[1] = self.sharding_value(s, shard.parent_block())
                layouts[shard.result] = s
            if not annotated:
                self.annotate_value(arg, s, InsertPoint.at_start(arg.block), layouts)
            layouts[arg] = s

    def annotate_value(
        self,
        value: SSAValue,
        s: Sharding,
        at: InsertPoint | None,
        layouts: dict[SSAValue, Sharding],
    ) -> None:
        """A result annotation `s` on `value`, which every user then reads; `at` None is
        the top of the function, after its `shard.sharding` ops (for arguments)."""
        uses = list(value.uses)
        shard = self.annotation(value, s, False, at.block if at else self.block)
        self.rewriter.insert_op(shard, at or InsertPoint.after(self.shardings[self.block][s]))
        for use in uses:
            use.operation.operands[use.index] = shard.result
        layouts[value] = layouts[shard.result] = s
        self.readers[shard.result] = self.readers.get(value, 0)

    def settle_returned(self, terminator: Operation, layouts: dict[SSAValue, Sharding]) -> None:
        """A returned value the user did not lay out leaves settled (callers get values)."""
        for i, v in enumerate(terminator.operands):
            base = v.owner.src if isinstance(v.owner, ShardOp) else v
            s = layouts.get(v) or layouts.get(base)
            if v in self.closed or s is None or not s.is_partial:
                continue
            shard = self.annotation(v, without_partial(s), True, self.block)
            self.rewriter.insert_op(shard, InsertPoint.before(terminator))
            terminator.operands[i] = shard.result

    def annotation(self, value: SSAValue, s: Sharding, for_users: bool, block: Block) -> ShardOp:
        """A `shard.shard` of `value` to `s`, to go in `block`, reading its scope's one
        `shard.sharding` of `s`."""
        return shard_op(value, self.sharding_value(s, block), for_users)

    def sharding_value(self, s: Sharding, block: Block) -> SSAValue:
        """The one `shard.sharding` of `s` that ops in `block` read: at the top of the
        function, or of the manual computation body that holds `block` (isolated from
        above), made there the first time (it has no operands)."""
        scope = self.scope(block)
        table = self.shardings.setdefault(scope, {})
        if (sharding := table.get(s)) is None:
            last = next(reversed(table.values()), None)
            at = InsertPoint.after(last) if last else InsertPoint.at_start(scope)
            sharding = table[s] = sharding_op(s)
            self.rewriter.insert_op(sharding, at)
        return sharding.result

    def scope(self, block: Block) -> Block:
        """The outermost block of the function or of the region isolated from above
        that holds `block`: where ops in `block` may read values from."""
        while (parent := block.parent_op()) is not None and parent is not self.fn:
            if parent.has_trait(IsolatedFromAbove):
                return block
            above = parent.parent_block()
            if above is None:
                return block
            block = above
        return block
