"""`xshard.jit` against `jax.jit` on real programs: collectives, memory, compile and call time.

For each program of a suite (flax, equinox, dm-haiku, optax and diffrax models with the
shardings a `jax.jit` user gives them, on a 2x4 mesh of 8 simulated CPU devices), both
sides are compiled from the same function and shardings by
`xshard.testing.jit_comparison.compare`, then:

- collectives by kind and bytes, read by the same reader (`hlo_rows`) from the HLO
  that XLA compiled on each side, bytes summed over one device's collectives (a
  collective in a loop body counts once);
- temp memory: `temp_size_in_bytes` of `memory_analysis()`, one device, each side;
  `temp ratio` is xshard's over jax.jit's;
- `flops ratio`: xshard's over jax.jit's of `cost_analysis()["flops"]`, one device
  (XLA's estimate, a loop body counted once): above 1 where xshard repeats work;
- compile time: `lower(*args).compile()` from the Python function, once per side
  (xshard's includes JAX's lowering, its own pipeline and XLA's compile);
- time per call: both compiled calls with the same arguments, already placed with the
  requested shardings, alternating one call of each (results waited on), median of
  `--calls` pairs after `--warmup` pairs; `speed` is jax.jit's median over xshard's
  (above 1: xshard.jit is faster);
- max error: the largest absolute difference of any result, relative to the largest
  magnitude of jax.jit's result (at least 1).

A program xshard refuses gets `refused` in its xshard columns and its message below
the table.

    python tools/jit_benchmark.py                     # the six of jax_programs, 50 calls
    python tools/jit_benchmark.py --suite region      # the loops/regions/shard_map suite
    python tools/jit_benchmark.py --suite all         # both
    python tools/jit_benchmark.py transformer_block --calls 200

Prints a markdown table (the ones in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402

from xshard.testing.jax_programs import PROGRAMS, mesh_2x4  # noqa: E402
from xshard.testing.jit_comparison import (  # noqa: E402
    DEVICES,
    ComparisonRow,
    compare,
    format_collectives,
)
from xshard.testing.region_programs import REGION_PROGRAMS  # noqa: E402

SUITES = {
    "jax": PROGRAMS,
    "region": REGION_PROGRAMS,
    "all": {**PROGRAMS, **REGION_PROGRAMS},
}


def _call_time(fn: Any, args: tuple[Any, ...]) -> float:
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    return time.perf_counter() - start


def measure(row: ComparisonRow, calls: int, warmup: int) -> dict[str, str]:
    """The table's row of one comparison, with call times measured here."""
    theirs, ours = row.calls
    cells = {
        "program": row.program,
        "xshard collectives": "refused",
        "jax.jit collectives": format_collectives(row.jax.collectives),
        "compile xshard / jax (s)": f"- / {row.jax.compile_s:.2f}",
        "call xshard / jax (ms)": "-",
        "speed": "-",
        "max error": "-",
        "temp xshard / jax (B)": f"- / {row.jax.memory.temp}",
        "temp ratio": "-",
        "flops ratio": "-",
    }
    if row.xshard is None:
        return cells
    jax_times, xs_times = [], []
    for i in range(warmup + calls):
        jt, xt = _call_time(theirs, row.args), _call_time(ours, row.args)
        if i >= warmup:
            jax_times.append(jt)
            xs_times.append(xt)
    jax_call, xs_call = statistics.median(jax_times), statistics.median(xs_times)
    temp, jax_temp = row.xshard.memory.temp, row.jax.memory.temp
    return cells | {
        "xshard collectives": format_collectives(row.xshard.collectives),
        "compile xshard / jax (s)": f"{row.xshard.compile_s:.2f} / {row.jax.compile_s:.2f}",
        "call xshard / jax (ms)": f"{xs_call * 1e3:.3f} / {jax_call * 1e3:.3f}",
        "speed": f"{jax_call / xs_call:.2f}",
        "max error": f"{row.max_error:.1e}",
        "temp xshard / jax (B)": f"{temp} / {jax_temp}",
        "temp ratio": f"{temp / jax_temp:.2f}" if jax_temp else "-",
        "flops ratio": f"{row.xshard.flops / row.jax.flops:.2f}" if row.jax.flops else "-",
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", choices=[[], *sorted(SUITES["all"])], default=[])
    parser.add_argument("--suite", choices=sorted(SUITES), default="jax")
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    opts = parser.parse_args(argv)
    if jax.device_count() < DEVICES:
        print(f"needs {DEVICES} devices, found {jax.device_count()}", file=sys.stderr)
        return 1
    mesh = mesh_2x4()
    suite = SUITES["all"] if opts.programs else SUITES[opts.suite]
    compared = [compare(suite[name](mesh)) for name in opts.programs or sorted(suite)]
    rows = [measure(row, opts.calls, opts.warmup) for row in compared]
    header = list(rows[0])
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row[h] for h in header) + " |")
    refused = [row for row in compared if row.refused is not None]
    if refused:
        print()
    for row in refused:
        print(f"- {row.program}: " + " ".join(row.refused.split()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
