"""`xshard.jit` against `jax.jit` on real programs: collectives, compile time, call time.

For each program of `xshard.testing.jax_programs` (flax, equinox, dm-haiku and optax
models with the shardings a `jax.jit` user gives them, on a 2x4 mesh of 8 simulated
CPU devices), both sides are compiled from the same function and shardings, then:

- collectives by kind and bytes, read by the same reader (`hlo_rows`) from the HLO
  that XLA compiled on each side, bytes summed over one device's collectives;
- compile time: `lower(*args).compile()` from the Python function, once per side
  (xshard's includes JAX's lowering, its own pipeline and XLA's compile);
- time per call: both called with the same arguments, already placed with the
  requested shardings, alternating one call of each (results waited on), median of
  `--calls` pairs after `--warmup` pairs; `speed` is jax.jit's median over xshard's
  (above 1: xshard.jit is faster);
- max error: the largest absolute difference of any result, relative to the largest
  magnitude of jax.jit's result (at least 1).

    python tools/jit_benchmark.py                     # every program, 50 calls each
    python tools/jit_benchmark.py transformer_block --calls 200

Prints a markdown table (the one in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from typing import Any

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import numpy as np  # noqa: E402

import xshard  # noqa: E402
from xshard.jax.hlo_collectives import hlo_rows  # noqa: E402
from xshard.testing.jax_programs import PROGRAMS, JaxProgram, mesh_2x4  # noqa: E402

DEVICES = 8


def _collectives(hlo: str) -> str:
    rows = hlo_rows(hlo, DEVICES)
    if not rows:
        return "none"
    count = Counter(row.kind for row in rows)
    size = Counter()
    for row in rows:
        size[row.kind] += row.bytes
    return ", ".join(f"{k} x{count[k]} ({size[k]} B)" for k in sorted(count))


def _timed(thunk: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    value = thunk()
    return value, time.perf_counter() - start


def _call_time(fn: Any, args: tuple[Any, ...]) -> float:
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    return time.perf_counter() - start


def _max_error(got: Any, want: Any) -> float:
    worst = 0.0
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        scale = max(1.0, float(np.abs(b).max(initial=0.0)))
        worst = max(worst, float(np.abs(a - b).max(initial=0.0)) / scale)
    return worst


def measure(program: JaxProgram, calls: int, warmup: int) -> dict[str, Any]:
    reference = program.jitted()
    ours = xshard.jit(
        program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings
    )
    jax_compiled, jax_compile = _timed(lambda: reference.lower(*program.args).compile())
    xs_compiled, xs_compile = _timed(lambda: ours.lower(*program.args).compile())
    args = jax.device_put(program.args, program.in_shardings)
    jax_times, xs_times = [], []
    for i in range(warmup + calls):
        jt, xt = _call_time(reference, args), _call_time(ours, args)
        if i >= warmup:
            jax_times.append(jt)
            xs_times.append(xt)
    jax_call, xs_call = statistics.median(jax_times), statistics.median(xs_times)
    return {
        "program": program.name,
        "xshard collectives": _collectives(xs_compiled.as_text()),
        "jax.jit collectives": _collectives(jax_compiled.as_text()),
        "compile xshard / jax (s)": f"{xs_compile:.2f} / {jax_compile:.2f}",
        "call xshard / jax (ms)": f"{xs_call * 1e3:.3f} / {jax_call * 1e3:.3f}",
        "speed": f"{jax_call / xs_call:.2f}",
        "max error": f"{_max_error(ours(*args), reference(*args)):.1e}",
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", choices=[[], *sorted(PROGRAMS)], default=[])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    opts = parser.parse_args(argv)
    if jax.device_count() < DEVICES:
        print(f"needs {DEVICES} devices, found {jax.device_count()}", file=sys.stderr)
        return 1
    mesh = mesh_2x4()
    rows = [
        measure(PROGRAMS[name](mesh), opts.calls, opts.warmup)
        for name in opts.programs or sorted(PROGRAMS)
    ]
    header = list(rows[0])
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row[h] for h in header) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
