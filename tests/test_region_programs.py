"""`xshard.jit` against `jax.jit` on the programs with loops, branches, remat and shard_map
of `xshard.testing.region_programs`: the numbers must match, and xshard must stay within
the project's budget (per-device temp memory at most 1.1x jax.jit's + 4 KiB, no more
collectives and no more collective bytes than jax.jit's compiled program).

Each program is compared once per session (`xshard.testing.jit_comparison.compare`);
collectives count as XLA runs them, once per trip of a loop (`hlo_rows(executed=True)`).
"""

from __future__ import annotations

from functools import cache

import pytest

from xshard.testing.jax_programs import mesh_2x4
from xshard.testing.jit_comparison import ComparisonRow, compare
from xshard.testing.region_programs import REGION_PROGRAMS

MESH = mesh_2x4()
TOLERANCE = 1e-4
"""tests/test_jax_programs.py's: rtol 0, atol 1e-4 times the result's magnitude (at least 1)."""

TEMP_FACTOR, TEMP_SLACK = 1.1, 4096
"""xshard's temp memory may be at most 1.1x jax.jit's + 4 KiB on one device."""


@cache
def _row(name: str) -> ComparisonRow:
    return compare(REGION_PROGRAMS[name](MESH))


@pytest.mark.parametrize("name", list(REGION_PROGRAMS))
def test_xshard_jit_matches_jax_jit(name):
    row = _row(name)
    assert row.refused is None, row.refused
    assert row.same_shardings, "a result is laid out differently from jax.jit's"
    assert row.max_error <= TOLERANCE, row.max_error


@pytest.mark.parametrize("name", list(REGION_PROGRAMS))
def test_xshard_jit_stays_within_the_budget(name):
    row = _row(name)
    assert row.refused is None, row.refused
    ours, theirs = row.xshard, row.jax
    over = []
    if ours.memory.temp > TEMP_FACTOR * theirs.memory.temp + TEMP_SLACK:
        over.append(
            f"temp {ours.memory.temp / max(1, theirs.memory.temp):.2f}x jax.jit's "
            f"({ours.memory.temp} vs {theirs.memory.temp} B)"
        )
    if ours.count > theirs.count:
        over.append(f"{ours.count} collectives vs {theirs.count}")
    if ours.bytes > theirs.bytes:
        over.append(f"collective bytes {ours.bytes} vs {theirs.bytes}")
    assert not over, "; ".join(over)
