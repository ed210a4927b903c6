"""`xshard-run FILE.mlir [--devices N]`: run a global annotated program end to end on N
devices (by default, its grid's), check it against the program on one device, and
report the collectives.

Exit 0 when the results match, 1 when they do not or the input is bad (a one-line
`file:line:col: error: message` on stderr, never a traceback), 2 on an internal error.
The work is `xshard.jax.run.run_module`; this module parses flags and the program,
sets up XLA's devices before jax is imported (their count is read once), and prints.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from math import prod
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError

from xshard.cli.internal_error import report_internal_error
from xshard.cli.source import printable, read_module
from xshard.context import xshard_context
from xshard.diagnostics import DiagnosticError, error_line
from xshard.dialects.shard import GridOp
from xshard.transforms.propagation.sharding_propagation import Strategy, Traversal
from xshard.transforms.spmd_pipeline import import_passes

if TYPE_CHECKING:
    from xshard.jax.run import RunReport

_PROG = "xshard-run"


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str):  # bad flags are bad input: exit 1, as for xshard-opt
        self.print_usage(sys.stderr)
        self.exit(1, f"{_PROG}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=_PROG,
        description="Run a global annotated .mlir program on N devices through the "
        "default pipeline (xshard-spmd) and compare it with the program on one device.",
    )
    p.add_argument("file", help="the global program (.mlir, with shard annotations)")
    p.add_argument(
        "--devices",
        type=int,
        help="device count, which must be the grid's (default: the grid's)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.add_argument("--target", choices=("cpu", "gpu"), default="cpu", help="default: cpu")
    p.add_argument(
        "--traversal",
        choices=get_args(Traversal),
        default="backward-forward",
        help="sharding-propagation's traversal (default: backward-forward)",
    )
    p.add_argument(
        "--arguments",
        choices=("partitioned", "global"),
        default="partitioned",
        help="shard-partition's argument mode (default: partitioned)",
    )
    p.add_argument(
        "--no-simplify",
        dest="simplify",
        action="store_false",
        help="skip shard-simplify (xshard-spmd{simplify=false}), to see what it saves",
    )
    p.add_argument(
        "--strategy",
        choices=get_args(Strategy),
        default="aggressive",
        help="sharding-propagation's strategy (default: aggressive)",
    )
    p.add_argument(
        "--no-propagation",
        dest="propagate",
        action="store_false",
        help="skip sharding-propagation (xshard-spmd{propagate=false}): partition only "
        "what the program annotates",
    )
    p.add_argument(
        "--overlap",
        choices=("none", "broadcast", "ring", "auto"),
        default="none",
        help="split an all_gather feeding a matmul into overlapped steps "
        "(xshard-spmd{overlap=...}, shard-decompose-all-gather; default: none)",
    )
    p.add_argument(
        "--auto-sharding",
        action="store_true",
        help="choose every layout with auto-sharding instead of propagating "
        "(xshard-spmd{auto-sharding=true})",
    )
    p.add_argument(
        "--memory-limit",
        type=int,
        metavar="BYTES",
        help="auto-sharding's memory limit per device (default: none)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="seconds each auto-sharding solve may take (default: none, solved exactly)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--emit-stablehlo",
        metavar="FILE",
        type=Path,
        help="also write the per-device StableHLO that XLA runs to FILE",
    )
    return p


def _use_devices(target: str, devices: int) -> None:
    """XLA reads its flags once, when jax starts its CPU client: ask for N simulated
    CPU devices before anything imports jax."""
    if target != "cpu":
        return
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    flags = os.environ.get("XLA_FLAGS", "")
    if "--xla_force_host_platform_device_count" not in flags:
        os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={devices}"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # XLA's warnings are not ours


def _table(report: RunReport) -> str:
    lines = [
        f"devices: {report.devices}   match: {'yes' if report.match else 'NO'}   "
        f"max |error|: {report.max_abs_error:.3g}",
        f"{'collective':<22}{'count':>7}{'bytes (one device)':>20}",
    ]
    for c in report.collectives:
        lines.append(f"{c.op:<22}{c.count:>7}{c.bytes:>20}")
    total = sum(c.count for c in report.collectives)
    lines.append(f"{'total':<22}{total:>7}{report.total_collective_bytes:>20}")
    return "\n".join(lines)


def _grid_devices(module: ModuleOp, ctx: Context) -> int:
    """The device count of the program's grids, after the import phase (which makes
    JAX's meshes grids); 1 where there is none, which `run_module` then refuses."""
    imported = module.clone()
    for phase in import_passes():
        phase.apply(ctx, imported)
    counts: dict[str, int] = {}
    for op in imported.ops:
        if not isinstance(op, GridOp) or None in op.shape_tuple():
            continue  # a dynamic grid: run_module asks for a static one
        name, count = op.sym_name.data, prod(d for d in op.shape_tuple() if d is not None)
        for other, devices in counts.items():
            if devices != count:
                raise DiagnosticError(
                    op,
                    f"grid @{name} has {count} devices but grid @{other} has {devices}: "
                    "a run has one device count",
                )
        counts[name] = count
    return next(iter(counts.values()), 1)


def _run(args: argparse.Namespace) -> int:
    try:
        data = Path(args.file).read_bytes()
    except OSError as err:
        return _error(f"cannot open input file '{args.file}': {err.strerror}")
    ctx = xshard_context()
    try:
        module = read_module(ctx, data, args.file)
        devices = args.devices or _grid_devices(module, ctx)
    except (ParseError, DiagnosticError) as err:
        return _error(printable(error_line(err, args.file)), prefix=False)
    _use_devices(args.target, devices)
    return _execute(args, ctx, module, devices)


def _execute(args: argparse.Namespace, ctx: Context, module: ModuleOp, devices: int) -> int:
    # imported here, after `_use_devices`: `xshard.jax`'s names load jax
    from xshard.jax import BridgeError, module_text
    from xshard.jax.run import run_module

    try:
        report = run_module(
            module,
            devices,
            seed=args.seed,
            target=args.target,
            traversal=args.traversal,
            arguments=args.arguments,
            simplify=args.simplify,
            propagate=args.propagate,
            strategy=args.strategy,
            overlap=args.overlap,
            auto_sharding=args.auto_sharding,
            memory_limit=args.memory_limit,
            time_limit=args.time_limit,
            ctx=ctx,
        )
    except (ParseError, DiagnosticError) as err:
        return _error(printable(error_line(err, args.file)), prefix=False)
    except BridgeError as err:
        return _error(str(err).splitlines()[0])
    if args.emit_stablehlo:
        args.emit_stablehlo.write_text(module_text(report.stablehlo) + "\n")
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(_table(report))
        if args.emit_stablehlo:
            print(f"per-device StableHLO written to {args.emit_stablehlo}")
    return 0 if report.match else 1


def _error(message: str, prefix: bool = True) -> int:
    print(f"{_PROG}: error: {message}" if prefix else message, file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if args.devices is not None and args.devices < 1:
        _parser().error(f"--devices must be at least 1, got {args.devices}")
    try:
        code = _run(args)
    except Exception as err:  # a bug in xshard, not bad input: say so in one line
        code = report_internal_error(_PROG, err)
    sys.exit(code)


if __name__ == "__main__":
    main()
