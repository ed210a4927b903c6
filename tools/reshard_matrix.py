"""Run the resharding matrix on 8 simulated CPU devices and print it.

For a 2-D tensor on a 2x4 grid, every ordered pair of `xshard.sharding.matrix`'s
shardings is planned; each pair the planner accepts is run: one module per source
sharding annotates its argument with the source and returns one result per target
(`shard.shard %x to SRC`, then `shard.shard ... to DST annotate_for_users`), goes
through `shard-partition` and `convert-shard-to-stablehlo{target=cpu}`, and XLA runs
it. Each result, put back together under its target, must equal the global tensor
exactly (integer values, so partial sums are exact too), and the converted result's
collectives must be the plan's steps, in order (`all_slice` as the `dynamic_slice`
it becomes; `make_partial`, which is no collective, as the `dynamic_slice` of its
`[true, false, ...]` table and the `select` it becomes).

    python tools/reshard_matrix.py [--shape 8x16] [--quiet]

prints a table (source, target, plan, bytes per device, what ran) and the counts.
"""

import os

_flags = os.environ.get("XLA_FLAGS", "")
if "--xla_force_host_platform_device_count" not in _flags:
    os.environ["XLA_FLAGS"] = f"{_flags} --xla_force_host_platform_device_count=8".strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from fractions import Fraction  # noqa: E402
from itertools import groupby  # noqa: E402

import numpy as np  # noqa: E402
from xdsl.dialects import func  # noqa: E402
from xdsl.ir import Operation, SSAValue  # noqa: E402

from xshard.context import xshard_context  # noqa: E402
from xshard.diagnostics import LocatingParser  # noqa: E402
from xshard.jax import run_spmd  # noqa: E402
from xshard.sharding.grid import Grid  # noqa: E402
from xshard.sharding.matrix import (  # noqa: E402
    MatrixPair,
    refusal_counts,
    reshard_matrix,
    step_counts,
)
from xshard.sharding.resharding import MakePartial, ReshardPlan, Step  # noqa: E402
from xshard.sharding.sharding import Sharding  # noqa: E402
from xshard.sharding.simulate import SimulationError, assemble, distribute  # noqa: E402
from xshard.transforms.export.convert_shard_to_stablehlo import (  # noqa: E402
    ConvertShardToStablehloPass,
)
from xshard.transforms.partition.shard_partition import ShardPartitionPass  # noqa: E402

GRID = Grid("g", (2, 4))
SHAPE = (8, 16)

# What each plan step becomes in the converted program.
_STEP_OPS = {
    "all_reduce": ("stablehlo.all_reduce",),
    "reduce_scatter": ("stablehlo.reduce_scatter",),
    "all_gather": ("stablehlo.all_gather",),
    "all_to_all": ("stablehlo.all_to_all",),
    "all_slice": ("stablehlo.dynamic_slice",),
    "make_partial": ("stablehlo.dynamic_slice", "stablehlo.select"),
}
_COUNTED = frozenset(op for ops in _STEP_OPS.values() for op in ops)


@dataclass(frozen=True)
class PairRun:
    """A planned pair after running: the step ops the converted program has for it, and
    what went wrong with its result (None when it equals the global tensor)."""

    pair: MatrixPair
    ops: tuple[str, ...]
    error: str | None

    @property
    def plan(self) -> ReshardPlan:
        assert self.pair.plan is not None
        return self.pair.plan


def _ops(step: Step) -> tuple[str, ...]:
    if isinstance(step, MakePartial) and not step.masks:
        return ()
    return _STEP_OPS[str(step).split(" ", 1)[0]]


def expected_ops(plan: ReshardPlan) -> tuple[str, ...]:
    return tuple(op for step in plan.steps for op in _ops(step))


def source_module(src: Sharding, dsts: list[Sharding], shape: tuple[int, int]) -> str:
    t = f"tensor<{shape[0]}x{shape[1]}xf32>"
    lines = [
        f"%s = shard.sharding {src} : !shard.sharding",
        f"%x1 = shard.shard %x to %s : {t}",
    ]
    for i, dst in enumerate(dsts):
        lines.append(f"%d{i} = shard.sharding {dst} : !shard.sharding")
        lines.append(f"%y{i} = shard.shard %x1 to %d{i} annotate_for_users : {t}")
    results = ", ".join(f"%y{i}" for i in range(len(dsts)))
    types = ", ".join([t] * len(dsts))
    body = "\n  ".join(lines)
    dims = "x".join(map(str, GRID.shape))
    return (
        f"shard.grid @{GRID.name}(shape = {dims})\n"
        f"func.func @main(%x: {t}) -> ({types}) {{\n  {body}\n"
        f"  func.return {results} : {types}\n}}\n"
    )


def _step_ops(fn: func.FuncOp) -> list[tuple[str, ...]]:
    """Per returned value, the counted ops it depends on, in program order."""
    ret = fn.body.block.last_op
    assert ret is not None
    per_result = []
    for value in ret.operands:
        seen: set[Operation] = set()
        todo: list[SSAValue] = [value]
        while todo:
            owner = todo.pop().owner
            if isinstance(owner, Operation) and owner not in seen:
                seen.add(owner)
                todo.extend(owner.operands)
        per_result.append(
            tuple(op.name for op in fn.body.block.ops if op in seen and op.name in _COUNTED)
        )
    return per_result


def run_source(
    src: Sharding, pairs: list[MatrixPair], shape: tuple[int, int], value: np.ndarray
) -> list[PairRun]:
    """Compile and run one module holding every planned pair that starts at `src`."""
    ctx = xshard_context()
    text = source_module(src, [p.dst for p in pairs], shape)
    module = LocatingParser(ctx, text, f"<{src}>").parse_module()
    ShardPartitionPass().apply(ctx, module)
    ConvertShardToStablehloPass("cpu").apply(ctx, module)
    module.verify()
    (fn,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    ops = _step_ops(fn)
    devices = GRID.devices()
    blocks = distribute(value, src, GRID, np.random.default_rng(1))
    outs = run_spmd(module, [[blocks[d] for d in devices]], len(devices))
    runs = []
    for pair, out, found in zip(pairs, outs, ops, strict=True):
        try:
            got = assemble(dict(zip(devices, out, strict=True)), pair.dst, GRID, shape)
            error = None if np.array_equal(got, value) else "differs from the global tensor"
        except SimulationError as err:
            error = str(err)
        runs.append(PairRun(pair, found, error))
    return runs


def run_matrix(
    shape: tuple[int, int] = SHAPE, seed: int = 0
) -> tuple[list[MatrixPair], list[PairRun]]:
    """All pairs, and the runs of the planned ones (one XLA compile per source)."""
    pairs = reshard_matrix(GRID, shape)
    value = np.random.default_rng(seed).integers(-50, 50, shape).astype(np.float32)
    runs = []
    planned = [p for p in pairs if p.plan is not None]
    for src, group in groupby(planned, key=lambda p: p.src):
        runs += run_source(src, list(group), shape, value)
    return pairs, runs


def _steps(plan: ReshardPlan) -> str:
    return (
        "; ".join(
            str(s).replace("grid_axes = ", "").replace(" reduction = sum", "") for s in plan.steps
        )
        or "-"
    )


def report(pairs: list[MatrixPair], runs: list[PairRun], shape: tuple[int, int]) -> str:
    lines = [f"resharding matrix: tensor {shape[0]}x{shape[1]}xf32 on grid 2x4"]
    lines.append(f"pairs {len(pairs)}, run {len(runs)}, refused {len(pairs) - len(runs)}")
    for reason, n in sorted(refusal_counts(pairs).items()):
        lines.append(f"  refused {n}: {reason}")
    bad = [r for r in runs if r.error or r.ops != expected_ops(r.plan)]
    lines.append(f"equal to the global tensor: {sum(r.error is None for r in runs)}/{len(runs)}")
    lines.append(
        f"collectives as planned: {sum(r.ops == expected_ops(r.plan) for r in runs)}/{len(runs)}"
    )
    lines.append(
        "plan steps: " + ", ".join(f"{k} {n}" for k, n in sorted(step_counts(pairs).items()))
    )
    total = sum((r.plan.cost for r in runs), Fraction(0))
    lines.append(f"bytes sent per device, all plans: {total}")
    lengths = Counter(len(r.plan.steps) for r in runs)
    lines.append("plan lengths: " + ", ".join(f"{k} steps: {lengths[k]}" for k in sorted(lengths)))
    for r in bad:
        lines.append(f"FAIL {r.pair.src} -> {r.pair.dst}: {r.error or ''} ran {r.ops}")
    return "\n".join(lines)


def table(pairs: list[MatrixPair], runs: list[PairRun]) -> str:
    ran = {(r.pair.src, r.pair.dst): r for r in runs}
    rows = ["source | target | plan | bytes/device | result"]
    for p in pairs:
        r = ran.get((p.src, p.dst))
        if r is None:
            rows.append(f"{p.src} | {p.dst} | refused | - | {p.refusal}")
            continue
        ok = "ok" if r.error is None and r.ops == expected_ops(r.plan) else "FAIL"
        rows.append(f"{p.src} | {p.dst} | {_steps(r.plan)} | {r.plan.cost} | {ok}")
    return "\n".join(row.replace("@g split_axes = ", "") for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="8x16", help="the tensor's shape, e.g. 8x8")
    parser.add_argument("--quiet", action="store_true", help="counts only, no table")
    args = parser.parse_args()
    shape = tuple(int(n) for n in args.shape.split("x"))
    assert len(shape) == 2, "the matrix is for 2-D tensors"
    pairs, runs = run_matrix(shape)  # type: ignore[arg-type]
    if not args.quiet:
        print(table(pairs, runs))
        print()
    print(report(pairs, runs, shape))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
