"""`sharding-report`: print every tensor value's sharding as a table; the IR is left as is.

Run after propagation (`-p 'sharding-propagation,sharding-report'`) it answers
"why did it choose this?": the sharding each value got, whether that annotation
came from the input or from the pass, and, for each user that wants the value
sharded another way, the collectives the resharding planner would use and what
they cost.

A third table answers it for each op that makes something reshard: the modeled time
of the reshards its option implies (`xshard.sharding.cost_model`, NVLink-class
links) next to the cheapest other option, among those each of its tensors' own
layouts would give its loops (and none split). A fourth lists each constraint the
input holds (an annotation for users with a source location: JAX's
`with_sharding_constraint`, imported by `import-sdy`): the layout it asks, its open
dims (which propagation may have refined), the layout its value had, and the reshard
it forced.

Values inside `while`, `case` and `shard_map` bodies are listed too, after the op.

Values are named as xDSL's printer names them in the IR printed after this pass
(`%arg0`, `%7`, a name hint such as `%s_in`), so a row can be found in the output
with a search; the defining op's `line:col` in the input file is printed too,
because the numbers change whenever a pass adds ops, while the source position
of a user's op does not. Lines start with `//`, so the output stays parseable.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, FileLineColLoc, ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from xshard.dialects.shard import ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import base_value, open_dims, sharding_of
from xshard.interfaces.models import model_for
from xshard.interfaces.region_flow import function_ops, region_flow
from xshard.interfaces.sharding_interface import dim_loops
from xshard.interfaces.sharding_model import UnsupportedOp
from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.resharding import plan_reshard
from xshard.sharding.sharding import Sharding
from xshard.sharding.tensor_bytes import element_bytes
from xshard.transforms.analysis.table import comment_table, write_report
from xshard.transforms.propagation.option_cost import MODEL, Axes, Known, assignment_cost
from xshard.xdsl_compat.printing import XShardPrinter

_VALUE_COLUMNS = ("value", "defined by", "at", "type", "split axes", "partial", "annotation")
_RESHARD_COLUMNS = ("user", "at", "operand", "value", "has", "wants", "collectives", "bytes/device")
_OPTION_COLUMNS = ("op", "at", "loop axes", "cost (us)", "best alternative", "its cost (us)")
_CONSTRAINT_COLUMNS = ("at", "value", "asks", "open dims", "value had", "forced", "bytes/device")


def _at(op: Operation | None) -> str:
    loc = op.location if op is not None else None
    return f"{loc.line.data}:{loc.column.data}" if isinstance(loc, FileLineColLoc) else "-"


def _origin(shard: ShardOp) -> str:
    """Annotations read from the input carry its location; those a pass added have none."""
    at = _at(shard)
    return "propagated" if at == "-" else f"input {at}"


def _split(s: Sharding, rank: int) -> str:
    dims = [s.axes_of(d) for d in range(max(rank, len(s.split_axes)))]
    return "[" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in dims) + "]"


def _partial(s: Sharding) -> str:
    if not s.partial_axes:
        return "-"
    return f"{s.partial_kind.value} [{', '.join(map(str, s.partial_axes))}]"


def _short(s: Sharding, rank: int) -> str:
    text = _split(s, rank)
    return text if not s.partial_axes else f"{text} partial = {_partial(s)}"


def _loops_of(
    layouts: list[tuple[Sharding | None, tuple[int | None, ...]]], count: int
) -> tuple[Axes, ...] | None:
    """Loop axes read off tensors' layouts (dims in order, the first layout to split a
    loop wins); None where they put one axis on two loops."""
    loops: list[Axes] = [()] * count
    for s, loop_of in layouts:
        if s is None:
            continue
        for d, loop in enumerate(loop_of):
            if loop is not None and not loops[loop]:
                loops[loop] = s.axes_of(d)
    used = [a for axes in loops for a in axes]
    return tuple(loops) if len(used) == len(set(used)) else None


def _loops_text(loops: tuple[Axes, ...]) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in loops) + "]"


def _us(seconds: float) -> str:
    return "inf" if seconds == float("inf") else f"{seconds * 1e6:.2f}"


def _rank(value: SSAValue) -> int:
    return len(value.type.get_shape()) if isinstance(value.type, TensorType) else 0


class _Names:
    """SSA names exactly as the printer gives them when it prints the whole module."""

    def __init__(self, module: ModuleOp):
        self.printer = XShardPrinter(stream=StringIO())
        self.printer.print_op(module)

    def __call__(self, value: SSAValue) -> str:
        return "%" + self.printer.print_ssa_value(value)


@dataclass
class _FunctionReport:
    fn: func.FuncOp
    names: _Names

    def __post_init__(self) -> None:
        self.block: Block = self.fn.body.blocks.first  # type: ignore[assignment]
        self.ops = list(function_ops(self.block))
        self.grids: dict[str, Grid | None] = {}
        self.result_annotation: dict[SSAValue, ShardOp] = {}
        for op in self.ops:
            if isinstance(op, ShardOp) and op.annotate_for_users is None:
                self.result_annotation.setdefault(base_value(op.src), op)

    def grid(self, name: str) -> Grid | None:
        if name not in self.grids:
            found = lookup_grid(self.fn, name)
            self.grids[name] = None if found is None else Grid(name, found.shape_tuple())
        return self.grids[name]

    def values(self) -> Iterator[SSAValue]:
        yield from self.block.args
        for op in self.ops:
            if not isinstance(op, ShardOp | ShardingOp):
                yield from op.results
            if region_flow(op) is not None:
                yield from (a for region in op.regions for b in region.blocks for a in b.args)

    def value_row(self, value: SSAValue) -> tuple[str, ...]:
        if isinstance(value, BlockArgument):
            defined, at = f"argument {value.index}", "-"
        else:
            owner = value.owner
            assert isinstance(owner, Operation)
            defined, at = owner.name, _at(owner)
            if len(owner.results) > 1:
                defined += f" #{value.index}"
        head = (self.names(value), defined, at, str(value.type))
        shard = self.result_annotation.get(value)
        if shard is None:
            return (*head, "-", "-", "-")
        s = sharding_of(shard.sharding, shard)
        return (*head, _split(s, _rank(value)), _partial(s), _origin(shard))

    def reshard_rows(self, op: Operation) -> Iterator[tuple[str, ...]]:
        for i, operand in enumerate(op.operands):
            wanted = operand.owner
            if not isinstance(wanted, ShardOp) or wanted.annotate_for_users is None:
                continue
            value = base_value(operand)
            want = sharding_of(wanted.sharding, wanted)
            has_op = self.result_annotation.get(value)
            has = None if has_op is None else sharding_of(has_op.sharding, has_op)
            if has == want:
                continue
            rank = _rank(value)
            steps, cost = self.plan(value, has, want)
            yield (
                op.name,
                _at(op),
                str(i),
                self.names(value),
                "-" if has is None else _short(has, rank),
                _short(want, rank),
                steps,
                cost,
            )

    def option_row(self, op: Operation) -> tuple[str, ...] | None:
        """The op's loop axes and what they cost, next to the best alternative."""
        model = model_for(op)
        seen = [self.seen_by(op, v) for v in op.operands]
        grids = {s.grid for s in seen if s is not None}
        if model is None or len(grids) != 1:
            return None
        grid = self.grid(grids.pop())
        try:
            rule = model.rule(op)
        except UnsupportedOp:
            return None
        if grid is None:
            return None
        count = len(rule.loops)
        maps = list(zip(rule.operand_maps, op.operands, strict=True))
        read = [(s, dim_loops(m)) for s, (m, _) in zip(seen, maps, strict=True) if m is not None]
        produced = [(self.layout(v, grid), dim_loops(m)) for m, v in maps if m is not None]
        results = zip(rule.result_maps, op.results, strict=True)
        written = [(self.layout(r, grid), dim_loops(m)) for m, r in results]
        chosen = _loops_of(read + written, count)
        others = [_loops_of([one], count) for one in produced + written] + [((),) * count]

        def cost(loops: tuple[Axes, ...], carried: list[Sharding | None]) -> float:
            known = lambda v: Known(self.layout(v, grid))  # noqa: E731
            return assignment_cost(op, rule, grid, loops, known, MODEL, carried)

        alternatives = sorted({o for o in others if o is not None and o != chosen})
        if chosen is None or not alternatives:
            return None
        have = [self.layout(v, grid) for v in op.operands]
        costs = [cost(o, have) for o in alternatives]
        best = costs.index(min(costs))
        return (
            op.name,
            _at(op),
            _loops_text(chosen),
            _us(cost(chosen, seen)),
            _loops_text(alternatives[best]),
            _us(costs[best]),
        )

    def layout(self, value: SSAValue, grid: Grid) -> Sharding:
        """The layout `value` is produced in: its result annotation, else replicated
        on `grid`."""
        shard = self.result_annotation.get(base_value(value))
        if shard is not None:
            return sharding_of(shard.sharding, shard)
        return Sharding.replicated(grid.name)

    def seen_by(self, op: Operation, value: SSAValue) -> Sharding | None:
        """The layout `op` reads `value` in: the annotation it reads, if any."""
        owner = value.owner
        if isinstance(owner, ShardOp):
            return sharding_of(owner.sharding, owner)
        shard = self.result_annotation.get(base_value(value))
        return None if shard is None else sharding_of(shard.sharding, shard)

    def plan(self, value: SSAValue, has: Sharding | None, want: Sharding) -> tuple[str, str]:
        if has is None:
            return "(the value has no sharding)", "-"
        grid = self.grid(want.grid)
        if grid is None or not isinstance(value.type, TensorType):
            return f"(no grid @{want.grid})", "-"
        shape = [None if d == DYNAMIC_INDEX else d for d in value.type.get_shape()]
        try:
            plan = plan_reshard(has, want, shape, grid, element_bytes(value.type))
        except ShardingError as err:
            return f"(none: {err})", "-"
        return "; ".join(map(str, plan.steps)), f"{float(plan.cost):g}"

    def constraint_rows(self) -> Iterator[tuple[str, ...]]:
        for op in self.ops:
            if not (isinstance(op, ShardOp) and op.annotate_for_users is not None):
                continue
            if not isinstance(op.location, FileLineColLoc):
                continue  # written by a pass, not by the user
            value = base_value(op.src)
            rank = _rank(value)
            want = sharding_of(op.sharding, op)
            had_op = op.src.owner
            had = sharding_of(had_op.sharding, had_op) if isinstance(had_op, ShardOp) else None
            opened = ", ".join(map(str, sorted(open_dims(op)))) or "-"
            steps, cost = ("-", "-") if had == want else self.plan(value, had, want)
            yield (
                _at(op),
                self.names(value),
                _short(want, rank),
                opened,
                "-" if had is None else _short(had, rank),
                steps,
                cost,
            )

    def lines(self) -> list[str]:
        values = [self.value_row(v) for v in self.values() if isinstance(v.type, TensorType)]
        reshards: list[tuple[str, ...]] = []
        options: list[tuple[str, ...]] = []
        for op in self.ops:
            if isinstance(op, ShardOp | ShardingOp):
                continue
            rows = list(self.reshard_rows(op))
            reshards += rows
            if rows and (row := self.option_row(op)) is not None:
                options.append(row)
        out = [
            f"// sharding report for @{self.fn.sym_name.data}",
            *comment_table(_VALUE_COLUMNS, values),
        ]
        if reshards:
            out += [
                "//",
                "// reshards: operands whose users want another sharding",
                *comment_table(_RESHARD_COLUMNS, reshards),
            ]
        else:
            out += ["//", "// no reshards"]
        if options:
            out += [
                "//",
                "// why: each resharding op's loop axes and the modeled time of its reshards,",
                "// next to the cheapest alternative its tensors' layouts suggest",
                *comment_table(_OPTION_COLUMNS, options),
            ]
        if constraints := list(self.constraint_rows()):
            out += [
                "//",
                "// constraints: what each asks, and the reshard it forced",
                *comment_table(_CONSTRAINT_COLUMNS, constraints),
            ]
        return out


def sharding_report(module: ModuleOp) -> str:
    """The report for every function of `module` with a body."""
    names = _Names(module)
    lines: list[str] = []
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            lines += _FunctionReport(op, names).lines()
    return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class ShardingReportPass(ModulePass):
    """Print every value's sharding; IR as is.

    Options: `file` = a file to append the report to (default: standard output).

    Appending keeps every report when the pass runs on each chunk of a
    `--split-input-file` run, or more than once in one pipeline."""

    name = "sharding-report"

    file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        write_report(sharding_report(op), self.file)
