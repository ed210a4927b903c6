"""The collective benchmark: the collectives each device runs for five programs,
compiled by xshard without shard-simplify, with it, and by jax.jit on the same
shardings, next to the analytic minimum.

    python tools/collective_benchmark.py             # every program; exit 1 if a
                                                     # simplified row misses its bound
    python tools/collective_benchmark.py residual_block

The programs are tools/benchmarks/<name>.mlir, the same computations, shapes and
shardings as tools/xla_comm_report.py's examples of the same name (jax.jit's rows
come from there). Three are global annotated programs, run through `xshard-spmd`
(`simplify=false` / `true`); `masked_psum_broadcast` is the body of JAX's shard_map,
so it is a per-device shard-level program, and "with simplification" there is
`shard-simplify,detect-collective-broadcast` (shard-simplify does not include the
detect pass).

Collectives are counted on the StableHLO of `target=gpu`, what a GPU would run:
`target=cpu` writes `shard.broadcast` as a masked all_reduce, XLA:CPU having no
collective_broadcast; the other collectives are the same on both targets. Each
xshard variant is also executed on 8 simulated CPU devices (`target=cpu`): the
global programs by `xshard.jax.run.run_module` against the program on one device, the
shard-level one against what the idiom means (every device gets device 3's block).
Bytes are one device's operand bytes; the ring cost is comm-report's model.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from pathlib import Path

_HERE = Path(__file__).parent
BENCHMARKS = _HERE / "benchmarks"
DEVICES = 8


@dataclass(frozen=True)
class Program:
    level: str
    """`global` (annotated, through xshard-spmd) or `device` (shard-level, per device)."""
    minimum: tuple[tuple[str, int, int], ...]
    """The analytic minimum: (collective, count, bytes per device), sorted by name."""
    derivation: str


PROGRAMS = {
    "megatron_mlp": Program(
        "global",
        (("all_reduce", 1, 16 * 32 * 4),),
        "the hidden dim (64) is split 8 ways and contracted by the second matmul, so "
        "each device ends with a 16x32 f32 partial sum of the replicated y: one "
        "all_reduce of 2048 B is needed, and it is enough.",
    ),
    "sequence_parallel_mlp": Program(
        "global",
        (("all_gather", 1, 2 * 32 * 4), ("reduce_scatter", 1, 16 * 32 * 4)),
        "with the weights kept split, each device's hidden columns need all 16 rows "
        "of x (one all_gather of its 2x32 block, 256 B) and it ends with a 16x32 "
        "partial sum of which it keeps 2 rows (one reduce_scatter of 2048 B).",
    ),
    "weight_stationary_mlp": Program(
        "global",
        (("all_gather", 1, 4 * 8 * 8 * 4), ("reduce_scatter", 1, 4 * 8 * 64 * 4)),
        "with the weights kept split (moving them to match x would leave a 4x8x128 "
        "partial sum to all_reduce), each device's hidden columns need x whole: one "
        "all_gather of its 4x8x8 block (1024 B); it ends with a 4x8x64 partial sum "
        "of which it keeps an eighth of the model dim: one reduce_scatter of 8192 B.",
    ),
    "residual_block": Program(
        "global",
        (("all_reduce", 1, 16 * 32 * 4),),
        "x @ a and x @ b are both partial sums over the split dim 32, and so is their "
        "sum: one all_reduce of the 16x32 f32 sum (2048 B), after the add.",
    ),
    "masked_psum_broadcast": Program(
        "device",
        (("collective_broadcast", 1, 8 * 4),),
        "only device 3 contributes a non-zero, so the result is its 8-element block: "
        "one collective_broadcast of 32 B (ring cost B, not an all_reduce's 2(n-1)/n B).",
    ),
}

VARIANTS = ("xshard, no shard-simplify", "xshard + shard-simplify", "jax.jit (XLA)")
AUTO = "xshard auto-sharding, inputs only"
"""The global programs with only their arguments annotated, laid out by `auto-sharding`
under a memory limit of three quarters of the bytes their arguments take whole, so
that the plan holding everything whole does not fit."""


@dataclass(frozen=True)
class Row:
    program: str
    variant: str
    collectives: tuple[tuple[str, int, int], ...]
    """(collective, count, bytes per device), sorted by name."""
    ring_cost: float
    match: bool | None
    """Whether the executed program was right; None where not executed."""

    @property
    def bytes(self) -> int:
        return sum(b for _, _, b in self.collectives)


def _xla_comm_report():
    spec = importlib.util.spec_from_file_location("xla_comm_report", _HERE / "xla_comm_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _summary(rows) -> tuple[tuple[str, int, int], ...]:
    tally: dict[str, list[int]] = {}
    for r in rows:
        t = tally.setdefault(r.kind, [0, 0])
        t[0] += 1
        t[1] += r.bytes
    return tuple(sorted((k, n, b) for k, (n, b) in tally.items()))


def _parse(name: str, inputs_only: bool = False):
    from xshard.testing.pass_numerics import parse

    path = BENCHMARKS / f"{name}.mlir"
    return parse(_inputs_only(path.read_text()) if inputs_only else path.read_text(), str(path))


def _inputs_only(text: str) -> str:
    """The program with the annotations for users (constraints, result layouts) gone:
    each benchmark returns `%<name>_s`, the annotation of `%<name>`."""
    kept = [line for line in text.splitlines() if "annotate_for_users" not in line]
    return re.sub(r"func\.return %(\w+)_s\b", r"func.return %\1", "\n".join(kept))


def _memory_limit(name: str) -> int:
    """Three quarters of the bytes of the program's arguments held whole (all f32)."""
    from xshard.transforms.export.entry import entry_function

    args = entry_function(_parse(name)).body.block.args
    return 3 * sum(4 * prod(a.type.get_shape()) for a in args) // 4


def _device_passes(simplify: bool):
    from xshard.transforms.simplify.detect_collective_broadcast import (
        DetectCollectiveBroadcastPass,
    )
    from xshard.transforms.simplify.shard_simplify import ShardSimplifyPass

    return [ShardSimplifyPass(), DetectCollectiveBroadcastPass()] if simplify else []


def _gpu_rows(name: str, simplify: bool, auto: bool = False):
    """comm-report's rows of the StableHLO that xshard writes for a GPU."""
    from xshard.context import xshard_context
    from xshard.transforms.analysis.comm_report import collective_rows
    from xshard.transforms.export.convert_shard_to_stablehlo import (
        ConvertShardToStablehloPass,
    )
    from xshard.transforms.export.entry import entry_function
    from xshard.transforms.spmd_pipeline import SpmdPipelinePass

    module, ctx = _parse(name, auto), xshard_context()
    if auto:
        limit = _memory_limit(name)
        passes = [SpmdPipelinePass(target="gpu", auto_sharding=True, memory_limit=limit)]
    elif PROGRAMS[name].level == "global":
        passes = [SpmdPipelinePass(target="gpu", simplify=simplify)]
    else:
        passes = [*_device_passes(simplify), ConvertShardToStablehloPass(target="gpu")]
    for p in passes:
        p.apply(ctx, module)
    return collective_rows(entry_function(module))


def _executes_right(name: str, simplify: bool, auto: bool = False) -> bool:
    """Run on 8 simulated CPU devices and check the results."""
    import numpy as np

    from xshard.context import xshard_context
    from xshard.jax.run import run_module
    from xshard.testing.pass_numerics import run_per_device

    module = _parse(name, auto)
    if auto:
        limit = _memory_limit(name)
        return run_module(module, DEVICES, auto_sharding=True, memory_limit=limit).match
    if PROGRAMS[name].level == "global":
        return run_module(module, DEVICES, simplify=simplify).match
    for p in _device_passes(simplify):
        p.apply(xshard_context(), module)
    blocks = np.random.default_rng(0).standard_normal((DEVICES, 8)).astype(np.float32)
    (outs,) = run_per_device(module, DEVICES, [list(blocks)])
    return all(np.array_equal(out, blocks[3]) for out in outs)


def benchmark(name: str, execute: bool = True) -> list[Row]:
    """The measured rows of program `name` (the auto-sharding one for global programs
    only), then its analytic minimum."""
    rows = []
    for variant, simplify in zip(VARIANTS[:2], (False, True), strict=True):
        found = _gpu_rows(name, simplify)
        match = _executes_right(name, simplify) if execute else None
        rows.append(Row(name, variant, _summary(found), sum(r.cost for r in found), match))
    if PROGRAMS[name].level == "global":
        found = _gpu_rows(name, True, auto=True)
        match = _executes_right(name, True, auto=True) if execute else None
        rows.append(Row(name, AUTO, _summary(found), sum(r.cost for r in found), match))
    xla = _xla_comm_report().xla_rows(name)
    rows.append(Row(name, VARIANTS[2], _summary(xla), sum(r.cost for r in xla), None))
    minimum = PROGRAMS[name].minimum
    rows.append(Row(name, "analytic minimum", minimum, _minimum_cost(minimum), None))
    return rows


def _minimum_cost(minimum: Sequence[tuple[str, int, int]]) -> float:
    from xshard.transforms.analysis.comm_report import CommRow

    # every benchmark's collectives span the whole 1-D grid
    return sum(CommRow("", "", "", DEVICES, b, kind).cost for kind, _, b in minimum)


def problems(rows: Sequence[Row]) -> list[str]:
    """Where one program's xshard-with-simplification row misses the minimum or does
    worse than jax.jit, or a row computed the wrong thing."""
    by = {r.variant: r for r in rows}
    simplified, xla, minimum = by[VARIANTS[1]], by[VARIANTS[2]], by["analytic minimum"]
    found = []
    if simplified.collectives != minimum.collectives:
        found.append(f"{simplified.program}: {simplified.collectives} is not the minimum")
    if simplified.bytes > xla.bytes or simplified.ring_cost > xla.ring_cost:
        found.append(f"{simplified.program}: more traffic than jax.jit")
    found += [f"{r.program}, {r.variant}: wrong results" for r in rows if r.match is False]
    return found


def _versus_jax(row: Row, xla: Row | None) -> str:
    """How an xshard row compares with jax.jit's on collectives, bytes per device and
    ring cost: `**below**` (less on one, more on none), `equal`, `above` (more on
    one, less on none), or `mixed`."""
    if xla is None or not row.variant.startswith("xshard"):
        return "-"
    measures = lambda r: (_count(r), r.bytes, r.ring_cost)  # noqa: E731
    pairs = list(zip(measures(row), measures(xla), strict=True))
    less, more = any(a < b for a, b in pairs), any(a > b for a, b in pairs)
    return {(False, False): "equal", (True, False): "**below**", (False, True): "above"}.get(
        (less, more), "mixed"
    )


def _count(row: Row) -> int:
    return sum(n for _, n, _ in row.collectives)


def table(rows: Sequence[Row]) -> str:
    xla = {r.program: r for r in rows if r.variant == VARIANTS[2]}
    lines = [
        "| program | variant | collectives (op x count) | bytes per device | ring cost | "
        "vs jax.jit | matches |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ops = ", ".join(f"{op} x{n}" for op, n, _ in r.collectives) or "none"
        match = "-" if r.match is None else ("yes" if r.match else "NO")
        versus = _versus_jax(r, xla.get(r.program))
        lines.append(
            f"| {r.program} | {r.variant} | {ops} | {r.bytes} | {r.ring_cost:g} | {versus} "
            f"| {match} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    os.environ.setdefault("XLA_FLAGS", f"--xla_force_host_platform_device_count={DEVICES}")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    names = argv or list(PROGRAMS)
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        print(f"unknown program(s) {unknown}; known: {list(PROGRAMS)}", file=sys.stderr)
        return 2
    measured = {name: benchmark(name) for name in names}
    print(table([row for rows in measured.values() for row in rows]))
    print()
    for name in names:
        print(f"- {name}: {PROGRAMS[name].derivation}")
    found = [problem for rows in measured.values() for problem in problems(rows)]
    for problem in found:
        print(f"FAILS: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
