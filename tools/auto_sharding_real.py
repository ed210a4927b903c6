"""`auto_sharding_benchmark.py --real`: real programs through `xshard.jit` with
auto-sharding, given only their batch shardings, beside their hand-written plans.
Kept apart because it loads jax."""

from __future__ import annotations

import contextlib
import difflib
import gc
import io
import math
import re
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import jax
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

import xshard
from xshard.context import xshard_context
from xshard.diagnostics import BAD_INPUT, LocatingParser, error_line
from xshard.dialects.shard import ShardingOp, ShardOp
from xshard.interfaces.annotations import base_value, result_annotation, sharding_of
from xshard.interfaces.sharding_interface import is_tensor
from xshard.interfaces.sharding_option import operand_layout, result_sharding
from xshard.jax import BridgeError
from xshard.jax.hlo_collectives import hlo_rows, priced_seconds
from xshard.jax.memory import Memory
from xshard.sharding.cost_model import CostModel
from xshard.sharding.sharding import Sharding
from xshard.testing.jax_programs import LAYERED_PROGRAMS, PROGRAMS, JaxProgram, mesh_2x4
from xshard.testing.jit_comparison import DEVICES, max_error
from xshard.transforms.analysis.comm_report import collective_rows
from xshard.transforms.propagation.auto.auto_sharding import (
    AutoShardingPass,
    _Planner,
    _Var,
    function_grid,
)
from xshard.transforms.propagation.auto.ilp import plan_cost
from xshard.transforms.spmd_pipeline import SpmdPipelinePass, entry_function, import_passes

FRACTIONS = (None, 2, 4, 8)
"""No limit, then 1/2, 1/4 and 1/8 of what full replication needs."""
CALLS = 20
_REPORT = re.compile(
    r"cost (\S+) s, (\d+) bytes per device, (\d+) decisions .*\((\d+) once repeats are tied\), "
    r"solved in (\S+) s(?: \(time limit: within (\S+) of optimal\))?"
    r"(?:, under memory-limit=(\d+))?$",
    re.MULTILINE,
)


def _memory(compiled: Any) -> int:
    return Memory.of(compiled).total


def _program(name: str, mesh: Mesh) -> JaxProgram:
    return {**PROGRAMS, **LAYERED_PROGRAMS}[name](mesh)


def _replicated_memory(program: JaxProgram, mesh: Mesh) -> int:
    """XLA's memory for `jax.jit` of the program with every argument replicated: what
    the limits are fractions of."""
    everywhere = jax.tree.map(lambda _: NamedSharding(mesh, P()), program.args)
    return _memory(jax.jit(program.fn, in_shardings=everywhere).lower(*program.args).compile())


def _auto(program: JaxProgram, limit: int | None, time_limit: float | None) -> Any:
    """`xshard.jit` of the program given only its batch, auto-sharded under `limit`,
    reporting each plan it makes (`_lower_reported`)."""
    return xshard.jit(
        program.fn,
        in_shardings=program.batch_only(),
        auto_sharding=True,
        memory_limit=limit,
        time_limit=time_limit,
        report=True,
    )


def _lower_reported(jitted: Any, program: JaxProgram) -> tuple[Any, float, re.Match[str]]:
    """`_lower` of an `_auto` program, and auto-sharding's report of the plan it made:
    of the plans `xshard.jit` made to hold the limit, the last one asked for the
    memory-limit the program was made with (the others' reports go to stderr)."""
    reports = io.StringIO()
    with contextlib.redirect_stderr(reports):
        lowered, seconds = _lower(jitted, program)
    asked = lowered.options.get("memory_limit")
    found = None
    for line in reports.getvalue().splitlines():
        report = _REPORT.search(line)
        if report is not None and report.group(7) == (None if asked is None else str(asked)):
            found = report
        else:
            print(line, file=sys.stderr)
    if found is None:  # (no mesh: no plan; or a plan from XSHARD_CACHE_DIR, not made now)
        raise BridgeError("auto-sharding reported no plan for the program")
    return lowered, seconds, found


def _hand(program: JaxProgram) -> Any:
    """`xshard.jit` of the program's hand-written plan."""
    return xshard.jit(
        program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings
    )


def _step_ms(compiled: Any, args: Sequence[Any]) -> float:
    jax.block_until_ready(compiled(*args))
    times = []
    for _ in range(CALLS):
        start = time.perf_counter()
        jax.block_until_ready(compiled(*args))
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def _hand_model(program: JaxProgram) -> str:
    """The ILP's report pricing the hand plan: the program's own shardings, propagated
    as `xshard.jit` propagates them, so that every value's layout is fixed and the ILP
    picks only each op's cheapest option between them."""
    ctx, module = _imported(program.jitted(), program, True)
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        AutoShardingPass(report=True).apply(ctx, module)
    return out.getvalue()


def _imported(jitted: Any, program: JaxProgram, layout: bool) -> tuple[Context, ModuleOp]:
    """`jitted`'s program as `xshard.jit` imports it, and with `layout` as it propagates
    the layouts given."""
    ctx = xshard_context()
    module = LocatingParser(ctx, jitted.lower(*program.args).as_text(), program.name).parse_module()
    for phase in (*import_passes(), *(SpmdPipelinePass().layout_passes() if layout else ())):
        phase.apply(ctx, module)
    return ctx, module


def _lower(jitted: Any, program: JaxProgram) -> tuple[Any, float]:
    """`jitted.lower` on the program's arguments, and the seconds it took."""
    start = time.perf_counter()
    lowered = jitted.lower(*program.args)
    return lowered, time.perf_counter() - start


def _measure(lowered: Any, seconds: float, program: JaxProgram, want: Any) -> dict[str, str]:
    """Compile `lowered` (`jax.jit`'s or `xshard.jit`'s), run, and measure: the columns
    after the model's."""
    compiled = lowered.compile()
    # the collectives as XLA runs them (after its combiners), each time it runs one
    rows = hlo_rows(compiled.as_text(), DEVICES, executed=True)
    comm = priced_seconds(rows)  # priced by auto-sharding's model
    ring = "-"
    if hasattr(lowered, "module"):  # xshard.jit's: its per-device program's ring model
        ring = f"{sum(r.cost for r in collective_rows(entry_function(lowered.module))):.0f}"
    return {
        "comm (s)": f"{comm:.3e}",
        "collectives": f"{len(rows)}",
        "bytes": f"{sum(r.bytes for r in rows)}",
        "ring bytes": ring,
        "XLA memory (B)": f"{_memory(compiled)}",
        "step (ms)": f"{_step_ms(compiled, program.args):.2f}",
        "max error": f"{max_error(compiled(*program.args), want):.1e}",
        "lower (s)": f"{seconds:.1f}",
    }


HEADER = (
    "program", "plan", "limit (B)", "asked (B)", "modeled (s)", "predicted (B)", "solve (s)",
    "decisions", "comm (s)", "collectives", "bytes", "ring bytes", "XLA memory (B)",
    "step (ms)", "max error", "lower (s)",
)  # fmt: skip


def _print(row: dict[str, str]) -> None:
    print("| " + " | ".join(row.get(h, "-") for h in HEADER) + " |", flush=True)


def real_rows(
    names: Sequence[str],
    fractions: Sequence[int | None] = FRACTIONS,
    time_limit: float | None = None,
) -> None:
    """The table's rows; with `time_limit`, each solve gives its best plan by then. An
    auto row's model figures are the report of the plan it runs."""
    mesh = mesh_2x4()
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for name in names:
        program = _program(name, mesh)
        want = program.jitted()(*program.args)
        replicated = _replicated_memory(program, mesh)
        _print({"program": name, "plan": "replicated, jax.jit", "XLA memory (B)": f"{replicated}"})
        hand = _hand(program)
        priced = _REPORT.search(_hand_model(program))
        assert priced is not None
        modeled = {"modeled (s)": priced.group(1), "predicted (B)": priced.group(2)}
        for plan, jitted in (("hand, jax.jit", program.jitted()), ("hand, xshard.jit", hand)):
            measured = _measure(*_lower(jitted, program), program, want)
            _print({"program": name, "plan": plan, **modeled, **measured})
        for fraction in fractions:
            limit = None if fraction is None else replicated // fraction
            row = {
                "program": name,
                "plan": "auto" if limit is None else f"auto, 1/{fraction}",
                "limit (B)": f"{limit or '-'}",
            }
            try:
                lowered, lower_seconds, found = _lower_reported(
                    _auto(program, limit, time_limit), program
                )
                asked = lowered.options.get("memory_limit")
                cost, peak, decisions, tied, seconds, gap = found.groups()[:6]
                row |= {
                    "asked (B)": f"{asked or '-'}",
                    "modeled (s)": cost,
                    "predicted (B)": peak,
                    "decisions": f"{decisions} -> {tied}",
                    "solve (s)": seconds + (f" (gap {gap})" if gap else ""),
                }
                row |= _measure(lowered, lower_seconds, program, want)
            except BAD_INPUT as err:
                row["modeled (s)"] = f"no plan: {error_line(err, name)}"
            except BridgeError as err:
                row["modeled (s)"] = f"no plan: {str(err).splitlines()[-1]}"
            _print(row)


def plan_table(name: str, fraction: int | None, time_limit: float | None = None) -> None:
    """The layouts auto-sharding chooses for `name`'s arguments given only the batch,
    under 1/`fraction` of what replication needs: a markdown table of each argument's
    path, chosen `PartitionSpec` and bytes per device."""
    mesh = mesh_2x4()
    program = _program(name, mesh)
    replicated = _replicated_memory(program, mesh)
    limit = None if fraction is None else replicated // fraction
    lowered = _auto(program, limit, time_limit).lower(*program.args)
    asked = lowered.options.get("memory_limit")
    print(
        f"{name}, given only the batch, memory-limit={limit} (1/{fraction or 1} of "
        f"{replicated}); the plan auto-sharding made when asked for {asked}, XLA's memory "
        f"{_memory(lowered.compile())}"
    )
    print()
    print("| argument | shape | chosen PartitionSpec | bytes per device |")
    print("|---|---|---|---|")
    total = 0
    for path, aval, sharding in zip(
        lowered.in_paths, lowered.in_avals, lowered.in_shardings, strict=True
    ):
        size = math.prod(sharding.shard_shape(aval.shape)) * aval.dtype.itemsize
        total += size
        shape = "x".join(map(str, aval.shape)) or "scalar"
        print(f"| `{path}` | {shape} | `{sharding.spec}` | {size} |")
    print(f"| all arguments | | | {total} |")


def _pairs(a: func.FuncOp, b: func.FuncOp) -> dict[Operation, Operation]:
    """The ops of `a` matched to those of `b` (the same program, `b` propagated: the
    layouts add annotations and may rewrite a few ops), by their names in order."""
    ours, theirs = (
        [o for o in f.walk() if not isinstance(o, ShardOp | ShardingOp)] for f in (a, b)
    )
    match = difflib.SequenceMatcher(
        None, [o.name for o in ours], [o.name for o in theirs], autojunk=False
    )
    return {
        ours[m.a + k]: theirs[m.b + k] for m in match.get_matching_blocks() for k in range(m.size)
    }


def hand_in_auto(name: str, fraction: int | None) -> None:
    """The hand plan priced in the problem auto-sharding solves given only the batch:
    each decision takes the strategy that agrees most with the hand plan as `xshard.jit`
    propagates it (its results' and operands' layouts), and the plan's modeled seconds
    and peak bytes per device are printed beside the hand program's own price (where
    every layout is fixed) and the limit. Where the two prices differ, the batch-only
    problem cannot state the hand plan, or states it dearer: a bound on how close any
    auto plan can come to it."""
    mesh = mesh_2x4()
    program = _program(name, mesh)
    limit = None if fraction is None else _replicated_memory(program, mesh) // fraction
    planner, choice = hand_choice(program, limit)
    priced = _REPORT.search(_hand_model(program))
    assert priced is not None
    print(f"{name}, memory-limit={limit} (1/{fraction or 1} of replication)")
    print()
    print("| the hand plan, priced in | modeled (s) | predicted (B) |")
    print("|---|---|---|")
    print(f"| its own program (every layout fixed) | {priced.group(1)} | {priced.group(2)} |")
    cost = plan_cost(planner.problem, choice) + planner.fixed_cost
    print(f"| the batch-only program | {cost:.3e} | {planner.problem.peak(choice)} |")


def hand_choice(program: JaxProgram, limit: int | None) -> tuple[_Planner, list[int]]:
    """The problem auto-sharding solves for `program` given only its batch, built, and
    the hand plan in it (`hand_in_auto`)."""
    batch_only = jax.jit(program.fn, in_shardings=program.batch_only())
    auto_fn = entry_function(_imported(batch_only, program, False)[1])
    hand_fn = entry_function(_imported(program.jitted(), program, True)[1])
    grid = function_grid(auto_fn)
    assert grid is not None
    ops = _pairs(auto_fn, hand_fn)
    values = {
        x: y
        for a, b in [(auto_fn, hand_fn), *ops.items()]
        for x, y in [
            *zip(a.results, b.results, strict=False),
            *(
                pair
                for ra, rb in zip(a.regions, b.regions, strict=False)
                for ba, bb in zip(ra.blocks, rb.blocks, strict=False)
                for pair in zip(ba.args, bb.args, strict=False)
            ),
        ]
    }

    def held(v: SSAValue) -> Sharding | None:
        given = result_annotation(v)
        return None if given is None else sharding_of(given.sharding, given)

    def read(op: Operation, i: int) -> Sharding | None:
        v = op.operands[i]
        return sharding_of(v.owner.sharding, v.owner) if isinstance(v.owner, ShardOp) else held(v)

    planner = _Planner(auto_fn, grid, limit, CostModel())
    planner.build()
    agree = [[0] * len(costs) for costs in planner.problem.linear]
    for v, source in planner.sources.items():
        base = base_value(v)
        if isinstance(source, _Var) and base in values:
            for a, layout in enumerate(source.layouts):
                agree[source.group][a] += 3 * (layout == held(values[base]))
    for op, (group, options, rule) in planner.options.items():
        if (theirs := ops.get(op)) is None:
            continue
        for a, option in enumerate(options):
            agree[group][a] += sum(
                2 * (result_sharding(rule, option, j) == held(values[r]))
                for j, r in enumerate(op.results)
                if is_tensor(r)
            ) + sum(
                operand_layout(rule, option, i, v) == read(theirs, i)
                for i, v in enumerate(op.operands)
                if is_tensor(v)
            )
    choice: list[int] = []
    for g, row in enumerate(agree):  # the most agreeing strategy no pair forbids
        pairs = [(m.T, choice[f]) for (f, h), m in planner.problem.pairs.items() if h == g]
        ok = [a for a in range(len(row)) if all(math.isfinite(m[a, b]) for m, b in pairs)]
        choice.append(max(ok or range(len(row)), key=lambda a: (row[a], -a)))
    return planner, choice


def interleaved(name: str, fraction: int | None, rounds: int, time_limit: float | None) -> None:
    """The auto plan's step time against the hand plan's, through `xshard.jit` and
    `jax.jit`, measured interleaved: each round calls every plan once, in an order that
    rotates from round to round, so that drift in the shared cores (other work, clock
    changes) falls on all of them alike. Prints each plan's median step, and, for the
    auto plan against each hand plan, the median of the per-round differences with its
    95% confidence interval (the sign test's order statistics) and the share of rounds
    the auto plan was the faster: a difference whose interval excludes 0 is measured,
    not noise. Each plan's largest difference from `jax.jit`'s numbers comes first."""
    mesh = mesh_2x4()
    program = _program(name, mesh)
    limit = None if fraction is None else _replicated_memory(program, mesh) // fraction
    jitted = {
        f"auto, 1/{fraction or 1}": _auto(program, limit, time_limit),
        "hand, xshard.jit": _hand(program),
        "hand, jax.jit": program.jitted(),
    }
    plans = {n: j.lower(*program.args).compile() for n, j in jitted.items()}
    names = list(plans)
    want = program.jitted()(*program.args)
    errors = {n: max_error(compiled(*program.args), want) for n, compiled in plans.items()}
    for compiled in plans.values():  # warm: first calls allocate
        for _ in range(3):
            jax.block_until_ready(compiled(*program.args))
    times: dict[str, list[float]] = {n: [] for n in names}
    gc.disable()
    try:
        for r in range(rounds):
            for n in names[r % len(names) :] + names[: r % len(names)]:
                start = time.perf_counter()
                jax.block_until_ready(plans[n](*program.args))
                times[n].append(time.perf_counter() - start)
    finally:
        gc.enable()
    print(f"{name}, limit {limit or 'none'}, {rounds} interleaved rounds")
    print()
    print(
        "| plan | max error | median step (ms) | auto - plan, median (µs) "
        "| 95% interval (µs) | auto faster |"
    )
    print("|---|---|---|---|---|---|")
    mine = times[names[0]]
    for n in names:
        row = f"| {n} | {errors[n]:.1e} | {1e3 * statistics.median(times[n]):.3f} |"
        if n == names[0]:
            print(row + " - | - | - |")
            continue
        diffs = sorted(1e6 * (a - b) for a, b in zip(mine, times[n], strict=True))
        k = max(0, int(len(diffs) / 2 - 1.96 * math.sqrt(len(diffs)) / 2))
        faster = sum(d < 0 for d in diffs) / len(diffs)
        print(
            f"{row} {statistics.median(diffs):+.1f} | [{diffs[k]:+.1f}, {diffs[-k - 1]:+.1f}] "
            f"| {faster:.0%} |"
        )
