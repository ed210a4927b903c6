"""How often each StableHLO collective runs on one device, and the bytes it sends:
what `xshard-run` and `xshard.jit` report of the program XLA was handed."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation

from xshard.diagnostics import DiagnosticError
from xshard.sharding.arrays import element_dtype, static_tensor
from xshard.transforms.export.entry import entry_function

COLLECTIVES = (
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "all_to_all",
    "collective_permute",
    "collective_broadcast",
)


@dataclass(frozen=True)
class Collective:
    """How often one kind of StableHLO collective runs on each device, and its traffic:
    the summed operand size, in bytes, on one device."""

    op: str
    count: int
    bytes: int


def _operand_bytes(op: Operation) -> int:
    total = 0
    for operand in op.operands:
        tensor = static_tensor(operand.type, op)
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
