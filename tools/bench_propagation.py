"""Does `sharding-propagation` scale linearly, and how does it compare with `mlir-opt-22`?

Generates a chain of N ops on 8x8 tensors, on a grid of 2 with the input split
on its rows, repeating one residual layer: a weight constant, a matmul, an
elementwise op and a residual add. The StableHLO form is propagated by xshard
in-process, parse excluded; the same chain in linalg form (`arith.constant`,
`tensor.empty`, `linalg.matmul`, `linalg.exp`, `linalg.add`) is propagated by
`mlir-opt-22` (the pass's own time from `--mlir-timing`, which leaves out parse
and print) and by xshard too.

xshard's times are CPU seconds (of this process, or of the child process for
`--e2e`), the minimum of `--repeat` runs: on a shared machine CPU time is
steadier than wall time. mlir-opt's are its own wall-clock pass timer, one
thread, also the minimum of `--repeat` runs. The last lines compare the time
per op of the largest N with the smallest: near 1 is linear.

    python tools/bench_propagation.py [--sizes 1000,10000,50000] [--quick] [--e2e]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from tool_env import executable  # noqa: E402
from xdsl.printer import Printer

from xshard.context import xshard_context
from xshard.diagnostics import DiagnosticError, LocatingParser
from xshard.transforms.propagation.sharding_propagation import ShardingPropagationPass

_T = "tensor<8x8xf32>"
_HEAD = [
    "shard.grid @grid(shape = 2)",
    f"func.func @chain(%x: {_T}) -> {_T} {{",
    "  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding",
    f"  %v0 = shard.shard %x to %s : {_T}",
]


def _chain(n: int, layer: Callable[[int, str, str], str]) -> str:
    """`n` ops; `layer(i, name, last)` writes op `i` given the chain's end `last`; an
    op that defines `name` becomes the new end (weights and inits use other names)."""
    lines, last = list(_HEAD), "%v0"
    for i in range(n):
        name = f"%v{i + 1}"
        lines.append("  " + layer(i, name, last))
        if lines[-1].startswith(f"  {name} "):
            last = name
    return "\n".join([*lines, f"  func.return {last} : {_T}", "}", ""])


def stablehlo_chain(n: int) -> str:
    state: dict[str, str] = {}

    def layer(i: int, name: str, last: str) -> str:
        step = i % 4
        if step == 0:
            state["w"], state["res"] = f"%w{i}", last
            return f"%w{i} = stablehlo.constant dense<5.000000e-01> : {_T}"
        if step == 1:
            dims = f"contracting_dims = [1] x [0] : ({_T}, {_T}) -> {_T}"
            return f"{name} = stablehlo.dot_general {last}, {state['w']}, {dims}"
        if step == 2:
            return f"{name} = stablehlo.tanh {last} : {_T}"
        return f"{name} = stablehlo.add {last}, {state['res']} : {_T}"

    return _chain(n, layer)


def linalg_chain(n: int) -> str:
    state: dict[str, str] = {}

    def layer(i: int, name: str, last: str) -> str:
        step, t = i % 5, _T
        if step == 0:
            state["w"], state["res"] = f"%w{i}", last
            return f"%w{i} = arith.constant dense<5.000000e-01> : {t}"
        if step == 1:
            state["e"] = f"%e{i}"
            return f"%e{i} = tensor.empty() : {t}"
        init = f"outs({state['e']} : {t}) -> {t}"
        if step == 2:
            return f"{name} = linalg.matmul ins({last}, {state['w']} : {t}, {t}) {init}"
        if step == 3:
            return f"{name} = linalg.exp ins({last} : {t}) {init}"
        return f"{name} = linalg.add ins({last}, {state['res']} : {t}, {t}) {init}"

    return _chain(n, layer)


def _cpu(run: Callable[..., object], *args: object) -> tuple[float, object]:
    """CPU seconds `run(*args)` took, and what it returned."""
    start = time.process_time()
    result = run(*args)
    return time.process_time() - start, result


def _child_cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class _Xshard:
    def __init__(self) -> None:
        self.ctx = xshard_context()

    def parse(self, text: str):
        return LocatingParser(self.ctx, text, "chain.mlir").parse_module()

    def times(self, text: str, repeat: int) -> dict[str, float]:
        """Parse, pass and print CPU seconds (each the minimum over `repeat` runs)."""
        best: dict[str, float] = {}
        for _ in range(repeat):
            parse, module = _cpu(self.parse, text)
            got = {
                "parse": parse,
                "pass": _cpu(ShardingPropagationPass().apply, self.ctx, module)[0],
                "print": _cpu(Printer(stream=StringIO()).print_op, module)[0],
            }
            best = {k: min(v, best.get(k, v)) for k, v in got.items()}
        return best


def _mlir_opt_pass(mlir_opt: str, path: Path) -> float:
    """The pass's own time from `--mlir-timing` (wall, one thread): parse and print excluded."""
    cmd = [
        mlir_opt,
        str(path),
        "-o",
        "/dev/null",
        "--mlir-timing",
        "--mlir-disable-threading",
        "--pass-pipeline=builtin.module(func.func(sharding-propagation))",
    ]
    report = subprocess.run(cmd, check=True, capture_output=True, text=True).stderr
    lines = [line for line in report.splitlines() if line.strip().endswith("ShardingPropagation")]
    return float(lines[0].split()[0])


def _fmt(seconds: float | None, n: int | None = None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e6 / n:.1f}" if n else f"{seconds:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="1000,10000,50000", help="chain lengths, comma separated"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per measurement; the minimum counts"
    )
    parser.add_argument("--quick", action="store_true", help="sizes 200,1000 and one run each")
    parser.add_argument(
        "--e2e",
        action="store_true",
        help="also time `xshard-opt -p sharding-propagation` as a process",
    )
    parser.add_argument(
        "--no-linalg", action="store_true", help="skip the linalg chain (mlir-opt-22 and xshard)"
    )
    args = parser.parse_args(argv)
    sizes = [200, 1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    repeat = 1 if args.quick else args.repeat
    mlir_opt = None if args.no_linalg else shutil.which("mlir-opt-22")
    xshard_opt = executable("xshard-opt")
    bench = _Xshard()
    bench.times(stablehlo_chain(8), 1)  # load models and dialects before timing
    columns = ["N", "parse s", "pass s", "pass us/op", "print s"]
    if args.e2e:
        columns.append("xshard-opt s")
    if not args.no_linalg:
        columns += ["linalg pass s", "linalg us/op"]
    if mlir_opt:
        columns += ["mlir-opt pass s", "mlir-opt us/op", "linalg/mlir-opt"]
    rows: list[list[str]] = []
    per_op: dict[str, list[float]] = {"parse": [], "pass": [], "print": []}
    print(f"sharding-propagation on a chain of N ops, CPU seconds, min of {repeat}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            text = stablehlo_chain(n)
            t = bench.times(text, repeat)
            for k in per_op:
                per_op[k].append(t[k] / n)
            row = [str(n), _fmt(t["parse"]), _fmt(t["pass"]), _fmt(t["pass"], n), _fmt(t["print"])]
            if args.e2e:
                path = Path(tmp, f"stablehlo{n}.mlir")
                path.write_text(text)
                cmd = [
                    xshard_opt,
                    str(path),
                    "-p",
                    "sharding-propagation",
                    "-o",
                    "/dev/null",
                ]
                row.append(_fmt(min(_child_cpu(cmd) for _ in range(repeat))))
            if not args.no_linalg:
                linalg = linalg_chain(n)
                try:
                    lin = bench.times(linalg, repeat)["pass"]
                except DiagnosticError as err:
                    print(f"N={n}: xshard cannot propagate the linalg chain: {err.message}")
                    lin = None
                row += [_fmt(lin), _fmt(lin, n)]
                if mlir_opt:
                    path = Path(tmp, f"linalg{n}.mlir")
                    path.write_text(linalg)
                    ref = min(_mlir_opt_pass(mlir_opt, path) for _ in range(repeat))
                    ratio = f"{lin / ref:.0f}x" if lin is not None and ref > 0 else "-"
                    row += [_fmt(ref), _fmt(ref, n), ratio]
            rows.append(row)
            print("  ".join(f"{c}={v}" for c, v in zip(columns, row, strict=True)), flush=True)
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    print()
    for r in (columns, *rows):
        print("  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)))
    if len(sizes) > 1:
        print()
        for k, v in per_op.items():
            ratio = v[-1] / v[0]
            verdict = "linear" if ratio < 1.5 else "GROWS faster than linear"
            print(f"{k}: time per op at N={sizes[-1]} / N={sizes[0]} = {ratio:.2f} ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
