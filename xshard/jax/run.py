"""Run a global annotated program end to end on N devices and check it against one device.

The program (StableHLO, or TCP, which the pipeline lowers after partition) goes through
the default pipeline (`xshard-spmd`); each device gets its block of seeded random
global inputs under the entry function's argument shardings (`simulate.distribute`);
XLA runs the per-device program on N devices and the same program with its
annotations stripped on one; the per-device results are put back together under the
result shardings (`simulate.assemble`, which sums partial results) and compared. The
report also counts the collectives each device executes, read from the StableHLO that
XLA was handed, so tests can hold a pipeline to the analytic minimum.

jax is imported on the first run, not by importing this module: a command-line driver
must set `XLA_FLAGS` (the simulated CPU device count) first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    StringAttr,
    TensorType,
)

import xshard.jax as bridge
from xshard.context import xshard_context
from xshard.diagnostics import DiagnosticError, verify_located
from xshard.dialects import sdy
from xshard.dialects.shard import GridOp, ShardingOp, ShardOp
from xshard.interfaces.models.stablehlo_custom_call import is_host_callback
from xshard.sharding.arrays import element_dtype, random_inputs, static_tensor
from xshard.sharding.grid import Grid
from xshard.sharding.sharding import Sharding
from xshard.sharding.simulate import SimulationError, assemble, distribute
from xshard.transforms.analysis.collective_count import Collective, count_collectives
from xshard.transforms.export.convert_shard_to_stablehlo import Target
from xshard.transforms.export.entry import entry_function
from xshard.transforms.partition.shard_partition import ArgumentMode
from xshard.transforms.propagation.sharding_propagation import Strategy, Traversal
from xshard.transforms.simplify.decompose_all_gather import Overlap
from xshard.transforms.spmd_pipeline import (
    LowerTcpIfPresentPass,
    SpmdPipelinePass,
    import_passes,
    partition_recording_boundary,
)

# Relative tolerance per float type: summation order differs between the partitioned
# and the global program, and the error of a reordered sum scales with its terms, so
# the absolute tolerance is this times the largest expected magnitude.
_TOLERANCE = {"float16": 1e-2, "bfloat16": 5e-2, "float32": 1e-4, "float64": 1e-10}


@dataclass
class RunReport:
    match: bool
    max_abs_error: float
    """Over all results; infinite when devices that should hold the same block disagree."""
    devices: int
    collectives: list[Collective]
    stablehlo: ModuleOp
    """The per-device program XLA ran."""
    results: list[np.ndarray | None] = field(default_factory=list, repr=False)
    """Each global result put back together from the devices' blocks (None where
    they could not be: blocks of the wrong shape, replicas that disagree)."""

    @property
    def total_collective_bytes(self) -> int:
        return sum(c.bytes for c in self.collectives)

    def count(self, op: str) -> int:
        return sum(c.count for c in self.collectives if c.op == op)

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "max_abs_error": self.max_abs_error,
            "devices": self.devices,
            "collectives": [
                {"op": c.op, "count": c.count, "bytes": c.bytes} for c in self.collectives
            ],
            "total_collective_bytes": self.total_collective_bytes,
        }


def strip_annotations(module: ModuleOp) -> ModuleOp:
    """The unpartitioned program, in place: each annotation replaced by what it annotates,
    grids and shardings gone, the entry function named `main` (the name XLA runs)."""
    entry = entry_function(module)
    for op in list(module.walk(reverse=True)):
        if isinstance(op, ShardOp):
            op.result.replace_all_uses_with(op.src)
            op.detach()
            op.erase()  # drops its operand uses, which later rewrites would find
    for op in list(module.walk()):
        if isinstance(op, ShardingOp | GridOp):
            op.detach()
            op.erase()
    entry.sym_name = StringAttr("main")
    return module


def _grids(module: ModuleOp, devices: int) -> dict[str, Grid]:
    grids = {g.sym_name.data: g for g in module.ops if isinstance(g, GridOp)}
    if not grids:
        raise DiagnosticError(
            entry_function(module),
            "the module declares no shard.grid, so there are no devices to run on",
        )
    for name, op in grids.items():
        shape = op.shape_tuple()
        if None in shape:
            raise DiagnosticError(op, f"grid @{name} has a dynamic shape; it needs a static one")
        if prod(shape) != devices:
            raise DiagnosticError(
                op, f"grid @{name} has {prod(shape)} devices but the run asks for {devices}"
            )
    return {name: Grid(name, op.shape_tuple()) for name, op in grids.items()}


def _computed_tolerance(module: ModuleOp) -> float:
    """The loosest tolerance of the float types the program computes in: an f64 result
    of f32 arithmetic carries f32's rounding."""
    tolerances = [0.0]
    for op in module.walk():
        for t in op.result_types:
            element = t.element_type if isinstance(t, TensorType) else t
            if isinstance(element, Float16Type | Float32Type | Float64Type | BFloat16Type):
                tolerances.append(_TOLERANCE[element_dtype(element, op).name])
    return max(tolerances)


def _compare(got: np.ndarray, expected: np.ndarray, computed: float) -> tuple[bool, float]:
    """Whether `got` matches, and the largest absolute difference (0 where both are
    the same infinity or both NaN). Float results get the looser of their own type's
    tolerance and `computed`, the program's."""
    a, b = got.astype(np.float64), expected.astype(np.float64)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    error = np.where(same, 0.0, np.abs(a - b))
    worst = float(error.max(initial=0.0))
    rtol = _TOLERANCE.get(expected.dtype.name)
    if rtol is None:  # integers and booleans: exact
        return bool(same.all()) and got.shape == expected.shape, worst
    rtol = max(rtol, computed)
    scale = max(1.0, float(np.abs(np.where(np.isfinite(b), b, 0.0)).max(initial=0.0)))
    return bool(np.all(same | (error <= rtol * scale))) and got.shape == expected.shape, worst


def run_module(
    module: ModuleOp,
    devices: int,
    *,
    seed: int = 0,
    target: Target = "cpu",
    traversal: Traversal = "backward-forward",
    arguments: ArgumentMode = "partitioned",
    simplify: bool = True,
    propagate: bool = True,
    strategy: Strategy = "aggressive",
    overlap: Overlap = "none",
    auto_sharding: bool = False,
    memory_limit: int | None = None,
    time_limit: float | None = None,
    inputs: Sequence[np.ndarray] | None = None,
    ctx: Context | None = None,
) -> RunReport:
    """Run `module` (global, annotated; changed in place into the per-device program)
    on `devices` devices and on one, and compare. `inputs` are the global arguments
    (default: seeded random ones, `random_inputs`); `auto_sharding`, `memory_limit` and
    `time_limit` as `xshard-spmd`'s.

    Bad input raises `DiagnosticError` (located) and XLA failures `BridgeError`.
    """
    ctx = ctx or xshard_context()
    verify_located(module)
    pipeline = SpmdPipelinePass(
        target=target,
        traversal=traversal,
        arguments=arguments,
        simplify=simplify,
        propagate=propagate,
        strategy=strategy,
        overlap=overlap,
        auto_sharding=auto_sharding,
        memory_limit=memory_limit,
        time_limit=time_limit,
    )
    phases = pipeline.passes()
    first = len(import_passes())
    for phase in phases[:first]:
        phase.apply(ctx, module)
    verify_located(module)
    _check_global(module)
    grids = _grids(module, devices)
    reference = strip_annotations(module.clone())
    LowerTcpIfPresentPass().apply(ctx, reference)
    entry = entry_function(module)
    _check_comparable(entry)
    if inputs is None:
        inputs = random_inputs(entry, np.random.default_rng(seed))

    arg_shardings, result_shardings = partition_recording_boundary(phases[first:], ctx, module)

    rng = np.random.default_rng(seed + 1)
    per_device_args = [
        _per_device(value, sharding, grids, devices, rng, arguments)
        for value, sharding in zip(inputs, arg_shardings, strict=True)
    ]
    outs = bridge.run_spmd(module, per_device_args, devices, platform=target)
    expected = bridge.run_global(reference, inputs, platform=target)

    computed = _computed_tolerance(reference)
    match, worst = True, 0.0
    results: list[np.ndarray | None] = []
    for per_device, sharding, want in zip(outs, result_shardings, expected, strict=True):
        try:
            got = _assemble(per_device, sharding, grids, want.shape)
        except SimulationError:  # replicas that disagree, or blocks of the wrong shape
            match, worst = False, float("inf")
            results.append(None)
            continue
        results.append(got)
        ok, error = _compare(got, want, computed)
        match, worst = match and ok, max(worst, error)
    return RunReport(match, worst, devices, count_collectives(module), module, results)


def _check_global(module: ModuleOp) -> None:
    """A shard_map body is per-device code: the program has no one-device form to compare
    with, so it is refused rather than compared with something else. A host callback
    names a Python function by its index in the lowering process's list, which XLA
    would call through a dangling pointer: refused rather than run."""
    for op in module.walk():
        if isinstance(op, sdy.ManualComputationOp):
            raise DiagnosticError(
                op,
                f"'{op.name}' (a shard_map body) is per-device code, so the program has no "
                "one-device reference to compare with; run it with xshard.jit, which is "
                "compared with jax.jit, or xshard-opt -p xshard-spmd",
            )
        if is_host_callback(op):
            raise DiagnosticError(
                op,
                "a host callback calls a Python function of the process that lowered the "
                "program, which a run from text cannot call; run the function with "
                "xshard.jit, or partition it with xshard-opt -p xshard-spmd",
            )


def _check_comparable(fn: func.FuncOp) -> None:
    """A run that would compare nothing is refused rather than reported as a match."""
    outputs = fn.function_type.outputs.data
    if not outputs:
        raise DiagnosticError(
            fn, "the function returns nothing, so there is nothing to compare with one device"
        )
    sizes = [prod(static_tensor(t, fn).get_shape()) for t in outputs]
    if not any(sizes):
        raise DiagnosticError(
            fn, "every result of the function is empty, so there is nothing to compare"
        )


def _per_device(
    value: np.ndarray,
    sharding: Sharding | None,
    grids: dict[str, Grid],
    devices: int,
    rng: np.random.Generator,
    arguments: ArgumentMode,
) -> list[np.ndarray]:
    if sharding is None or arguments == "global":
        return [value] * devices
    grid = grids[sharding.grid]
    blocks = distribute(value, sharding, grid, rng)
    return [blocks[d] for d in grid.devices()]


def _assemble(
    per_device: Sequence[np.ndarray],
    sharding: Sharding | None,
    grids: dict[str, Grid],
    shape: Sequence[int],
) -> np.ndarray:
    grid = next(iter(grids.values())) if sharding is None else grids[sharding.grid]
    sharding = sharding or Sharding.replicated(grid)
    return assemble(dict(zip(grid.devices(), per_device, strict=True)), sharding, grid, shape)
