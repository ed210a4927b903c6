"""`shard-partition`: from an annotated global program to the program each device runs.

Like MLIR's pass of the same name (older `mesh-spmdization`), it rebuilds each
function's block on per-device (local) types: block arguments take the local type of
their annotation, each op is replaced by its per-device form (the model's
`partition`, or the same op on local types when the model has none), and each
`shard.shard` that asks for a layout other than the one its value is in becomes the
collectives `plan_reshard` chooses. Then the `shard.shard` and `shard.sharding` ops
are gone; `shard.grid` stays for the collectives.

The pass knows, for every value, the layout its local value is in (`layouts`), and
trusts no annotation to describe what an op produces: each op runs under one
sharding option (`partition_options`: the wanted result layouts first, then what
fits of the operands' layouts), its operands are resharded to what that option
needs, and its results are in the layouts the option makes, from which their
annotations reshard them. So any annotation, or none, gives a correct program:

- a value nobody annotated keeps the layout its producer gives it; an argument
  without annotation, and every function result, arrives or leaves replicated unless
  annotated, as upstream treats them;
- partial values stay partial while their users accept them (a split reduction loop
  leaves the local partial result and no all-reduce); a user that does not accept
  them gets the value settled first, and a value annotated partial is made partial;
- only what cannot be done is refused, with a located error: a layout whose split
  does not divide its dim, a dynamic grid or shape.

Option `arguments`: `partitioned` (default; each device is handed its block, the
RFC's first mode) or `global` (arguments keep their global types and each device
slices its block, or makes its operand of a partial layout). Results are local in
both modes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from typing import Literal

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import GetShardingOp, ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import result_annotation, sharding_of, sharding_op
from xshard.interfaces.models import model_for
from xshard.interfaces.models.captures import captured_values
from xshard.interfaces.partition_context import PartitionContext, local_type
from xshard.interfaces.region_flow import Carry, RegionFlow, region_flow
from xshard.interfaces.sharding_interface import ShardingRule, is_tensor
from xshard.interfaces.sharding_model import UnsupportedOp
from xshard.interfaces.sharding_option import (
    ShardingOption,
    fitting_option,
    operand_layout,
    result_sharding,
    without_partial,
)
from xshard.sharding.grid import Grid
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding, ShardingError
from xshard.transforms.partition.reshard import emit_reshard

ArgumentMode = Literal["partitioned", "global"]

MAX_DEVICES = 2**31 - 1

_FIRST_YIELD = object()
"""A `case` result's layout before its first branch is partitioned: that branch's."""


class _FunctionPartition:
    def __init__(self, fn: func.FuncOp, arguments: ArgumentMode):
        self.fn = fn
        self.arguments = arguments
        self.values: dict[SSAValue, SSAValue] = {}
        """Global value -> its local counterpart in the new block."""
        self.layouts: dict[SSAValue, Sharding] = {}
        """Global tensor value -> the layout of its local value; absent: replicated."""
        self.grids: dict[str, Grid] = {}
        self.scopes: list[dict[tuple[SSAValue, Sharding, Sharding], SSAValue]] = []
        """Reshards made so far, per block being built (innermost last)."""

    def grid(self, name: str, at: Operation) -> Grid:
        if name not in self.grids:
            op = lookup_grid(at, SymbolRefAttr(name))
            if op is None:
                raise DiagnosticError(at, f"undefined grid @{name}")
            shape = op.shape_tuple()
            if None in shape:
                dims = "x".join("?" if d is None else str(d) for d in shape)
                raise DiagnosticError(
                    at, f"shard-partition needs a static grid, @{name} has shape {dims}"
                )
            if prod(shape) > MAX_DEVICES:  # type: ignore[arg-type]
                raise DiagnosticError(
                    at,
                    f"grid @{name} has {prod(shape)} devices; shard-partition takes at most "  # type: ignore[arg-type]
                    f"{MAX_DEVICES}, what StableHLO's i32 partition ids count",
                )
            self.grids[name] = Grid(name, shape)
        return self.grids[name]

    def layout(self, value: SSAValue, grid: str) -> Sharding:
        return self.layouts.get(value) or Sharding.replicated(grid)

    def reshard(self, at: Operation, value: SSAValue, dst: Sharding) -> SSAValue:
        """The local value of global `value`, laid out as `dst`."""
        local = self.values[value]
        src = self.layout(value, dst.grid)
        if src == dst:
            return local
        key = (local, src, dst)
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        global_type = value.type
        assert isinstance(global_type, TensorType)
        grid = self.grid(dst.grid, at)
        made = emit_reshard(self.builder, at, local, src, dst, global_type, grid)
        self.scopes[-1][key] = made
        return made

    def settled(self, at: Operation, value: SSAValue, dst: Sharding | None) -> SSAValue:
        """The local value of global `value` laid out as `dst`, None meaning whole on every
        device (a value never laid out is already)."""
        if dst is None:
            held = self.layouts.get(value)
            if held is None:
                return self.values[value]
            dst = Sharding.replicated(held.grid)
        return self.reshard(at, value, dst)

    def run(self) -> None:
        if len(self.fn.body.blocks) != 1:
            raise DiagnosticError(self.fn, "shard-partition supports only functions with one block")
        block = self.fn.body.block
        new_block = Block(arg_types=[self.argument_type(a) for a in block.args])
        for old, new in zip(block.args, new_block.args, strict=True):
            new.name_hint = old.name_hint
            self.values[old] = new
        self.partition_block(block, new_block, self.visit_return)
        self.fn.body.detach_block(block)
        block.erase(safe_erase=False)
        self.fn.body.add_block(new_block)
        outputs = new_block.last_op.operand_types if new_block.last_op else ()
        self.fn.function_type = FunctionType.from_lists(new_block.arg_types, outputs)

    def partition_block(
        self, block: Block, new_block: Block, terminator: Callable[[Operation], None]
    ) -> None:
        """Each op of `block` in its per-device form at the end of `new_block`; its
        terminator by `terminator`. Reshards made here are reused only here (and in
        nested blocks), where they dominate."""
        outer = self.builder if self.scopes else None
        self.builder = Builder(InsertPoint.at_end(new_block))
        self.scopes.append({})
        for op in block.ops:
            if isinstance(op, ShardingOp):
                if any(not isinstance(u.operation, ShardOp) for u in op.result.uses):
                    self.keep(op)  # a value itself
                continue
            if isinstance(op, ShardOp):
                self.visit_shard(op)
            elif isinstance(op, GetShardingOp):
                self.visit_get_sharding(op)
            elif op.has_trait(IsTerminator):
                terminator(op)
            elif (flow := region_flow(op)) is not None:
                if flow.inline:
                    self.visit_inline(op, flow)
                else:
                    self.visit_region_op(op, flow)
            elif any(map(is_tensor, (*op.operands, *op.results))):
                self.visit_sharded(op)
            else:
                self.keep(op)
        self.scopes.pop()
        if outer is not None:
            self.builder = outer

    def keep(self, op: Operation) -> None:
        """`op` as it is, on the local operands: moved to the new block rather than cloned
        (the global block is dropped after the pass, and a copy of every replicated op
        alongside it only raised the pass's peak memory). An op with regions is cloned,
        which maps the values they capture."""
        if op.regions:
            self.builder.insert(op.clone(value_mapper=self.values))
            return
        op.detach()
        for i, v in enumerate(op.operands):
            op.operands[i] = self.values.get(v, v)
        self.builder.insert(op)
        for r in op.results:
            self.values[r] = r

    def argument_type(self, arg: BlockArgument) -> Attribute:
        """Partitioned arguments arrive in the layout of their first annotation."""
        annotation = result_annotation(arg)
        if not is_tensor(arg) or annotation is None or self.arguments == "global":
            return arg.type
        s = self.checked_sharding(annotation)
        self.layouts[arg] = s
        return local_type(annotation, arg.type, s, self.grid(s.grid, annotation))

    def checked_sharding(self, op: ShardOp) -> Sharding:
        """The sharding `op` states, refused with a located error if `op`'s value cannot
        be laid out so."""
        s = sharding_of(op.sharding, op)
        t = op.src.type
        if isinstance(t, TensorType):
            grid = self.grid(s.grid, op)
            try:
                shard_shape(t.get_shape(), s, grid)
            except ShardingError as err:
                raise DiagnosticError(op, _unfit_message(t, s, grid, err)) from err
        return s

    def visit_shard(self, op: ShardOp) -> None:
        s = self.checked_sharding(op)
        self.values[op.result] = self.reshard(op, op.src, s)
        self.layouts[op.result] = s

    def visit_get_sharding(self, op: GetShardingOp) -> None:
        """The layout of a value laid out here is known: a `shard.sharding` stating it, as
        upstream partitions it; of any other value the query stays."""
        layout = self.layouts.get(op.source)
        if layout is None:
            self.keep(op)
            return
        self.values[op.result] = self.builder.insert(sharding_op(layout)).result

    def visit_return(self, op: Operation) -> None:
        """A returned value leaves in its annotation's layout, replicated without one."""
        mapper = {v: self.values[v] for v in op.operands}  # not a copy of every value's
        for v in op.operands:
            if is_tensor(v) and not isinstance(v.owner, ShardOp) and v in self.layouts:
                mapper[v] = self.reshard(op, v, Sharding.replicated(self.layouts[v].grid))
        self.builder.insert(op.clone(value_mapper=mapper))

    def visit_region_op(self, op: Operation, flow: RegionFlow) -> None:
        """A `while` or `case`: each carry in one layout on entry, in its regions and after
        the op (`carry_layout`), and the regions partitioned in place, so that what the
        user split stays split inside and the collectives a region needs run there."""
        layouts = [self.carry_layout(op, c) for c in flow.carries]
        operands = [self.values[v] for v in op.operands]
        for c, s in zip(flow.carries, layouts, strict=True):
            if c.operand is not None:
                operands[c.operand] = self.settled(op, op.operands[c.operand], s)
        for i in flow.whole_operands:
            operands[i] = self.settled(op, op.operands[i], None)
        carry_of = {y: k for k, c in enumerate(flow.carries) for y in c.yields}
        whole = set(flow.whole_yields)

        def visit_yield(t: Operation) -> None:
            """Each yielded value in its carry's layout (by position: a value yielded twice
            may leave in two layouts)."""
            yielded = []
            for j, v in enumerate(t.operands):
                if (k := carry_of.get((t, j))) is not None:
                    if layouts[k] is _FIRST_YIELD:
                        layouts[k] = self.layouts.get(v)
                    yielded.append(self.settled(t, v, layouts[k]))  # type: ignore[arg-type]
                elif (t, j) in whole:
                    yielded.append(self.settled(t, v, None))
                else:
                    yielded.append(self.values[v])
            self.builder.insert(
                type(t).create(
                    operands=yielded,
                    properties=dict(t.properties),
                    attributes=dict(t.attributes),
                )
            )

        arg_carry = {a: k for k, c in enumerate(flow.carries) for a in c.args}
        partial = self.settle_captured(op)
        regions = []
        for region in op.regions:
            old = region.block
            new = Block(
                arg_types=[self.local_type(op, a, layouts[arg_carry[a]]) for a in old.args]
            )
            for a, local in zip(old.args, new.args, strict=True):
                local.name_hint = a.name_hint
                self.values[a] = local
                self.record(a, layouts[arg_carry[a]])
            self.partition_block(old, new, visit_yield)
            regions.append(Region(new))
        new_op = type(op).create(
            operands=operands,
            result_types=[
                self.local_type(op, op.results[c.result], s)  # type: ignore[arg-type]
                for c, s in zip(flow.carries, layouts, strict=True)
            ],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        self.builder.insert(new_op)
        for v, (local, held) in partial.items():
            self.values[v] = local
            self.layouts[v] = held
        for c, s in zip(flow.carries, layouts, strict=True):
            r = op.results[c.result]
            self.values[r] = new_op.results[c.result]
            self.record(r, s)  # type: ignore[arg-type]

    def visit_inline(self, op: Operation, flow: RegionFlow) -> None:
        """A manual computation: its body, per-device code over the manual axes, is
        inlined into the program each device runs and partitioned over the free axes.
        Each operand is resharded to its manual layout followed by its block argument's
        layout over the free axes (the argument's annotation; whole without one); each
        returned value leaves settled, in its layout over the free axes after the manual
        axes its result states."""
        (region,) = op.regions
        grid = flow.grid or ""  # (only a flow without carries names no grid)
        for c in flow.carries:
            if c.operand is None:
                continue
            (arg,) = c.args
            inner = self.inner_layout(op, arg, flow)
            local = self.settled(op, op.operands[c.operand], c.framed(grid, inner))
            self.check_frame(op, local, self.local_type(op, arg, inner))
            self.values[arg] = local
            self.record(arg, inner)
        leaving = {y: c for c in flow.carries for y in c.yields}

        def visit_return(t: Operation) -> None:
            for j, v in enumerate(t.operands):
                c = leaving[(t, j)]
                assert c.result is not None
                held = self.layouts.get(v)
                inner = None if held is None else without_partial(held)
                local = self.settled(t, v, inner)
                outer = c.framed(grid, inner)
                r = op.results[c.result]
                self.check_frame(op, local, self.local_type(op, r, outer))
                self.values[r] = local
                self.record(r, outer)

        self.partition_block(region.block, self.builder.insertion_point.block, visit_return)

    def inner_layout(self, op: Operation, arg: BlockArgument, flow: RegionFlow) -> Sharding | None:
        """The layout a manual computation's block argument states over the free axes."""
        annotation = result_annotation(arg)
        if annotation is None:
            return None
        s = self.checked_sharding(annotation)
        if used := flow.manual_axes & {a for axes in s.split_axes for a in axes}:
            raise DiagnosticError(
                annotation,
                f"inside '{op.name}' values are per device over its manual axes; this "
                f"annotation splits them over manual axes {sorted(used)}",
            )
        return s

    def check_frame(self, op: Operation, local: SSAValue, expected: Attribute) -> None:
        if local.type != expected:
            raise DiagnosticError(
                op,
                f"'{op.name}' holds a value of type {expected} per device, but its layout "
                f"gives {local.type}",
            )

    def settle_captured(self, op: Operation) -> dict[SSAValue, tuple[SSAValue, Sharding]]:
        """Partial values `op`'s regions read from above settled, settled once before
        `op` for them (not once per trip, or once per branch); after `op` they are
        partial again. One the regions only read partial stays so (a gradient an
        accumulating branch adds partial: settled before, it would be made partial
        again inside and settled a second time). Returns what to restore: each value's
        partial local counterpart and layout."""
        saved = {}
        for v in captured_values(op):
            held = self.layouts.get(v)
            if held is not None and held.is_partial and _read_settled(v, op):
                saved[v] = (self.values[v], held)
                whole = without_partial(held)
                self.values[v] = self.reshard(op, v, whole)
                self.record(v, whole)
        return saved

    def carry_layout(self, op: Operation, carry: Carry) -> Sharding | None | object:
        """The layout the IR states for `carry`: the first result annotation of one of its
        block arguments, else of the op's result; else the layout its operand is in;
        for a `case` result nobody annotated, the layout its first branch yields it in
        (`_FIRST_YIELD`). None: whole on every device."""
        for v in (*carry.args, op.results[carry.result]):
            if is_tensor(v) and (a := result_annotation(v)) is not None:
                return self.checked_sharding(a)
        if carry.operand is not None:
            return self.layouts.get(op.operands[carry.operand])
        return _FIRST_YIELD

    def local_type(self, at: Operation, value: SSAValue, s: Sharding | None) -> Attribute:
        return value.type if s is None else local_type(at, value.type, s, self.grid(s.grid, at))

    def record(self, value: SSAValue, s: Sharding | None) -> None:
        """`value`'s local counterpart is laid out as `s` (None: whole)."""
        if s is not None and not s.is_replicated:
            self.layouts[value] = s
        else:
            self.layouts.pop(value, None)

    def visit_sharded(self, op: Operation) -> None:
        model = model_for(op)
        if model is None:
            raise DiagnosticError(
                op, f"'{op.name}' has no sharding model, so it cannot be partitioned"
            )
        try:
            rule = model.rule(op)
        except UnsupportedOp as err:
            raise DiagnosticError(op, f"'{op.name}' cannot be partitioned: {err}") from err
        wanted = [
            self.checked_sharding(a) if is_tensor(r) and (a := result_annotation(r)) else None
            for r in op.results
        ]
        held = [self.layouts.get(v) if is_tensor(v) else None for v in op.operands]
        read = [self.layouts.get(v) for v in captured_values(op)]  # by its regions
        grids = {s.grid for s in (*held, *wanted, *read) if s is not None}
        if not grids:  # everything replicated: the op is its own per-device form
            self.keep(op)
            return
        if len(grids) != 1:
            raise DiagnosticError(op, f"'{op.name}' is sharded on several grids: {sorted(grids)}")
        grid = self.grid(grids.pop(), op)
        option = self.choose_option(op, rule, grid, held, wanted)
        operand_layouts = tuple(
            operand_layout(rule, option, i, v) for i, v in enumerate(op.operands)
        )
        ctx = PartitionContext(
            op,
            tuple(
                self.values[v] if s is None else self.reshard(op, v, s)
                for v, s in zip(op.operands, operand_layouts, strict=True)
            ),
            operand_layouts,
            tuple(
                result_sharding(rule, option, j) if is_tensor(r) else None
                for j, r in enumerate(op.results)
            ),
            rule,
            option,
            grid,
            self.builder,
            lambda value, src, dst, t: self.reshard_local(op, value, src, dst, t, grid),
            outer=self.values,
        )
        partition = getattr(model, "partition", None)
        if partition is None:
            ctx.clone_local()
        else:
            partition(op, ctx)
        expected = ctx.result_types()
        if ctx.results is None or [r.type for r in ctx.results] != expected:
            got = None if ctx.results is None else [str(r.type) for r in ctx.results]
            raise DiagnosticError(
                op,
                f"partition of '{op.name}' gave results {got}, "
                f"expected {[str(t) for t in expected]}",
            )
        for r, local, produced in zip(op.results, ctx.results, ctx.result_shardings, strict=True):
            self.values[r] = local
            if produced is not None and not produced.is_replicated:
                self.layouts[r] = produced

    def choose_option(
        self,
        op: Operation,
        rule: ShardingRule,
        grid: Grid,
        held: list[Sharding | None],
        wanted: list[Sharding | None],
    ) -> ShardingOption:
        """The first of `partition_options` under which every tensor divides evenly. A
        partial value the op reads twice but may keep partial only once is settled once
        for both reads, not once for one read and again after the op."""
        held = list(held)
        while True:
            option = fitting_option(op, rule, grid, held, wanted)
            kept: dict[SSAValue, set[bool]] = {}
            for i, v in enumerate(op.operands):
                if (s := held[i]) is not None and s.is_partial:
                    layout = operand_layout(rule, option, i, v)
                    kept.setdefault(v, set()).add(layout is not None and layout.is_partial)
            mixed = [i for i, v in enumerate(op.operands) if kept.get(v) == {True, False}]
            if not mixed:
                return option
            for i in mixed:
                held[i] = without_partial(held[i])  # type: ignore[arg-type]

    def reshard_local(
        self,
        at: Operation,
        value: SSAValue,
        src: Sharding,
        dst: Sharding,
        global_type: Attribute,
        grid: Grid,
    ) -> SSAValue:
        """The reshard models call on local values they built themselves."""
        assert isinstance(global_type, TensorType)
        return emit_reshard(self.builder, at, value, src, dst, global_type, grid)


def _unfit_message(t: TensorType, s: Sharding, grid: Grid, err: ShardingError) -> str:
    """Why `t` cannot be laid out as `s`, and which splits of its dims would fit."""
    shape = t.get_shape()
    hints = []
    for d in s.split_dims:
        if d >= len(shape) or shape[d] < 0 or not shape[d] % (grid.group_size(s.axes_of(d)) or 1):
            continue
        fit = [str(a) for a in range(grid.rank) if not shape[d] % (grid.shape[a] or 1)]
        hints.append(
            f"dim {d} of size {shape[d]} "
            + (f"can be split over grid axis {' or '.join(fit)}" if fit else "must stay unsplit")
        )
    grid_text = "x".join(str(n) for n in grid.shape)
    return (
        f"a value of type {t} cannot be laid out as {s} on grid @{grid.name} "
        f"(shape = {grid_text}): {err}" + "".join(f"; {h}" for h in hints)
    )


@dataclass(frozen=True)
class ShardPartitionPass(ModulePass):
    """Global program to per-device program.

    Options: `arguments` = partitioned (default) | global."""

    name = "shard-partition"

    arguments: ArgumentMode = "partitioned"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                _FunctionPartition(fn, self.arguments).run()


def _read_settled(value: SSAValue, holder: Operation) -> bool:
    """Whether some op in `holder`'s regions may read `value` with no partial state: all
    but an annotation into a partial layout, and an op whose result is annotated partial
    (it carries the partial state: propagation left its operand as it is)."""
    return any(
        not _takes_partial(use.operation) for use in value.uses if holder.is_ancestor(use.operation)
    )


def _takes_partial(reader: Operation) -> bool:
    if isinstance(reader, ShardOp):
        return sharding_of(reader.sharding, reader).is_partial
    found = result_annotation(reader.results[0]) if reader.results else None
    return found is not None and sharding_of(found.sharding, found).is_partial
