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
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

import xshard.jax as bridge
from xshard.context import xshard_context
from xshard.diagnostics import DiagnosticError, verify_located
from xshard.dialects.shard import GridOp, ShardingOp, ShardOp
from xshard.interfaces.annotations import result_annotation, sharding_of
from xshard.sharding.grid import Grid
from xshard.sharding.sharding import Sharding
from xshard.sharding.simulate import SimulationError, assemble, distribute
from xshard.transforms.export.convert_shard_to_stablehlo import Target
from xshard.transforms.partition.shard_partition import ArgumentMode, ShardPartitionPass
from xshard.transforms.propagation.sharding_propagation import Strategy, Traversal
from xshard.transforms.simplify.decompose_all_gather import Overlap
from xshard.transforms.spmd_pipeline import (
    LowerTcpIfPresentPass,
    SpmdPipelinePass,
    import_passes,
)

__all__ = [
    "Collective",
    "RunReport",
    "boundary_shardings",
    "count_collectives",
    "element_dtype",
    "entry_function",
    "partition_recording_boundary",
    "run_module",
    "strip_annotations",
]

COLLECTIVES = (
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "all_to_all",
    "collective_permute",
    "collective_broadcast",
)

# Relative tolerance per float type: summation order differs between the partitioned
# and the global program, and the error of a reordered sum scales with its terms, so
# the absolute tolerance is this times the largest expected magnitude.
_TOLERANCE = {"float16": 1e-2, "bfloat16": 5e-2, "float32": 1e-4, "float64": 1e-10}


@dataclass(frozen=True)
class Collective:
    """How often one kind of StableHLO collective runs on each device, and its traffic:
    the summed operand size, in bytes, on one device."""

    op: str
    count: int
    bytes: int


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


def entry_function(module: ModuleOp) -> func.FuncOp:
    """`@main`, else the module's only function: the one the converted module runs."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks]
    named = [fn for fn in functions if fn.sym_name.data == "main"]
    if named:
        return named[0]
    if len(functions) == 1:
        return functions[0]
    where = functions[1] if functions else None
    raise DiagnosticError(
        where,
        f"expected one function or a function named @main to run, found {len(functions)}",
    )


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


def boundary_shardings(fn: func.FuncOp) -> tuple[list[Sharding | None], list[Sharding | None]]:
    """The layouts `shard-partition` gives the boundary of `fn`: each argument's first
    result annotation and each returned annotation; `None` (none) is replicated."""
    args: list[Sharding | None] = []
    for arg in fn.body.block.args:
        shard = result_annotation(arg)
        args.append(None if shard is None else sharding_of(shard.sharding, shard))
    ret = fn.body.block.last_op
    assert ret is not None
    results: list[Sharding | None] = []
    for value in ret.operands:
        owner = value.owner
        results.append(sharding_of(owner.sharding, owner) if isinstance(owner, ShardOp) else None)
    return args, results


def partition_recording_boundary(
    phases: Sequence[ModulePass], ctx: Context, module: ModuleOp
) -> tuple[list[Sharding | None], list[Sharding | None]]:
    """Apply `phases` (the pipeline after import) to `module` and verify the result;
    with them, the layouts `shard-partition` gives the entry function's boundary,
    read just before it runs (the annotations go with it)."""
    layouts: tuple[list[Sharding | None], list[Sharding | None]] = ([], [])
    for phase in phases:
        if isinstance(phase, ShardPartitionPass):
            layouts = boundary_shardings(entry_function(module))
        phase.apply(ctx, module)
    verify_located(module)
    return layouts


def element_dtype(element: Attribute, where: Operation) -> np.dtype:
    """The numpy dtype of a tensor element type; `where` locates the refusal of others."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        unsigned = element.signedness.data == Signedness.UNSIGNED
        if width in (8, 16, 32, 64):
            return np.dtype(f"{'u' if unsigned else ''}int{width}")
    if isinstance(element, Float16Type | Float32Type | Float64Type):
        return np.dtype(f"float{element.bitwidth}")
    if isinstance(element, BFloat16Type):
        import ml_dtypes  # shipped with jax

        return np.dtype(ml_dtypes.bfloat16)
    raise DiagnosticError(where, f"cannot make random inputs of element type {element}")


def _static_tensor(type_: Attribute, where: Operation) -> TensorType[Any]:
    if not isinstance(type_, TensorType) or any(d < 0 for d in type_.get_shape()):
        raise DiagnosticError(where, f"expected statically shaped tensors, got {type_}")
    return type_


def random_inputs(fn: func.FuncOp, rng: np.random.Generator) -> list[np.ndarray]:
    """One global value per argument: floats standard normal, integers in [-4, 4]
    ([0, 8] unsigned), booleans fair coins."""
    values = []
    for type_ in fn.function_type.inputs:
        tensor = _static_tensor(type_, fn)
        shape, dtype = tensor.get_shape(), element_dtype(tensor.element_type, fn)
        if dtype == np.bool_:
            values.append(rng.integers(0, 2, size=shape).astype(dtype))
        elif dtype.kind in "iu":
            low = 0 if dtype.kind == "u" else -4
            values.append(rng.integers(low, low + 9, size=shape).astype(dtype))
        else:
            values.append(rng.standard_normal(shape).astype(dtype))
    return values


def _operand_bytes(op: Operation) -> int:
    total = 0
    for operand in op.operands:
        tensor = _static_tensor(operand.type, op)
        total += prod(tensor.get_shape()) * element_dtype(tensor.element_type, op).itemsize
    return total


def count_collectives(module: ModuleOp, fn: func.FuncOp | None = None) -> list[Collective]:
    """The StableHLO collectives `fn` (default: the entry function) executes on one
    device, in order of first appearance; a callee's count once per call."""
    counts: dict[str, list[int]] = {}

    def visit(body: func.FuncOp) -> None:
        for op in body.walk():
            if isinstance(op, func.CallOp):
                visit(_callee(module, op))
            elif op.name.removeprefix("stablehlo.") in COLLECTIVES:
                tally = counts.setdefault(op.name.removeprefix("stablehlo."), [0, 0])
                tally[0] += 1
                tally[1] += _operand_bytes(op)

    visit(fn or entry_function(module))
    return [Collective(name, n, b) for name, (n, b) in counts.items()]


def _callee(module: ModuleOp, call: func.CallOp) -> func.FuncOp:
    name = call.callee
    for op in module.ops:
        if isinstance(op, func.FuncOp) and SymbolRefAttr(op.sym_name) == name and op.body.blocks:
            return op
    raise DiagnosticError(call, f"the callee {name} has no body in this module")


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
    inputs: Sequence[np.ndarray] | None = None,
    ctx: Context | None = None,
) -> RunReport:
    """Run `module` (global, annotated; changed in place into the per-device program)
    on `devices` devices and on one, and compare. `inputs` are the global arguments
    (default: seeded random ones, `random_inputs`); `auto_sharding` and `memory_limit`
    as `xshard-spmd`'s.

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
    )
    phases = pipeline.passes()
    first = len(import_passes())
    for phase in phases[:first]:
        phase.apply(ctx, module)
    verify_located(module)
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


def _check_comparable(fn: func.FuncOp) -> None:
    """A run that would compare nothing is refused rather than reported as a match."""
    outputs = fn.function_type.outputs.data
    if not outputs:
        raise DiagnosticError(
            fn, "the function returns nothing, so there is nothing to compare with one device"
        )
    sizes = [prod(_static_tensor(t, fn).get_shape()) for t in outputs]
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
