"""XLA's compiled per-device HLO text, read for its collectives.

What `jax.jit(f, ...).lower(...).compile().as_text()` prints for one device: each
collective (`all-reduce`, `all-gather`, `reduce-scatter`, `all-to-all`,
`collective-permute`, `collective-broadcast`, and their `-start` forms; `-done` is
the same transfer) becomes one `CommRow` in comm-report's model, so xshard's programs
and XLA's compare row by row. Replica groups come as explicit lists `{{0,1},{2,3}}`,
iota tiles `[2,4]<=[8]` / `[4,2]<=[2,4]T(1,0)`, or mesh axes
`mesh['a'=2,'b'=4] {'b'}`. Operands are printed by name only, so a device's bytes
come from the operand's defining instruction.

A collective in a loop body runs once per trip: with `executed=True` it is one row per
trip, by the trip count XLA found for the loop (`known_trip_count`; once where XLA
knows none, a dynamic bound), so that programs that settle inside and after a loop
compare by what they move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import prod

import numpy as np

from xshard.sharding.cost_model import CostModel
from xshard.sharding.groups import device_groups
from xshard.transforms.analysis.comm_report import CommRow, format_groups

_KINDS = {
    "all-reduce": "all_reduce",
    "all-gather": "all_gather",
    "reduce-scatter": "reduce_scatter",
    "all-to-all": "all_to_all",
    "collective-permute": "collective_permute",
    "collective-broadcast": "collective_broadcast",
}
_BYTES = {
    "pred": 1,
    "s8": 1,
    "u8": 1,
    "bf16": 2,
    "f16": 2,
    "s16": 2,
    "u16": 2,
    "f32": 4,
    "s32": 4,
    "u32": 4,
    "f64": 8,
    "s64": 8,
    "u64": 8,
}
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(.+?)\s+([\w\-]+)\((.*?)\)(.*)$")
_ARRAY = re.compile(r"(\w+)\[([\d,]*)\]")


def _shape_bytes(shape: str) -> int:
    """Bytes of an HLO shape (a tuple's first element: async ops return (operand, result))."""
    found = _ARRAY.search(shape)
    if not found or found[1] not in _BYTES:
        return 0
    dims = [int(d) for d in found[2].split(",") if d]
    return prod(dims) * _BYTES[found[1]]


def parse_groups(attrs: str, devices: int) -> list[list[int]]:
    """`replica_groups` in any of the three printed forms; all devices when absent."""
    explicit = re.search(r"replica_groups=\{((?:\{[\d,]*\},?)*)\}", attrs)
    if explicit:
        rows = re.findall(r"\{([\d,]*)\}", explicit[1])
        groups = [[int(i) for i in r.split(",") if i] for r in rows]
        return [g for g in groups if g] or [list(range(devices))]
    iota = re.search(r"replica_groups=\[(\d+),(\d+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?", attrs)
    if iota:
        ids = np.arange(prod(int(d) for d in iota[3].split(","))).reshape(
            [int(d) for d in iota[3].split(",")]
        )
        if iota[4]:
            ids = ids.transpose([int(p) for p in iota[4].split(",")])
        return ids.reshape(int(iota[1]), int(iota[2])).tolist()
    mesh = re.search(r"replica_groups=mesh\[([^\]]*)\]\s*\{([^}]*)\}", attrs)
    if mesh:
        axes = re.findall(r"'(\w+)'=(\d+)", mesh[1])
        names = [a for a, _ in axes]
        members = [names.index(n) for n in re.findall(r"'(\w+)'", mesh[2])]
        return device_groups([int(s) for _, s in axes], members)
    return [list(range(devices))]


_COMPUTATION = re.compile(r"^(?:ENTRY\s+)?%?([\w.\-]+)\s*\(.*\{\s*$")
_CALLED = re.compile(r"\b(body|condition|calls|to_apply|branch_computations)=(\{[^}]*\}|[%\w.\-]+)")
_TRIPS = re.compile(r'"known_trip_count":\{"n":"(\d+)"\}')


def _runs(calls: dict[str, list[tuple[str, int]]]) -> dict[str, int]:
    """How many times each computation runs per call of the entry: the product of the
    trip counts of the loops around it (computations nobody calls run once)."""
    callers: dict[str, list[tuple[str, int]]] = {}
    for caller, called in calls.items():
        for callee, times in called:
            callers.setdefault(callee, []).append((caller, times))
    runs: dict[str, int] = {}

    def count(name: str, seen: frozenset[str]) -> int:
        if name not in runs:
            found = [
                times * count(caller, seen | {name})
                for caller, times in callers.get(name, ())
                if caller not in seen
            ]
            runs[name] = max(found, default=1)
        return runs[name]

    for name in calls:
        count(name, frozenset())
    return runs


def hlo_rows(text: str, devices: int, executed: bool = False) -> list[CommRow]:
    """One row per collective of XLA's compiled (per-device) HLO text; with `executed`,
    one per time it runs (module docstring)."""
    shapes: dict[str, str] = {}
    found: list[tuple[str, str, str, str, str]] = []
    calls: dict[str, list[tuple[str, int]]] = {}
    computation = ""
    for line in text.splitlines():
        if (header := _COMPUTATION.match(line)) and "=" not in line.split("(")[0]:
            computation = header[1]
            calls.setdefault(computation, [])
            continue
        m = _INSTRUCTION.match(line)
        if not m:
            continue
        name, shape, opcode, operands, attrs = m.groups()
        shapes[name] = shape
        trips = _TRIPS.search(attrs)
        for key, names in _CALLED.findall(attrs):
            times = int(trips[1]) if trips and key in ("body", "condition") else 1
            for callee in names.strip("{}").split(","):
                if callee.strip():
                    calls.setdefault(computation, []).append((callee.strip().lstrip("%"), times))
        base = opcode.removesuffix("-start")
        if base in _KINDS and not opcode.endswith("-done"):
            found.append((computation, opcode, base, operands, attrs))
    runs = _runs(calls) if executed else {}
    rows = []
    for computation, opcode, base, operands, attrs in found:
        row = _row(opcode, base, operands, attrs, shapes, devices)
        rows += [row] * runs.get(computation, 1)
    return rows


def executed_seconds(text: str, devices: int) -> float:
    """The cost model's seconds for the collectives of XLA's compiled `text`, each time
    it runs one: what a plan moves once XLA has combined and scheduled it, priced as
    auto-sharding prices a plan."""
    return priced_seconds(hlo_rows(text, devices, executed=True))


def priced_seconds(rows: Sequence[CommRow]) -> float:
    """The cost model's seconds for `rows` read from a compiled program."""
    model = CostModel()
    return sum(model.group_time(r.kind, r.bytes, r.group_size) for r in rows)  # type: ignore[arg-type]


def _row(
    opcode: str, base: str, operands: str, attrs: str, shapes: dict[str, str], devices: int
) -> CommRow:
    operands = re.sub(r"/\*.*?\*/", "", operands)  # `/*index=5*/` in long lists
    names = [o.strip().lstrip("%") for o in operands.split(",") if o.strip()]
    size = sum(_shape_bytes(shapes.get(n, "")) for n in names)
    if base == "collective-permute":
        pairs = re.search(r"source_target_pairs=\{(.*?)\}\}", attrs)
        count = len(re.findall(r"\{\d+,\d+", pairs[0])) if pairs else 0
        return CommRow(opcode, "-", f"{count} pairs", 2, size, _KINDS[base])
    groups = parse_groups(attrs, devices)
    return CommRow(opcode, "-", format_groups(groups), len(groups[0]), size, _KINDS[base])
