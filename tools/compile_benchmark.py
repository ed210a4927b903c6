"""`xshard.jit` against `jax.jit`: the time to compile each real program, cold and from
warm persistent caches, every measurement in a fresh process.

- cold: a new process with no persistent cache times `lower(*args).compile()` once
  (tracing and lowering by JAX, xshard's pipeline, XLA's compile);
- warm: a process compiles with persistent caches in a new directory (JAX's
  `jax_compilation_cache_dir` for `jax.jit`; `xshard.jax.set_cache_dir` for
  `xshard.jit`, which sets JAX's too), then a new process times the same compile
  from those caches.

The two sides are measured in the same run, alternating, and each figure is the
minimum of `--repeat` processes. Prints a markdown table (the one in
docs/benchmarks.md) and each column's largest ratio.

    python tools/compile_benchmark.py                  # both suites
    python tools/compile_benchmark.py gpt_train_step --repeat 3
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

SIDES = ("jax", "xshard")


def _child(side: str, name: str, cache: str | None) -> None:
    """One measurement, in this fresh process: print the seconds as JSON."""
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    import jax

    import xshard
    from xshard.jax import set_cache_dir
    from xshard.testing.jax_programs import PROGRAMS, mesh_2x4
    from xshard.testing.region_programs import REGION_PROGRAMS

    program = {**PROGRAMS, **REGION_PROGRAMS}[name](mesh_2x4())
    if side == "jax":
        if cache:
            jax.config.update("jax_compilation_cache_dir", cache)
            jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        fn = program.jitted()
    else:
        if cache:
            set_cache_dir(cache)
        fn = xshard.jit(
            program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings
        )
    gc.collect()  # both sides start from a collected heap, as timeit's runs do
    start = time.perf_counter()
    fn.lower(*program.args).compile()
    print(json.dumps(time.perf_counter() - start))


def _measure(side: str, name: str, cache: str | None) -> float:
    out = subprocess.run(
        [sys.executable, __file__, "--child", side, name, cache or ""],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def _row(name: str, repeat: int) -> dict[str, float]:
    cold = {side: [] for side in SIDES}
    warm = {side: [] for side in SIDES}
    for _ in range(repeat):
        for side in SIDES:
            cold[side].append(_measure(side, name, None))
        for side in SIDES:
            with tempfile.TemporaryDirectory() as cache:
                _measure(side, name, cache)  # fills the caches
                warm[side].append(_measure(side, name, cache))
    return {
        **{f"cold {s}": min(cold[s]) for s in SIDES},
        **{f"warm {s}": min(warm[s]) for s in SIDES},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        side, name, cache = args.child
        _child(side, name, cache or None)
        return
    from xshard.testing.jax_programs import PROGRAMS
    from xshard.testing.region_programs import REGION_PROGRAMS

    names = args.programs or list(dict.fromkeys([*PROGRAMS, *REGION_PROGRAMS]))
    print("| program | cold jax.jit s | cold xshard.jit s | ratio | warm jax.jit s | "
          "warm xshard.jit s | ratio |")
    print("|---|---|---|---|---|---|---|")
    worst = {"cold": 0.0, "warm": 0.0}
    for name in names:
        r = _row(name, args.repeat)
        ratios = {k: r[f"{k} xshard"] / r[f"{k} jax"] for k in worst}
        worst = {k: max(worst[k], ratios[k]) for k in worst}
        print(
            f"| {name} | {r['cold jax']:.2f} | {r['cold xshard']:.2f} | {ratios['cold']:.2f} | "
            f"{r['warm jax']:.2f} | {r['warm xshard']:.2f} | {ratios['warm']:.2f} |",
            flush=True,
        )
    print(f"\nlargest ratio, cold: {worst['cold']:.2f}; warm: {worst['warm']:.2f}")


if __name__ == "__main__":
    main()
