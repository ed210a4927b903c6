"""Real programs, written with flax, equinox, dm-haiku and optax and lowered by `jax.jit`
with NamedShardings on a 2x4 mesh, go through xshard as JAX printed them.

For each program of `xshard.testing.jax_programs`: its text (Shardy annotations,
private helper functions, CHLO ops) is run by `run_module` on 8 simulated devices
with the program's real arguments; the results equal jax.jit's, and xshard's
per-device program, as XLA compiles it, has no more collectives than jax.jit's (XLA
combines all_reduces on both sides alike).
"""

from __future__ import annotations

from collections import Counter

import jax
import numpy as np
import pytest

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.hlo_collectives import hlo_rows
from xshard.jax.run import run_module
from xshard.jax.runtime import compile_spmd
from xshard.testing.jax_programs import PROGRAMS, mesh_2x4

MESH = mesh_2x4()


def _xla_collectives(program) -> Counter[str]:
    compiled = program.jitted().lower(*program.args).compile()
    return Counter(row.kind for row in hlo_rows(compiled.as_text(), 8))


@pytest.fixture(scope="module", params=sorted(PROGRAMS))
def program(request):
    return PROGRAMS[request.param](MESH)


def test_runs_as_jax_printed_it_and_matches_jax_jit(program):
    module = LocatingParser(xshard_context(), program.text(), program.name).parse_module()
    inputs = [np.asarray(leaf) for leaf in jax.tree.leaves(program.args)]
    report = run_module(module, 8, inputs=inputs)
    assert report.match, report.max_abs_error
    expected = jax.tree.leaves(program.jitted()(*program.args))
    assert len(report.results) == len(expected)
    for got, want in zip(report.results, expected, strict=True):
        assert got is not None
        want = np.asarray(want)
        scale = max(1.0, float(np.abs(want).max(initial=0.0)))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * scale)
    xla = _xla_collectives(program)
    ours = Counter(row.kind for row in hlo_rows(compile_spmd(report.stablehlo, 8).hlo_text(), 8))
    assert ours.total() <= xla.total(), (ours, xla)
