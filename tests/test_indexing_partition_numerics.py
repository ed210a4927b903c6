"""Partition rules of gather, scatter, dynamic_slice/dynamic_update_slice, sort, top_k,
while, case, optimization_barrier and bitcast_convert, proven by running: small
annotated programs (tests/e2e/, grids 8 and 2x4) through `xshard.jax.run.run_module` on 8
simulated devices, against the same program on one.

Each program's header says which rule it exercises; the collectives each device runs
pin whether the rule split the op (none, or only the settling all_reduce) or fell back
to gathering what no loop indexes (all_gather).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.run import run_module

E2E = Path(__file__).parent / "e2e"

# program: the collectives each device runs, {op: (count, bytes of their operands)}
CASES = {
    "gather_batching_8.mlir": {},
    "gather_rows_2x4.mlir": {},
    "gather_lookup_rows_8.mlir": {"all_reduce": (1, 4 * 6 * 8 * 4)},
    "gather_window_fallback_8.mlir": {"all_gather": (1, 8 * 2 * 4)},
    "gather_partial_8.mlir": {"all_reduce": (1, 4 * 8 * 4)},  # the gathered rows only
    "scatter_add_8.mlir": {"all_reduce": (1, 16 * 8 * 4)},
    "scatter_max_2x4.mlir": {"all_reduce": (1, 16 * 2 * 4)},
    "scatter_batching_2x4.mlir": {},
    "scatter_lookup_rows_8.mlir": {},
    "scatter_window_8.mlir": {},
    "scatter_set_fallback_8.mlir": {"all_gather": (2, 4 * 1 * 4 + 4 * 8 * 4)},
    "dynamic_slice_2x4.mlir": {"all_gather": (1, 8 * 4 * 4)},
    "dynamic_update_slice_8.mlir": {},
    "sort_2x4.mlir": {"all_gather": (1, 8 * 4 * 4)},
    "top_k_8.mlir": {},
    "while_8.mlir": {},
    "case_8.mlir": {"all_reduce": (1, 4)},
    "case_contract_2x4.mlir": {"reduce_scatter": (1, 4 * 16 * 4), "all_gather": (1, 4 * 4 * 4)},
    "scan_stacked_2x4.mlir": {"all_gather": (2, 2 * 4 * 4 * 4), "all_reduce": (1, 3 * 4)},
    "grad_accumulation_8.mlir": {"all_reduce": (1, 8 * 8 * 4)},
    "case_partial_8.mlir": {"all_reduce": (1, 16 * 4 * 4)},
    "barrier_bitcast_8.mlir": {},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_partitioned_program_matches_one_device(name: str) -> None:
    path = E2E / name
    module = LocatingParser(xshard_context(), path.read_text(), str(path)).parse_module()
    report = run_module(module, 8, seed=5)
    assert report.match, f"max abs error {report.max_abs_error}"
    assert {c.op: (c.count, c.bytes) for c in report.collectives} == CASES[name]


def test_a_partial_value_the_branches_read_is_settled_once_before_the_case() -> None:
    """Without propagation nothing annotates the case: the partial product both branches
    read is settled once, before the case, not once in each branch."""
    path = E2E / "case_partial_8.mlir"
    module = LocatingParser(xshard_context(), path.read_text(), str(path)).parse_module()
    report = run_module(module, 8, seed=5, propagate=False)
    assert report.match, f"max abs error {report.max_abs_error}"
    assert {c.op: (c.count, c.bytes) for c in report.collectives} == {"all_reduce": (1, 256)}
