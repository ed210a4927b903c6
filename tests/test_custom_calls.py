"""The custom calls JAX emits, through `xshard.jit` against `jax.jit` on the same
function and shardings (8 simulated CPU devices, a 2x4 mesh).

Host callbacks: one of the global program runs once, on its whole operands, and its
results reach every device; one inside a shard_map runs on every device; a failed
equinox or diffrax check raises. Linear algebra kernels (LAPACK on CPU): a batch split
stays split through them, and a matrix split is gathered."""

from __future__ import annotations

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import io_callback
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import xshard
from xshard.jax import BridgeError
from xshard.testing.jax_programs import mesh_2x4
from xshard.testing.region_programs import gaussian_process_grad

MESH = mesh_2x4()
ROWS = NamedSharding(MESH, P("data", "model"))


def _both(fn, *args, shardings=ROWS):
    """`fn`'s results under `jax.jit` and under `xshard.jit`."""
    want = jax.jit(fn, in_shardings=shardings)(*args)
    got = xshard.jit(fn, in_shardings=shardings)(*args)
    return want, got


def test_a_print_of_the_global_program_prints_once_what_jax_jit_prints(capfd):
    def f(x):
        jax.debug.print("sum={s} max={m}", s=x.sum(), m=x.max())
        return jnp.tanh(x) * 2

    x = jnp.arange(32.0).reshape(8, 4)
    jax.jit(f, in_shardings=ROWS)(x).block_until_ready()
    jax.effects_barrier()
    want = capfd.readouterr().out
    got_value = xshard.jit(f, in_shardings=ROWS)(x)
    jax.effects_barrier()
    assert capfd.readouterr().out == want == "sum=496.0 max=31.0\n"
    np.testing.assert_allclose(got_value, jnp.tanh(x) * 2, rtol=1e-6)


def test_a_print_in_gspmd_form_prints_once(capfd):
    """JAX without Shardy places the callback with `{maximal device=0}`."""

    def f(x):
        jax.debug.print("max={m}", m=x.max())
        return x + 1

    before = jax.config.jax_use_shardy_partitioner
    jax.config.update("jax_use_shardy_partitioner", False)
    try:
        got = xshard.jit(f, in_shardings=ROWS)(jnp.arange(32.0).reshape(8, 4))
        jax.effects_barrier()
    finally:
        jax.config.update("jax_use_shardy_partitioner", before)
    assert capfd.readouterr().out == "max=31.0\n"
    np.testing.assert_array_equal(got, jnp.arange(32.0).reshape(8, 4) + 1)


def test_a_print_in_a_loop_prints_once_per_trip(capfd):
    def f(x):
        def body(i, acc):
            jax.debug.print("trip {i} {s}", i=i, s=acc.sum())
            return acc * 0.5 + x

        return jax.lax.fori_loop(0, 3, body, x)

    x = jnp.ones((8, 4))
    want, got = _both(f, x)
    jax.effects_barrier()
    printed = capfd.readouterr().out.splitlines()
    assert printed[:3] == printed[3:] == ["trip 0 32.0", "trip 1 48.0", "trip 2 56.0"]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_pure_and_io_callbacks_see_whole_values_and_run_once():
    seen: list[tuple[int, ...]] = []

    def host(a):
        seen.append(np.shape(a))
        return np.asarray(a) * 3

    def f(x):
        y = jax.pure_callback(
            lambda a: np.sort(np.asarray(a), axis=0), jax.ShapeDtypeStruct(x.shape, x.dtype), x
        )
        z = io_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), y)
        return z + x

    x = jax.random.normal(jax.random.key(0), (8, 4))
    want = jax.jit(f, in_shardings=ROWS)(x).block_until_ready()
    assert seen == [(8, 4)]
    got = xshard.jit(f, in_shardings=ROWS)(x).block_until_ready()
    assert seen == [(8, 4), (8, 4)]  # once, on the whole array
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got.sharding.spec == P("data", "model")


def test_a_shard_map_print_runs_on_every_device(capfd):
    def g(x):
        jax.debug.print("block {s}", s=x.sum())
        return x * 2

    def f(x):
        return jax.shard_map(g, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)

    x = jnp.arange(16.0).reshape(8, 2)
    want, got = _both(f, x, shardings=NamedSharding(MESH, P("data")))
    jax.effects_barrier()
    lines = capfd.readouterr().out.splitlines()
    assert sorted(lines[:8]) == sorted(lines[8:]) == ["block 28.0"] * 4 + ["block 92.0"] * 4
    np.testing.assert_array_equal(got, want)


def test_a_failed_equinox_check_raises_and_a_passing_one_returns():
    def f(x):
        return eqx.error_if(x * 2, jnp.any(x > 100), "x is too big")

    fn = xshard.jit(f, in_shardings=ROWS)
    x = jnp.arange(32.0).reshape(8, 4)
    np.testing.assert_array_equal(fn(x), x * 2)
    with pytest.raises(Exception, match="x is too big"):
        fn(x * 10).block_until_ready()


def test_diffrax_with_its_error_checks_matches_jax_jit():
    """diffrax checks its step count with a host callback unless told `throw=False`."""
    field = eqx.nn.MLP(4, 4, 16, 2, activation=jnp.tanh, key=jax.random.key(1))
    params, static = eqx.partition(field, eqx.is_array)

    def final_state(params, y0):
        term = diffrax.ODETerm(lambda t, y, a: eqx.combine(params, static)(y))

        def solve(y):
            return diffrax.diffeqsolve(
                term, diffrax.Tsit5(), 0.0, 1.0, 0.1, y,
                stepsize_controller=diffrax.PIDController(rtol=1e-4, atol=1e-6),
                max_steps=64,
            ).ys[-1]

        return jax.vmap(solve)(y0)

    y0 = jax.random.normal(jax.random.key(2), (8, 4))
    shardings = (jax.tree.map(lambda _: NamedSharding(MESH, P()), params), NamedSharding(MESH, P("data")))
    want, got = _both(final_state, params, y0, shardings=shardings)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_batched_linear_algebra_keeps_its_batch_split():
    """Each device solves, inverts and decomposes its own matrices: no collective."""

    def f(a, b):
        spd = a @ jnp.swapaxes(a, 1, 2) + 6 * jnp.eye(a.shape[-1])
        return (
            jnp.linalg.solve(a, b),
            jnp.linalg.svd(a, compute_uv=False),
            jnp.linalg.inv(a),
            jnp.linalg.eigh(spd)[0],
            jnp.linalg.qr(a)[1],
            jnp.linalg.cholesky(spd),
            jnp.linalg.slogdet(a)[1],
        )

    rng = np.random.default_rng(0)
    a = (rng.standard_normal((8, 6, 6)) + 3 * np.eye(6)).astype(np.float32)
    b = rng.standard_normal((8, 6, 2)).astype(np.float32)
    batch = NamedSharding(MESH, P("data"))
    lowered = xshard.jit(f, in_shardings=(batch, batch)).lower(a, b)
    assert lowered.collectives() == {}
    assert all(spec == P("data") for spec in lowered.out_specs)
    want = jax.jit(f, in_shardings=(batch, batch))(a, b)
    got = lowered.compile()(a, b)
    for w, g in zip(want, got, strict=True):
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-4)


def test_a_gaussian_process_gradient_through_cholesky_matches_jax_jit():
    """The kernel matrix of batch-split points is one matrix: gathered for the
    factorization, and the gradient of its hyperparameters summed."""
    program = gaussian_process_grad(MESH)
    want, got = _both(program.fn, *program.args, shardings=program.in_shardings)
    for w, g in zip(jax.tree.leaves(want), jax.tree.leaves(got), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_inspect_array_sharding_is_refused_at_its_call():
    """Its custom call asks GSPMD for the sharding it chose; xshard says it cannot
    answer, where the call is."""

    def f(x):
        jax.debug.inspect_array_sharding(x, callback=print)
        return x * 2

    with pytest.raises(BridgeError, match=r"<jax:f>:\d+:\d+: .*@InspectSharding is opaque"):
        xshard.jit(f, in_shardings=ROWS)(jnp.ones((8, 4)))
