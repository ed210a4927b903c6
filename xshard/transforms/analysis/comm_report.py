"""`comm-report`: print, per function, the collectives it runs and what they cost.

Works on per-device IR at the shard level (`shard.all_reduce`, ...: groups from
`grid_axes`) and at the StableHLO level (`stablehlo.all_reduce`, ...: groups from
`replica_groups`). `tools/xla_comm_report.py` prints the same table for XLA's
compiled HLO, from the row model below, so the three can be compared.

Cost model (ring algorithms, bytes each device sends; B = the operand's bytes on
one device, n = the group size):

| collective | cost |
|---|---|
| all_reduce, reduce | 2(n-1)/n * B (reduce-scatter, then all-gather) |
| all_gather, gather | (n-1) * B |
| reduce_scatter, all_to_all, scatter | (n-1)/n * B |
| collective_permute, shift, broadcast, collective_broadcast | B (pipelined) |
| all_slice | 0 (each device keeps its own block) |

Lines start with `//`; the IR is printed unchanged after them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.collectives import id_rows
from xshard.sharding.tensor_bytes import tensor_bytes
from xshard.transforms.analysis.table import comment_table, write_report
from xshard.transforms.export.convert_shard_to_stablehlo import Target
from xshard.transforms.simplify.decompose_all_gather import OVERLAP_COLUMNS, overlap_rows

COLUMNS = ("op", "at", "groups", "group size", "bytes/device", "ring cost")

_COST_FACTOR = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: n - 1,
    "gather": lambda n: n - 1,
    "reduce_scatter": lambda n: (n - 1) / n,
    "all_to_all": lambda n: (n - 1) / n,
    "scatter": lambda n: (n - 1) / n,
    "collective_permute": lambda n: 1,
    "shift": lambda n: 1,
    "broadcast": lambda n: 1 if n > 1 else 0,
    "collective_broadcast": lambda n: 1 if n > 1 else 0,
    "all_slice": lambda n: 0,
}
"""Ring-model bytes sent per device, as a multiple of B, by collective and group size."""


@dataclass(frozen=True)
class CommRow:
    """One collective: `kind` keys the cost model (`all_reduce`, `all_gather`, ...)."""

    op: str
    at: str
    groups: str
    group_size: int
    bytes: int
    kind: str

    @property
    def cost(self) -> float:
        return _COST_FACTOR[self.kind](self.group_size) * self.bytes

    def cells(self) -> tuple[str, ...]:
        return (
            self.op,
            self.at,
            self.groups,
            str(self.group_size),
            str(self.bytes),
            f"{self.cost:g}",
        )


def report_lines(title: str, rows: Sequence[CommRow]) -> list[str]:
    """The table for one function (or one HLO module), totals last."""
    if not rows:
        return [f"// comm report for {title}", "// no collectives"]
    total = (
        "total",
        "",
        f"{len(rows)} collectives",
        "",
        str(sum(r.bytes for r in rows)),
        f"{sum(r.cost for r in rows):g}",
    )
    return [
        f"// comm report for {title}",
        *comment_table(COLUMNS, [*map(CommRow.cells, rows), total]),
    ]


def format_groups(groups: Sequence[Sequence[int]]) -> str:
    text = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
    return text if len(text) <= 40 else f"{len(groups)} groups of {len(groups[0])}"


def _at(op: Operation) -> str:
    loc = op.location
    return f"{loc.line.data}:{loc.column.data}" if isinstance(loc, FileLineColLoc) else "-"


def _operand_bytes(values: Sequence[SSAValue]) -> int:
    sizes = [tensor_bytes(v.type) for v in values]
    return sum(s for s in sizes if s is not None)


_SHARD_KINDS: dict[type[Operation], str] = {
    shard.AllReduceOp: "all_reduce",
    shard.ReduceOp: "reduce",
    shard.AllGatherOp: "all_gather",
    shard.GatherOp: "gather",
    shard.ReduceScatterOp: "reduce_scatter",
    shard.AllToAllOp: "all_to_all",
    shard.ScatterOp: "scatter",
    shard.ShiftOp: "shift",
    shard.BroadcastOp: "broadcast",
    shard.AllSliceOp: "all_slice",
}

_HLO_KINDS: dict[type[Operation], str] = {
    hlo.AllReduceOp: "all_reduce",
    hlo.AllGatherOp: "all_gather",
    hlo.ReduceScatterOp: "reduce_scatter",
    hlo.AllToAllOp: "all_to_all",
    hlo.CollectivePermuteOp: "collective_permute",
    hlo.CollectiveBroadcastOp: "collective_broadcast",
}


def _shard_row(op: Operation, kind: str) -> CommRow:
    axes = op.grid_axes_tuple()  # type: ignore[attr-defined]
    grid = shard.lookup_grid(op, op.grid)  # type: ignore[attr-defined]
    shape = grid.shape_tuple() if grid is not None else ()
    size = prod(shape[a] or 0 for a in axes) if grid is not None else 0
    where = f"@{op.grid.root_reference.data} {list(axes)}"  # type: ignore[attr-defined]
    return CommRow(op.name, _at(op), where, size, _operand_bytes(op.operands[:1]), kind)


def _partitions(op: Operation) -> int:
    count = op.get_toplevel_object().attributes.get("mhlo.num_partitions")
    return count.value.data if isinstance(count, IntegerAttr) else 1


def _hlo_row(op: Operation, kind: str) -> CommRow:
    operands = list(op.operands)
    if isinstance(op, hlo.CollectivePermuteOp):
        pairs = id_rows(op.source_target_pairs)
        return CommRow(op.name, _at(op), f"{len(pairs)} pairs", 2, _operand_bytes(operands), kind)
    groups = id_rows(op.replica_groups) or [list(range(_partitions(op)))]  # type: ignore[attr-defined]
    return CommRow(
        op.name, _at(op), format_groups(groups), len(groups[0]), _operand_bytes(operands), kind
    )


def collective_rows(fn: func.FuncOp) -> list[CommRow]:
    rows = []
    for op in fn.walk():
        if type(op) in _SHARD_KINDS:
            rows.append(_shard_row(op, _SHARD_KINDS[type(op)]))
        elif type(op) in _HLO_KINDS:
            rows.append(_hlo_row(op, _HLO_KINDS[type(op)]))
    return rows


def comm_report(module: ModuleOp, overlap: Target | None = None) -> str:
    """The report for every function of `module` with a body; with `overlap`, also
    the modeled times `shard-decompose-all-gather{strategy=auto}` would weigh for
    each all_gather it can decompose, on that target's links and flop rate."""
    lines: list[str] = []
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            lines += report_lines(f"@{op.sym_name.data}", collective_rows(op))
    if overlap is not None and (rows := overlap_rows(module, overlap)):
        title = f"// overlapping all_gathers with their matmuls (target={overlap}):"
        lines += [title, *comment_table(OVERLAP_COLUMNS, rows)]
    return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class CommReportPass(ModulePass):
    """Report the collectives and their cost.

    Options: `file` = a file to append the report to (default: standard output);
    `overlap` = cpu | gpu: also show, per all_gather feeding a matmul, the modeled time
    of gathering whole, by broadcasts and by a ring, and which is least (what
    `shard-decompose-all-gather{strategy=auto}` and `xshard-spmd{overlap=auto}` pick)."""

    name = "comm-report"

    file: str | None = None
    overlap: Target | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        write_report(comm_report(op, self.overlap), self.file)
