"""The column-parallel linear layer with its all_gather whole (`overlap=none`) or
decomposed by `shard-decompose-all-gather` (`broadcast`, `ring`), on 8 simulated
CPU devices.

For each size, each variant goes through `xshard.jax.run.run_module` (so it is checked
against one device first), then the per-device StableHLO is compiled once and
called with the same per-device arguments, alternating one call of each variant
(results waited on), `--calls` rounds after `--warmup`; the table gives the median.
Collectives and bytes are one device's,
from the StableHLO XLA was handed; the modeled time is `xshard.sharding.overlap_cost`
for target=cpu (what `overlap=auto` compares), and `auto` marks its pick.

    python tools/overlap_benchmark.py                  # the sizes of docs/benchmarks.md
    python tools/overlap_benchmark.py --calls 50 --schedule

`--schedule` also prints the order of collectives and matmuls in XLA's compiled
(scheduled) HLO of each decomposed variant of the first size.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402

from xshard.context import xshard_context  # noqa: E402
from xshard.diagnostics import LocatingParser  # noqa: E402
from xshard.jax import compile_spmd  # noqa: E402
from xshard.jax.run import RunReport, run_module  # noqa: E402
from xshard.sharding.grid import Grid  # noqa: E402
from xshard.sharding.overlap_cost import OverlapModel  # noqa: E402
from xshard.testing.column_parallel import column_parallel_linear  # noqa: E402

DEVICES = 8
SIZES = [(64, 32), (512, 256), (2048, 512), (4096, 1024)]
"""(sequence, hidden): x is [S, H], w [H, 4H]."""
VARIANTS = ("none", "broadcast", "ring")
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%(\S+) = .*? ([a-z-]+)\(")
_COLLECTIVES = ("all-gather", "all-reduce", "collective-permute", "all-to-all")


def _placed(executable, per_device: list[np.ndarray]) -> jax.Array:
    """Device k's buffer as shard k of one array, placed once before timing."""
    mesh = Mesh(np.array(executable.devices), ("d",))
    shape = (DEVICES * per_device[0].shape[0], *per_device[0].shape[1:])
    shards = [jax.device_put(v, d) for v, d in zip(per_device, executable.devices, strict=True)]
    return jax.make_array_from_single_device_arrays(
        shape, NamedSharding(mesh, PartitionSpec("d")), shards
    )


def _modeled(seq: int, hidden: int) -> dict[str, float]:
    chunk_bytes = seq // DEVICES * hidden * 4
    flops = 2.0 * seq * (4 * hidden // DEVICES) * hidden
    costs = OverlapModel.for_target("cpu").costs(
        chunk_bytes, flops, DEVICES, (0,), Grid("m", (DEVICES,)), ring=True
    )
    return dict(costs.times())


def _collectives(report: RunReport) -> str:
    return ", ".join(f"{c.count} {c.op} ({c.bytes} B)" for c in report.collectives)


def schedule(executable) -> str:
    """The collectives and dots of XLA's scheduled entry computation, in order."""
    text = executable.hlo_text()
    entry = text[text.index("ENTRY") :]
    steps = []
    for line in entry.splitlines():
        if (m := _INSTRUCTION.match(line)) is None:
            continue
        name, opcode = m.groups()
        if opcode.startswith(_COLLECTIVES):
            steps.append(opcode)
        elif opcode == "dot" or name.startswith("ynn_fusion"):  # XLA:CPU's matmuls
            steps.append("dot")
    return " ".join(steps)


def benchmark(seq: int, hidden: int, calls: int, warmup: int, show_schedule: bool) -> list[str]:
    reports, executables = {}, {}
    for variant in VARIANTS:
        module = LocatingParser(
            xshard_context(), column_parallel_linear(seq, hidden), "<benchmark>"
        ).parse_module()
        report = run_module(module, DEVICES, overlap=variant)
        if not report.match:
            raise SystemExit(f"{variant} at S={seq} H={hidden} does not match one device")
        reports[variant] = report
        executables[variant] = compile_spmd(report.stablehlo, DEVICES)
        if show_schedule and variant != "none":
            print(f"XLA:CPU schedule, {variant}, S={seq} H={hidden}:")
            print("  " + schedule(executables[variant]))
    rng = np.random.default_rng(0)
    first = executables["none"]
    args = [
        _placed(first, [rng.standard_normal(p.shape).astype(p.dtype) for _ in range(DEVICES)])
        for p in first.parameters
    ]
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for i in range(warmup + calls):
        for variant in VARIANTS:
            start = time.perf_counter()
            results = executables[variant].loaded.execute_sharded(args)
            jax.block_until_ready(results.disassemble_into_single_device_arrays())
            if i >= warmup:
                times[variant].append(time.perf_counter() - start)
    modeled = _modeled(seq, hidden)
    auto = min(modeled, key=lambda v: modeled[v])
    base = statistics.median(times["none"])
    rows = []
    for variant in VARIANTS:
        median = statistics.median(times[variant])
        mark = " (auto)" if variant == auto else ""
        rows.append(
            f"| {seq}x{hidden} @ {hidden}x{4 * hidden} | {variant}{mark}"
            f" | {median * 1e3:.2f} | {median / base:.2f} | {_collectives(reports[variant])}"
            f" | {modeled[variant] * 1e3:.2f} |"
        )
    return rows


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--schedule", action="store_true")
    args = p.parse_args(argv)
    print(
        "| x @ w (global) | variant | ms / call (median) | vs none | collectives per device "
        "| modeled ms |"
    )
    print("|---|---|---|---|---|---|")
    for i, (seq, hidden) in enumerate(SIZES):
        for row in benchmark(seq, hidden, args.calls, args.warmup, args.schedule and i == 0):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
