"""Does `auto-sharding` finish in seconds on a 100-op program?

Generates a stack of residual MLP blocks, `x + relu(x W1) W2`, 5 ops a block (two
dot_generals, a zero constant, a maximum, an add), batch 16, width 64, hidden 256, f32,
with the input and output annotated replicated and every weight an argument. Each
size runs the pass in-process (parse excluded) with and without a memory limit of a
quarter of the replicated weights, and prints the wall time of the pass, the solver's
time, the modeled cost and the per-device memory of the plan. `--jax` instead runs the
pass on the six real JAX programs of `xshard.testing.jax_programs` (2x4 mesh, after the
import passes), with no limit.

`--real` runs those programs through `xshard.jit(..., auto_sharding=True,
memory_limit=...)` given only their batch shardings (every other argument and every
result unspecified), under no limit and 1/2, 1/4 and 1/8 of what full replication
needs (XLA's figure for `jax.jit` with every argument replicated), beside the
hand-written plan (Megatron + data parallel) through `xshard.jit` and `jax.jit`. Per
row: the limit the model was asked for where `xshard.jit` lowered it to hold XLA's
buffers to the limit, the ILP's modeled seconds and predicted peak bytes for that ask
(auto rows; for the hand rows, the model's price of the hand plan as propagated),
the modeled seconds of the collectives XLA runs (`comm`, its optimized HLO priced by
the same cost model: comparable across all rows), the collectives
and bytes XLA runs (its optimized HLO), the ring-model bytes xshard's per-device
program sends per device, XLA's
measured per-device memory (`memory_analysis()`: arguments + outputs + temporaries -
aliased) and the median step time of 20 calls. `--interleaved` times one program's
auto plan against its hand plans call by call, in turn, and says whether the
difference is more than noise. `--hand-in-auto` prices a program's hand plan in the
problem auto-sharding solves given only the batch.

    python tools/auto_sharding_benchmark.py [--blocks 20] [--grid 8 | --grid 2x4] [--untied]
    python tools/auto_sharding_benchmark.py --jax
    python tools/auto_sharding_benchmark.py --real [gpt_train_step ...] [--fractions 1,2]
        [--time-limit SECONDS]
    python tools/auto_sharding_benchmark.py --plan gpt_train_step --fractions 2
    python tools/auto_sharding_benchmark.py --interleaved moe_layer --fractions 4
        [--rounds 1000]
    python tools/auto_sharding_benchmark.py --hand-in-auto gpt_train_step --fractions 4
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import time

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.transforms.propagation.auto.auto_sharding import AutoShardingPass
from xshard.transforms.spmd_pipeline import import_passes

_X = "tensor<16x64xf32>"
_H = "tensor<16x256xf32>"
_W1 = "tensor<64x256xf32>"
_W2 = "tensor<256x64xf32>"


def program(blocks: int, grid: str) -> str:
    weights = ", ".join(f"%w{i}a: {_W1}, %w{i}b: {_W2}" for i in range(blocks))
    lines = [
        f"shard.grid @g(shape = {grid})",
        f"func.func @main(%x: {_X}, {weights}) -> {_X} {{",
        "  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding",
        f"  %v0 = shard.shard %x to %rep : {_X}",
    ]
    dot = "contracting_dims = [1] x [0]"
    for i in range(blocks):
        v, n = f"%v{i}", f"%v{i + 1}"
        lines += [
            f"  %h{i} = stablehlo.dot_general {v}, %w{i}a, {dot} : ({_X}, {_W1}) -> {_H}",
            f"  %z{i} = stablehlo.constant dense<0.000000e+00> : {_H}",
            f"  %r{i} = stablehlo.maximum %h{i}, %z{i} : {_H}",
            f"  %o{i} = stablehlo.dot_general %r{i}, %w{i}b, {dot} : ({_H}, {_W2}) -> {_X}",
            f"  {n} = stablehlo.add {v}, %o{i} : {_X}",
        ]
    lines += [
        f"  %out = shard.shard %v{blocks} to %rep annotate_for_users : {_X}",
        f"  func.return %out : {_X}",
        "}",
    ]
    return "\n".join(lines)


def run(
    text: str, limit: int | None, imported: bool = False, tie: bool = True
) -> tuple[float, str]:
    ctx = xshard_context()
    module = LocatingParser(ctx, text, "bench").parse_module()
    if imported:
        for phase in import_passes():
            phase.apply(ctx, module)
    report = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(report):
        AutoShardingPass(memory_limit=limit, report=True, tie_repeats=tie).apply(ctx, module)
    return time.perf_counter() - start, report.getvalue().strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=20, help="5 ops each (default 20)")
    parser.add_argument("--grid", default="8", help="grid shape, e.g. 8 or 2x4")
    parser.add_argument("--untied", action="store_true", help="auto-sharding{tie-repeats=false}")
    parser.add_argument("--jax", action="store_true", help="the six real JAX programs")
    parser.add_argument(
        "--real", nargs="*", metavar="PROGRAM", help="xshard.jit on real programs (all: none)"
    )
    parser.add_argument(
        "--fractions",
        default="1,2,4,8",
        help="with --real: memory limits as fractions of replication, 1 for none",
    )
    parser.add_argument(
        "--plan",
        metavar="PROGRAM",
        help="the chosen layout of each argument of PROGRAM, given only its batch, at the "
        "first of --fractions",
    )
    parser.add_argument(
        "--interleaved",
        metavar="PROGRAM",
        help="PROGRAM's auto plan at the first of --fractions against its hand plans, step "
        "times measured interleaved over --rounds rounds",
    )
    parser.add_argument("--rounds", type=int, default=1000, help="with --interleaved")
    parser.add_argument(
        "--hand-in-auto",
        metavar="PROGRAM",
        help="PROGRAM's hand plan priced in the problem auto-sharding solves given only the "
        "batch, at the first of --fractions",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        help="with --real, --plan or --interleaved: seconds each solve may take "
        "(auto-sharding{time-limit=})",
    )
    args = parser.parse_args()
    if args.plan or args.interleaved or args.hand_in_auto:
        args.real = []
    if args.jax or args.real is not None:
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
        flags = os.environ.get("XLA_FLAGS", "")
        os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count=8"
        from xshard.testing.jax_programs import PROGRAMS, mesh_2x4  # loads jax

        if args.real is not None:
            from auto_sharding_real import (  # loads jax
                hand_in_auto,
                interleaved,
                plan_table,
                real_rows,
            )

            fractions = [None if f == 1 else f for f in map(int, args.fractions.split(","))]
            if args.plan:
                plan_table(args.plan, fractions[0], args.time_limit)
                return
            if args.interleaved:
                interleaved(args.interleaved, fractions[0], args.rounds, args.time_limit)
                return
            if args.hand_in_auto:
                hand_in_auto(args.hand_in_auto, fractions[0])
                return
            real_rows(args.real or sorted(PROGRAMS), fractions, args.time_limit)
            return

        mesh = mesh_2x4()
        for name in sorted(PROGRAMS):
            seconds, line = run(PROGRAMS[name](mesh).text(), None, imported=True)
            print(f"{name}: pass {seconds:.2f} s; {line}")
        return
    text = program(args.blocks, args.grid)
    weights = args.blocks * 2 * 64 * 256 * 4
    print(f"{5 * args.blocks} ops, grid {args.grid}, replicated weights {weights} bytes")
    for limit in (None, weights // 4):
        seconds, line = run(text, limit, tie=not args.untied)
        print(f"memory-limit={limit}: pass {seconds:.2f} s; {line}")


if __name__ == "__main__":
    main()
