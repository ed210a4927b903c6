"""Sharded JAX text in both of JAX's forms, Shardy (`sdy`) and GSPMD (`mhlo.sharding`
strings), runs through `run_module` as JAX printed it: it equals one device, and has no
more collectives than XLA compiles the same program to."""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.dialects.shard import GridOp
from xshard.jax.hlo_collectives import hlo_rows
from xshard.jax.run import run_module
from xshard.testing.jax_programs import mesh_2x4
from xshard.transforms.spmd_pipeline import import_passes

MESH = mesh_2x4()


def S(*spec):
    return NamedSharding(MESH, P(*spec))


@contextmanager
def partitioner(shardy: bool):
    before = jax.config.jax_use_shardy_partitioner
    jax.config.update("jax_use_shardy_partitioner", shardy)
    try:
        yield
    finally:
        jax.config.update("jax_use_shardy_partitioner", before)


def megatron(x, w1, w2):
    h = jnp.maximum(x @ w1, 0.0)
    h = jax.lax.with_sharding_constraint(h, S("data", "model"))
    return h @ w2


def dp_step(w, x, y):
    grad = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad


rng = np.random.default_rng(0)
PROGRAMS = {
    "megatron": (
        megatron,
        (rng.standard_normal((16, 32)), rng.standard_normal((32, 64)), rng.standard_normal((64, 32))),
        (S("data"), S(None, "model"), S("model")),
        S("data"),
    ),
    "dp_step": (
        dp_step,
        (rng.standard_normal((32, 8)), rng.standard_normal((16, 32)), rng.standard_normal((16, 8))),
        (S(), S(("data", "model")), S(("data", "model"))),
        S(),
    ),
}


@pytest.mark.parametrize("shardy", [True, False], ids=["sdy", "gspmd"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_jax_text_runs_at_xla_count(name, shardy):
    fn, args, ins, out = PROGRAMS[name]
    args = tuple(a.astype(np.float32) for a in args)
    with partitioner(shardy):
        jitted = jax.jit(fn, in_shardings=ins, out_shardings=out)
        text = jitted.lower(*args).as_text()
        xla = Counter(r.kind for r in hlo_rows(jitted.lower(*args).compile().as_text(), 8))
    assert ("sdy.mesh" in text) == shardy
    module = LocatingParser(xshard_context(), text, name).parse_module()
    report = run_module(module, 8, inputs=list(args))
    assert report.match, report.max_abs_error
    np.testing.assert_allclose(report.results[0], np.asarray(jitted(*args)), rtol=1e-4, atol=1e-4)
    assert sum(c.count for c in report.collectives) <= sum(xla.values()), (report.collectives, xla)


def test_gspmd_grid_is_the_mesh():
    """The GSPMD strings of a 2x4-mesh program fit one 2x4 grid."""
    fn, args, ins, out = PROGRAMS["megatron"]
    with partitioner(False):
        text = jax.jit(fn, in_shardings=ins, out_shardings=out).lower(*args).as_text()
    module = LocatingParser(xshard_context(), text, "megatron").parse_module()
    import_passes()[0].apply(xshard_context(), module)  # import-sdy
    (grid,) = [op for op in module.walk() if isinstance(op, GridOp)]
    assert grid.shape_tuple() == (2, 4)
