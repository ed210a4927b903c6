"""XLA's compiled per-device HLO text, read for its collectives.

What `jax.jit(f, ...).lower(...).compile().as_text()` prints for one device: each
collective (`all-reduce`, `all-gather`, `reduce-scatter`, `all-to-all`,
`collective-permute`, `collective-broadcast`, and their `-start` forms; `-done` is
the same transfer) becomes one `CommRow` in comm-report's model, so xshard's programs
and XLA's compare row by row. Replica groups come as explicit lists `{{0,1},{2,3}}`,
iota tiles `[2,4]<=[8]` / `[4,2]<=[2,4]T(1,0)`, or mesh axes
`mesh['a'=2,'b'=4] {'b'}`. Operands are printed by name only, so a device's bytes
come from the operand's defining instruction.
"""

from __future__ import annotations

import re
from math import prod

import numpy as np

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


def hlo_rows(text: str, devices: int) -> list[CommRow]:
    """One row per collective of XLA's compiled (per-device) HLO text."""
    shapes: dict[str, str] = {}
    found: list[tuple[str, str, str, str]] = []
    for line in text.splitlines():
        m = _INSTRUCTION.match(line)
        if not m:
            continue
        name, shape, opcode, operands, attrs = m.groups()
        shapes[name] = shape
        base = opcode.removesuffix("-start")
        if base in _KINDS and not opcode.endswith("-done"):
            found.append((opcode, base, operands, attrs))
    rows = []
    for opcode, base, operands, attrs in found:
        operands = re.sub(r"/\*.*?\*/", "", operands)  # `/*index=5*/` in long lists
        names = [o.strip().lstrip("%") for o in operands.split(",") if o.strip()]
        size = sum(_shape_bytes(shapes.get(n, "")) for n in names)
        if base == "collective-permute":
            pairs = re.search(r"source_target_pairs=\{(.*?)\}\}", attrs)
            count = len(re.findall(r"\{\d+,\d+", pairs[0])) if pairs else 0
            rows.append(CommRow(opcode, "-", f"{count} pairs", 2, size, _KINDS[base]))
            continue
        groups = parse_groups(attrs, devices)
        rows.append(CommRow(opcode, "-", format_groups(groups), len(groups[0]), size, _KINDS[base]))
    return rows
