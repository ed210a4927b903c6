"""xshard's printer: the results of one op as one group, as mlir-opt prints them.

mlir-opt prints an op with several results as `%0:2 = shard.grid_shape @g : index,
index`, its results used as `%0#0` and `%0#1`; xDSL 0.74 prints `%0, %1 = ...`. Both
are valid and mean the same, so this is no xDSL bug and xDSL's `Printer` is left as it
is. xshard's own output (xshard-opt, `xshard.jax.importer.module_text`, the sharding
report) prints through `XShardPrinter` so that it diffs cleanly against mlir-opt and
upstream's CHECK lines match it. Results that share one name (none, or the group's
own: `%r:2` reads back as `%r`) are grouped; results named apart (`%values, %indices =
...`) keep their names.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer
from xdsl.syntax_printer import SyntaxPrinter
from xdsl.targets.mlir import MLIRTarget


class XShardPrinter(Printer):
    """xDSL's `Printer`, with an op's unnamed results printed as one group."""

    def _print_results(self, op: Operation) -> None:
        results = op.results
        hints = {r.name_hint for r in results}
        if len(results) < 2 or len(hints) != 1 or any(r in self._ssa_values for r in results):
            return super()._print_results(op)
        (hint,) = hints
        if hint is None:
            name = self._get_new_valid_name_id()
        else:  # as xDSL names a hinted value: the hint, then `_1`, `_2`... on reuse
            count = self.ssa_names.get(hint, 0)
            name = f"{hint}_{count}" if count else hint
            self.ssa_names[hint] = count + 1
        for i, result in enumerate(results):
            self._ssa_values[result] = f"{name}#{i}"
        self.print_string(f"%{name}:{len(results)} = ")


class XShardSyntaxPrinter(XShardPrinter, SyntaxPrinter):
    """`XShardPrinter` with xDSL's syntax highlighting (`--syntax-highlight`)."""


def text(op: Operation) -> str:
    """`op` as xshard prints it: `str(op)`, with result groups."""
    out = StringIO()
    XShardPrinter(stream=out).print_op(op)
    return out.getvalue()


@dataclass(frozen=True)
class XShardMLIRTarget(MLIRTarget):
    """xDSL's `mlir` output target (`xshard-opt -t mlir`, the default), printing with
    `XShardPrinter`."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        cls = XShardSyntaxPrinter if self.syntax_highlight else XShardPrinter
        printer = cls(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


def mlir_target() -> type[MLIRTarget]:
    """The factory `xshard-opt` registers as its `mlir` target, as xDSL's universe
    registers `xdsl.targets.mlir.MLIRTarget`."""
    return XShardMLIRTarget
