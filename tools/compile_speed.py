"""How fast is `xshard-spmd` next to reading and writing the same program?

For chains of N ops (`tools/bench_propagation.py`'s StableHLO chain: a residual layer
of a weight constant, a `dot_general`, a `tanh` and an `add`, repeated, its input
annotated split on a grid of 2), it times two commands as fresh processes:
`xshard-opt FILE` (parse, verify and print) and `xshard-opt FILE -p xshard-spmd` (the
same plus the whole pipeline), each the minimum wall time of `--repeat` runs, and
reads each one's peak RSS from the operating system (`wait4`). It prints, per N,
both times and peaks, then three figures: the pipeline's time over parse+print's at
the largest N, the pipeline's time at the largest N over the smallest (linear growth
is the ratio of the sizes), and the pipeline's peak RSS over parse+print's.

    python tools/compile_speed.py                  # 5000 and 20000 ops, min of 3
    python tools/compile_speed.py --sizes 1000,4000 --repeat 1
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_propagation import stablehlo_chain  # noqa: E402

OPT = [sys.executable, "-c", "from xshard.cli.opt import main; main()"]


def _run(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.read().decode()[-2000:]}")
    return elapsed, usage.ru_maxrss


def measure(path: Path, repeat: int) -> dict[str, tuple[float, int]]:
    """name -> (min wall seconds, max peak RSS KiB) over `repeat` runs."""
    out = {}
    for name, extra in (("parse+print", []), ("xshard-spmd", ["-p", "xshard-spmd"])):
        runs = [_run([*OPT, str(path), *extra]) for _ in range(repeat)]
        out[name] = (min(t for t, _ in runs), max(m for _, m in runs))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,20000")
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args(argv)
    sizes = [int(n) for n in opts.sizes.split(",")]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"chain{n}.mlir"
            path.write_text(stablehlo_chain(n))
            results[n] = measure(path, opts.repeat)
    print("| ops | parse+print s | xshard-spmd s | ratio | parse+print MiB | xshard-spmd MiB |")
    print("|---|---|---|---|---|---|")
    for n, r in results.items():
        (tp, mp), (ts, ms) = r["parse+print"], r["xshard-spmd"]
        print(f"| {n} | {tp:.2f} | {ts:.2f} | {ts / tp:.2f} | {mp / 1024:.0f} | {ms / 1024:.0f} |")
    small, large = results[sizes[0]], results[sizes[-1]]
    print()
    print(f"time at {sizes[-1]} ops, pipeline / parse+print: "
          f"{large['xshard-spmd'][0] / large['parse+print'][0]:.2f}")
    print(f"pipeline time, {sizes[-1]} / {sizes[0]} ops: "
          f"{large['xshard-spmd'][0] / small['xshard-spmd'][0]:.2f} "
          f"(linear: {sizes[-1] / sizes[0]:.2f})")
    print(f"peak RSS at {sizes[-1]} ops, pipeline / parse+print: "
          f"{large['xshard-spmd'][1] / large['parse+print'][1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
