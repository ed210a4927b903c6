"""`inline`: every `func.call` of a function defined in the module, replaced by the
callee's body; then the private functions nobody calls any more are erased.

JAX lowers `jnp.where`, `jnp.take_along_axis`, `jnp.tril` and other helpers to private
functions (`func.call @_where(...)`); sharding works on one function at a time, so
they must vanish before propagation. Upstream MLIR's pass of the same name inlines
whatever its interfaces allow; here a call is inlined when its callee has one block
and does not, through other calls, reach itself (those calls stay, and the pipeline
later names them as ops without a sharding model). Inlined ops keep their locations.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass


def _functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}


def _callees(fn: func.FuncOp) -> set[str]:
    return {op.callee.root_reference.data for op in fn.walk() if isinstance(op, func.CallOp)}


def _recursive(functions: dict[str, func.FuncOp]) -> set[str]:
    """The functions that reach themselves through calls."""
    calls = {name: _callees(fn) for name, fn in functions.items()}
    found = set()
    for start in functions:
        seen, stack = set(), list(calls[start])
        while stack:
            name = stack.pop()
            if name == start:
                found.add(start)
                break
            if name in seen or name not in calls:
                continue
            seen.add(name)
            stack.extend(calls[name])
    return found


def _inline(call: func.CallOp, callee: func.FuncOp) -> None:
    body = callee.body.clone()
    block = body.block
    for arg, value in zip(block.args, call.arguments, strict=True):
        arg.name_hint = None  # the caller's value keeps its own name
        arg.replace_all_uses_with(value)
    ret = block.last_op
    assert ret is not None
    for op in list(block.ops):
        if op is ret:
            continue
        op.detach()
        call.parent_block().insert_op_before(op, call)  # type: ignore[union-attr]
    for result, value in zip(call.results, ret.operands, strict=True):
        result.replace_all_uses_with(value)
    ret.detach()
    ret.erase()  # its reads of the inlined values go with it
    call.detach()
    call.erase()


def _referenced(module: ModuleOp) -> set[str]:
    """Symbols named by any attribute of any op (a call's callee, among others)."""
    names = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, SymbolRefAttr):
                names.add(attr.root_reference.data)
    return names


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """Inline calls to the module's functions."""

    name = "inline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = _functions(op)
        recursive = _recursive(functions)

        def inlinable(call: Operation) -> func.FuncOp | None:
            if not isinstance(call, func.CallOp):
                return None
            callee = functions.get(call.callee.root_reference.data)
            if callee is None or callee.sym_name.data in recursive:
                return None
            if len(callee.body.blocks) != 1:
                return None
            return callee

        changed = True
        while changed:
            changed = False
            for call in list(op.walk()):
                if (callee := inlinable(call)) is not None:
                    _inline(call, callee)  # type: ignore[arg-type]
                    changed = True
        referenced = _referenced(op)
        for name, fn in functions.items():
            private = fn.sym_visibility is not None and fn.sym_visibility.data == "private"
            if private and name not in referenced:
                fn.detach()
                fn.erase()
