"""`xshard.jit` keeps `jax.jit`'s contract: every option of `jax.jit`, run against
`jax.jit` on the same function: results, result shardings, donated buffers deleted,
calls nested in traces, and the argument a wrong call gets wrong named."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import xshard
from xshard.jax import XShardCallError
from xshard.testing.jax_programs import mesh_2x4

MESH = mesh_2x4()


def ns(*spec):
    return NamedSharding(MESH, P(*spec))


X = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)
W = np.linspace(-0.5, 0.5, 256, dtype=np.float32).reshape(16, 16)


def same(got, want):
    """The same numbers and, leaf for leaf, the same layouts."""
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)
        assert a.sharding.is_equivalent_to(b.sharding, a.ndim), (a.sharding, b.sharding)


def both(fn, *args, **options):
    """`jax.jit` and `xshard.jit` of `fn` with the same options, called alike."""
    return xshard.jit(fn, **options)(*args), jax.jit(fn, **options)(*args)


def layer(x, w, n, *, scale=1.0):
    for _ in range(n):
        x = jnp.tanh(x @ w) * scale
    return x


def test_static_argnums():
    got, want = both(layer, X, W, 2, in_shardings=(ns("data"), ns(None, "model")),
                     static_argnums=2)
    same(got, want)


def test_static_argnames_are_inferred_from_argnums_and_back():
    x = jax.device_put(X, ns("data"))
    for options in ({"static_argnums": (2,)}, {"static_argnames": "n"}):
        f = xshard.jit(layer, out_shardings=ns("data"), **options)
        g = jax.jit(layer, out_shardings=ns("data"), **options)
        same(f(x, W, n=3), g(x, W, n=3))
        same(f(x, W, 1), g(x, W, 1))


def test_each_static_value_compiles_once():
    g = xshard.jit(layer, in_shardings=(ns("data"), ns()), static_argnums=2)
    for n in (1, 2, 1, 2):
        g(X, W, n)
    assert len(g._cache) == 2


def test_keyword_arguments():
    f = xshard.jit(layer, static_argnums=2, out_shardings=ns("data"))
    g = jax.jit(layer, static_argnums=2, out_shardings=ns("data"))
    x = jax.device_put(X, ns("data"))
    same(f(x, W, 1, scale=0.5), g(x, W, 1, scale=0.5))
    same(f(x, w=W, n=1), g(x, w=W, n=1))


def test_keyword_arguments_with_in_shardings_are_refused_as_jax_refuses_them():
    with pytest.raises(ValueError, match="kwargs when in_shardings is specified"):
        jax.jit(layer, in_shardings=(ns(), ns()), static_argnums=2)(X, W, 1, scale=2.0)
    with pytest.raises(ValueError, match="kwargs when in_shardings is specified"):
        xshard.jit(layer, in_shardings=(ns(), ns()), static_argnums=2)(X, W, 1, scale=2.0)


def _adam_step():
    opt = optax.adamw(1e-2)

    def step(params, state, x):
        loss, grads = jax.value_and_grad(lambda p: jnp.mean(jnp.tanh(x @ p["w"]) ** 2))(params)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    params = {"w": W}
    specs = {"w": ns(None, "model")}
    state = jax.tree.map(np.asarray, opt.init(params))  # host copies: each run places its own
    state_specs = jax.tree.map(
        lambda leaf: ns(None, "model") if getattr(leaf, "ndim", 0) == 2 else ns(), state
    )
    return step, params, state, (specs, state_specs, ns("data")), (specs, state_specs, ns())


@pytest.mark.parametrize("how", ["argnums", "argnames"])
def test_donated_buffers_are_deleted_after_the_call(how):
    step, params, state, ins, outs = _adam_step()
    donate = {"donate_argnums": (0, 1)} if how == "argnums" else {
        "donate_argnames": ("params", "state")}
    results = []
    for compiler in (jax.jit, xshard.jit):
        p, s = jax.device_put(params, ins[0]), jax.device_put(state, ins[1])
        f = compiler(step, in_shardings=ins, out_shardings=outs, **donate)
        results.append(f(p, s, X))
        assert all(leaf.is_deleted() for leaf in jax.tree.leaves((p, s)))
    same(results[1], results[0])


def test_donation_keeps_peak_memory_at_jax_jits():
    """A train step's arguments, results and temporaries with params and optimizer state
    donated: within 10% of jax.jit's with the same donation."""
    step, params, state, ins, outs = _adam_step()
    totals = []
    for compiler in (jax.jit, xshard.jit):
        f = compiler(step, in_shardings=ins, out_shardings=outs, donate_argnums=(0, 1))
        m = f.lower(params, state, X).compile().memory_analysis()
        totals.append(
            m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes
            - m.alias_size_in_bytes
        )
        assert m.alias_size_in_bytes > 0  # the donated buffers are reused for results
    assert totals[1] <= 1.1 * totals[0], totals


def test_keep_unused_changes_no_result():
    def f(x, unused):
        return x * 2

    for keep in (False, True):
        same(*both(f, X, X, in_shardings=(ns("data"), ns()), keep_unused=keep))


def test_shardings_as_a_prefix_tree_a_single_sharding_or_none():
    params = {"w": W, "b": X[0]}

    def f(p, x):
        return jnp.tanh(x @ p["w"] + p["b"])

    for ins in (ns(), (ns(), ns("data")), ({"w": ns(None, "model"), "b": ns()}, ns("data")),
                (None, ns("data")), None):
        same(*both(f, params, X, in_shardings=ins, out_shardings=ns("data")))


def test_bare_partition_specs_under_set_mesh():
    with jax.set_mesh(MESH):
        same(*both(lambda x, w: x @ w, X, W, in_shardings=(P("data"), P(None, "model")),
                   out_shardings=P("data", "model")))
        same(*both(lambda x: jnp.sin(x), X, in_shardings=P("data")))


def test_a_bare_partition_spec_needs_a_mesh():
    with pytest.raises(XShardCallError, match="needs a mesh: set one with jax.set_mesh"):
        xshard.jit(jnp.sin, in_shardings=P("data"))(X)


def test_unconstrained_dims_in_in_shardings_are_refused_as_jax_refuses_them():
    spec = ns("data", P.UNCONSTRAINED)
    with pytest.raises(ValueError, match="Unconstrained dims are not allowed"):
        xshard.jit(jnp.sin, in_shardings=spec)(X)


@pytest.mark.parametrize(
    "scalar",
    [2.0, 3, np.float32(0.5), jnp.float32(1.5), jax.device_put(jnp.float32(2.5), ns())],
    ids=["python-float", "python-int", "numpy", "jax-uncommitted", "jax-committed"],
)
def test_scalars(scalar):
    same(*both(lambda x, s: x * s, X, scalar, in_shardings=(ns("data"), None)))


def test_a_mesh_only_a_shard_map_names():
    def f(x):
        return jax.shard_map(jnp.tanh, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)

    same(*both(f, X[:, 0]))


def test_no_mesh_runs_on_one_device():
    same(*both(lambda x: x * 2 + 1, X))


def test_decorator_form():
    @xshard.jit(in_shardings=ns("data"), out_shardings=ns("data"))
    def f(x):
        return jnp.cos(x)

    same(f(X), jax.jit(jnp.cos, in_shardings=ns("data"), out_shardings=ns("data"))(X))


def test_compiler_options_reach_xla():
    options = {"xla_cpu_enable_fast_math": True}
    same(*both(jnp.exp, X, in_shardings=ns("data"), compiler_options=options))


def test_eval_shape():
    got = xshard.jit(jnp.sin, in_shardings=ns("data")).eval_shape(X)
    assert (got.shape, got.dtype) == (X.shape, X.dtype)


# ---------------------------------------------------------------- nesting


def _f(x):
    return jnp.sum(jnp.tanh(x @ W) ** 2)


def test_grad_of_xshard_jit():
    g = xshard.jit(_f, in_shardings=ns("data"), out_shardings=ns())
    same(jax.grad(g)(X), jax.grad(jax.jit(_f, in_shardings=ns("data"), out_shardings=ns()))(X))


def test_jax_jit_around_xshard_jit():
    inner = xshard.jit(jnp.tanh, in_shardings=ns("data"), out_shardings=ns("data"))
    want = jax.jit(lambda x: jax.jit(jnp.tanh, in_shardings=ns("data"),
                                     out_shardings=ns("data"))(x) + 1)(X)
    same(jax.jit(lambda x: inner(x) + 1)(X), want)


def test_xshard_jit_around_xshard_jit():
    inner = xshard.jit(jnp.tanh, in_shardings=ns("data"), out_shardings=ns("data"))
    outer = xshard.jit(lambda x: inner(x) * 2, in_shardings=ns("data"))
    same(outer(X), jax.jit(lambda x: jnp.tanh(x) * 2, in_shardings=ns("data"))(X))


def test_vmap_and_scan_over_xshard_jit():
    inner = xshard.jit(lambda x: jnp.sin(x) * 2)
    same(jax.vmap(inner)(X), jax.vmap(lambda x: jnp.sin(x) * 2)(X))

    def body(c, x):
        return c + inner(x), None

    got, _ = jax.lax.scan(body, jnp.zeros(16), X)
    want, _ = jax.lax.scan(lambda c, x: (c + jnp.sin(x) * 2, None), jnp.zeros(16), X)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5)


# ---------------------------------------------------------------- wrong calls


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda g: g(X), r"layer\(x, w, n, \*, scale=1.0\) takes 3 required arguments, called "
                         r"with 1 positional and 0 keyword: missing a required argument: 'w'"),
        (lambda g: g(X, W, 1, 2), r"called with 4 positional .*too many positional"),
        (lambda g: g(X, W, 1, size=2), r"got an unexpected keyword argument 'size'"),
        (lambda g: g(X, W, [1]), r"static arguments must be hashable"),
        (
            lambda g: g.lower(X, W, 1).compile()(X[:4], W),
            r"args\[0\] is float32\[4,16\], expected float32\[8,16\]",
        ),
    ],
    ids=["missing", "extra", "unknown-keyword", "unhashable-static", "shape"],
)
def test_a_wrong_call_names_what_it_gets_wrong(call, message):
    g = xshard.jit(layer, in_shardings=(ns("data"), ns()), static_argnums=2)
    with pytest.raises(XShardCallError, match=message):
        call(g)
