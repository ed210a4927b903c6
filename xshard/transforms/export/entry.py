"""The entry function: the one XLA runs, which the export names `main`."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from xshard.diagnostics import DiagnosticError


def find_entry(module: ModuleOp) -> func.FuncOp | None:
    """`@main`, else the module's only function with a body (when no declaration
    takes the name `main`)."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    named = [fn for fn in functions if fn.sym_name.data == "main"]
    if named:
        return named[0] if named[0].body.blocks else None
    defined = [fn for fn in functions if fn.body.blocks]
    return defined[0] if len(defined) == 1 else None


def entry_function(module: ModuleOp) -> func.FuncOp:
    """`find_entry`, refused at the module's second function when there is none."""
    entry = find_entry(module)
    if entry is not None:
        return entry
    functions = [op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks]
    where = functions[1] if len(functions) > 1 else None
    raise DiagnosticError(
        where,
        f"expected one function or a function named @main to run, found {len(functions)}",
    )
