"""`xshard.jit` against `jax.jit` on one program: numbers, collectives, bytes, memory.

`compare(program)` compiles a `JaxProgram` with `program.jitted()` (jax.jit) and with
`xshard.jit` from the same function and shardings, runs both on the same arguments
(placed once with the requested shardings) and reports, per side:

- the collectives of the HLO that XLA compiled and runs (`hlo_rows`, the same reader on
  both sides): per kind, the count and the operand bytes on one device, as executed: a
  collective inside a loop body counts once per trip (XLA's `known_trip_count`; once
  for a loop whose bound is dynamic);
- one device's memory from `memory_analysis()` of the compiled executable, and its
  flops from `cost_analysis()` (XLA's estimate, in which a loop body counts once), which
  shows work done redundantly, such as a whole batch computed on every device;

and the largest error of xshard's results relative to the magnitude of jax.jit's.
A program xshard refuses (`BridgeError`, `XShardCallError`) is a row with the refusal's
text and no xshard side: a legitimate outcome, not a failure of the comparison. Any
other exception is a bug and propagates. The tests (`tests/test_region_programs.py`)
and `tools/jit_benchmark.py` both read these rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jax
import numpy as np

import xshard
from xshard.jax import BridgeError, XShardCallError
from xshard.jax.hlo_collectives import hlo_rows
from xshard.jax.memory import Memory
from xshard.testing.jax_programs import JaxProgram

DEVICES = 8
"""The 2x4 mesh of the programs."""


@dataclass(frozen=True)
class Side:
    """What one compiler made of the program."""

    collectives: Mapping[str, tuple[int, int]]
    """Per kind: (count, operand bytes on one device)."""
    memory: Memory
    flops: float
    """XLA's estimate for one device."""
    compile_s: float
    """`lower(*args).compile()` from the Python function."""

    @property
    def count(self) -> int:
        return sum(count for count, _ in self.collectives.values())

    @property
    def bytes(self) -> int:
        return sum(size for _, size in self.collectives.values())


@dataclass
class ComparisonRow:
    program: str
    jax: Side
    xshard: Side | None
    """None when xshard refused the program (`refused` says why)."""
    refused: str | None = None
    max_error: float | None = None
    """xshard's largest absolute error over all results, each relative to the largest
    magnitude of jax.jit's result (at least 1)."""
    same_shardings: bool | None = None
    """Whether every result is laid out as jax.jit lays it out."""
    calls: tuple[Callable[..., Any], Callable[..., Any] | None] = field(
        default=(), repr=False, compare=False
    )
    """The two compiled calls (jax.jit's, xshard's), for timing them."""
    args: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    """The arguments, placed with the requested shardings."""


def collectives(hlo: str) -> dict[str, tuple[int, int]]:
    """Per kind of XLA's compiled HLO text: (count, operand bytes on one device)."""
    found: dict[str, tuple[int, int]] = {}
    for row in hlo_rows(hlo, DEVICES, executed=True):
        count, size = found.get(row.kind, (0, 0))
        found[row.kind] = (count + 1, size + row.bytes)
    return dict(sorted(found.items()))


def format_collectives(found: Mapping[str, tuple[int, int]]) -> str:
    """`all_reduce x2 (8192 B), ...`, or `none`."""
    return ", ".join(f"{k} x{c} ({b} B)" for k, (c, b) in found.items()) or "none"


def max_error(got: Any, want: Any) -> float:
    """The largest absolute difference of any leaf, over that leaf's largest magnitude in
    `want` (at least 1), so a big result is held to the same relative bound as a loss."""
    worst = 0.0
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        scale = max(1.0, float(np.abs(b).max(initial=0.0)))
        worst = max(worst, float(np.abs(a - b).max(initial=0.0)) / scale)
    return worst


def _side(compiled: Any, seconds: float) -> Side:
    memory = Memory.of(compiled)
    flops = compiled.cost_analysis().get("flops", 0.0)
    return Side(collectives(compiled.as_text()), memory, flops, seconds)


def _compiled(lower: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    compiled = lower().compile()
    return compiled, time.perf_counter() - start


def compare(program: JaxProgram) -> ComparisonRow:
    """Both compilers on `program`, run on the same placed arguments."""
    theirs, seconds = _compiled(lambda: program.jitted().lower(*program.args))
    reference = _side(theirs, seconds)
    args = jax.device_put(program.args, program.in_shardings)
    want = theirs(*args)
    ours = xshard.jit(
        program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings
    )
    try:
        compiled, seconds = _compiled(lambda: ours.lower(*program.args))
        got = compiled(*args)
    except (BridgeError, XShardCallError) as err:
        return ComparisonRow(program.name, reference, None, str(err), calls=(theirs, None))
    if jax.tree.structure(got) != jax.tree.structure(want):
        raise AssertionError(
            f"{program.name}: xshard returns {jax.tree.structure(got)}, "
            f"jax.jit {jax.tree.structure(want)}"
        )
    same = all(
        a.sharding.is_equivalent_to(b.sharding, a.ndim)
        for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True)
    )
    return ComparisonRow(
        program.name,
        reference,
        _side(compiled, seconds),
        max_error=max_error(got, want),
        same_shardings=same,
        calls=(theirs, compiled),
        args=args,
    )
