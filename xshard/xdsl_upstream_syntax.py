"""Printing results as mlir-opt prints them.

An op with several results is printed by mlir-opt as one result group,
`%0:2 = shard.grid_shape @g : index, index`, its results used as `%0#0` and `%0#1`;
xDSL 0.74 prints `%0, %1 = ...`. Both parse, but upstream's CHECK lines (and users
diffing against mlir-opt) expect the group, so xshard prints it where the results
share one name (none, or the group's own, `%r:2` read back as `%r`); results named
apart (`%values, %indices = ...`) keep their names.

`apply()` is idempotent; importing `xshard` applies it.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation
from xdsl.printer import Printer


def _grouped_results(original: Any) -> Any:
    def print_results(self: Printer, op: Operation) -> None:
        results = op.results
        hints = {r.name_hint for r in results}
        if len(results) < 2 or len(hints) != 1 or any(r in self._ssa_values for r in results):
            return original(self, op)
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

    print_results.xshard_result_groups = True  # type: ignore[attr-defined]
    return print_results


def apply() -> None:
    """Patch xDSL's printer to print unnamed results of one op as a group."""
    if not getattr(Printer._print_results, "xshard_result_groups", False):
        Printer._print_results = _grouped_results(Printer._print_results)  # type: ignore[method-assign]


apply()
