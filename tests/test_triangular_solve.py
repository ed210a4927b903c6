"""`stablehlo.triangular_solve` through `xshard.jit` against `jax.jit` (8 simulated CPU
devices, a 2x4 mesh). JAX emits it on GPU, and on CPU for bf16 (LAPACK has no bf16
kernel), which these tests use: the batch and the dim of `b` solved apart stay split,
with no collective; a split of the solved dim is gathered."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import xshard
from xshard.testing.jax_programs import mesh_2x4

MESH = mesh_2x4()


def _system(left_side: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    a = np.tril(rng.standard_normal((8, 16, 16))) * 0.1 + 2 * np.eye(16)
    b = rng.standard_normal((8, 16, 4) if left_side else (8, 4, 16))
    return a.astype(jnp.bfloat16), b.astype(jnp.bfloat16)


@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("transpose_a", [False, True])
def test_the_batch_and_the_free_dim_stay_split(left_side, transpose_a):
    def f(a, b):
        return jax.lax.linalg.triangular_solve(
            a, b, left_side=left_side, lower=True, transpose_a=transpose_a
        )

    a, b = _system(left_side)
    free = P("data", None, "model") if left_side else P("data", "model", None)
    shardings = (NamedSharding(MESH, P("data")), NamedSharding(MESH, free))
    assert "stablehlo.triangular_solve" in jax.jit(f).lower(a, b).as_text()
    lowered = xshard.jit(f, in_shardings=shardings).lower(a, b)
    assert lowered.collectives() == {}
    assert NamedSharding(MESH, lowered.out_specs[0]).is_equivalent_to(NamedSharding(MESH, free), 3)
    want = jax.jit(f, in_shardings=shardings)(a, b)
    got = lowered.compile()(a, b)
    np.testing.assert_array_equal(np.asarray(got, np.float32), np.asarray(want, np.float32))


def test_a_split_of_the_solved_dim_is_gathered():
    """Each unknown depends on every earlier one: `b` split by the rows `a` solves is
    gathered for the solve, and the result matches."""

    def f(a, b):
        return jax.lax.linalg.triangular_solve(a, b, left_side=True, lower=True)

    a, b = _system(True)
    rows = NamedSharding(MESH, P("data", "model"))
    want = jax.jit(f, in_shardings=(rows, rows))(a, b)
    lowered = xshard.jit(f, in_shardings=(rows, rows)).lower(a, b)
    assert set(lowered.collectives()) == {"all_gather"}
    got = lowered.compile()(a, b)
    np.testing.assert_array_equal(np.asarray(got, np.float32), np.asarray(want, np.float32))
