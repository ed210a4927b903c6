"""JAX -> xshard -> XLA round trips: JAX's pretty StableHLO for real models parses into
xshard's subset, prints back, and the printed text compiles and computes what `jax.jit`
computes on the same inputs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from io import StringIO

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType, f32
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.printer import Printer

from xshard.dialects import stablehlo as hlo
from xshard.jax import import_function, module_text, run_global, run_spmd


def mlp(x, w1, b1, w2, b2):
    return jax.nn.gelu(x @ w1 + b1) @ w2 + b2


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def layernorm(x, g, b):
    # `jnp.var` would lower through `chlo.square`, which is not StableHLO.
    d = x - jnp.mean(x, -1, keepdims=True)
    return d * jax.lax.rsqrt(jnp.mean(d * d, -1, keepdims=True) + 1e-5) * g + b


def attention(x, wq, wk, wv):
    q, k, v = x @ wq, x @ wk, x @ wv
    return jax.nn.softmax(q @ k.T / jnp.sqrt(q.shape[-1]), -1) @ v


def train_step(w, b, x, y):
    def loss(w, b):
        return jnp.mean((x @ w + b - y) ** 2)

    value, (gw, gb) = jax.value_and_grad(loss, (0, 1))(w, b)
    return value, w - 0.1 * gw, b - 0.1 * gb


def many_ops(x, y, i, mask):
    """Ops JAX emits beyond the five models: slicing, padding, argmax's two-input reduce..."""
    return [
        jax.lax.iota(jnp.int32, 4),
        x[1:3, ::2],
        jax.lax.dynamic_slice(x, (i, 0), (2, 4)),
        jax.lax.dynamic_update_slice(x, y[:2, :4], (i, 1)),
        jnp.concatenate([x, y], 1),
        jax.lax.pad(x, 0.0, ((1, 2, 1), (0, 1, 0))),
        jax.lax.clamp(0.0, x, 1.0),
        mask & (x > 0), ~mask,
        x**y, x % y, jnp.abs(x), jnp.log(x), jax.nn.sigmoid(x), jnp.sign(x), jnp.sin(x),
        jnp.argmax(x, 1), jnp.min(x), jnp.prod(x), jnp.all(mask),
        jnp.einsum("bij,bjk->bik", x.reshape(2, 2, 8), y.reshape(2, 8, 2)),
        x.astype(jnp.bfloat16).astype(jnp.float32), jnp.where(x > 0, x, 0.0), i // 3,
    ]


MODELS: dict[str, tuple[Callable, list[tuple[int, ...]]]] = {
    "mlp": (mlp, [(4, 8), (8, 16), (16,), (16, 4), (4,)]),
    "softmax": (softmax, [(4, 8)]),
    "layernorm": (layernorm, [(4, 8), (8,), (8,)]),
    "attention": (attention, [(6, 8), (8, 8), (8, 8), (8, 8)]),
    "train_step": (train_step, [(8, 2), (2,), (16, 8), (16, 2)]),
}


def _inputs(shapes: Sequence[tuple[int, ...]], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def _expected(fn: Callable, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    out = jax.jit(fn)(*args)
    return [np.asarray(o) for o in (out if isinstance(out, tuple | list) else (out,))]


def _generic_text(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def _assert_all_close(got: Sequence[np.ndarray], want: Sequence[np.ndarray]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64),
                                   rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("form", ["pretty", "generic"])
def test_model_round_trip_runs_like_jax(name: str, form: str):
    fn, shapes = MODELS[name]
    args = _inputs(shapes, seed=len(name))
    module = import_function(fn, *args)
    module.verify()
    text = module_text(module) if form == "pretty" else _generic_text(module)
    _assert_all_close(run_global(text, args), _expected(fn, args))


def test_many_ops_round_trip_runs_like_jax():
    rng = np.random.default_rng(7)
    args = [rng.standard_normal((4, 8)).astype(np.float32) + 2,
            rng.standard_normal((4, 8)).astype(np.float32), np.int32(1),
            rng.standard_normal((4, 8)) > 0]
    module = import_function(many_ops, *args)
    module.verify()
    text = module_text(module)
    assert "reducer(" in text  # argmax's two-input reduce keeps its region form
    _assert_all_close(run_global(text, args), _expected(many_ops, args))


def test_softmax_keeps_its_minus_infinity():
    """Regression for the hex-float bug: -inf (0xFF800000) inits softmax's max-reduction."""
    args = _inputs([(4, 8)], seed=3)
    text = module_text(import_function(softmax, *args))
    assert "stablehlo.constant dense<0xff800000> : tensor<f32>" in text
    assert "e+09" not in text
    got = run_global(text, args)[0]
    assert np.isfinite(got).all()
    _assert_all_close([got], _expected(softmax, args))


def _per_device_module(build: Callable[[Block], list], n_args: int, shape: list[int]) -> ModuleOp:
    arg_type = TensorType(f32, shape)
    block = Block(arg_types=[arg_type] * n_args)
    ops = build(block)
    results = [op.results[0] for op in ops]
    block.add_ops([*ops, ReturnOp(*results)])
    func = FuncOp("main", ([arg_type] * n_args, [r.type for r in results]), Region(block))
    module = ModuleOp([func])
    module.verify()
    return module


def test_built_collectives_compile_and_run_on_four_devices():
    """The builders' generic form is what XLA runs: check each collective against numpy."""
    groups = [[0, 1], [2, 3]]

    def build(block: Block) -> list:
        x = block.args[0]
        return [
            hlo.AllReduceOp(x, replica_groups=groups),
            hlo.AllGatherOp(x, all_gather_dim=0, replica_groups=groups),
            hlo.ReduceScatterOp(x, scatter_dimension=1, replica_groups=groups,
                                body_op_class=hlo.MaximumOp),
            hlo.AllToAllOp(x, split_dimension=1, concat_dimension=0, split_count=2,
                           replica_groups=groups),
            hlo.CollectivePermuteOp(x, source_target_pairs=[(0, 1), (1, 0), (2, 3)]),
        ]

    module = _per_device_module(build, 1, [2, 4])
    xs = [np.arange(8, dtype=np.float32).reshape(2, 4) * (k + 1) for k in range(4)]
    outs = run_spmd(module, [xs], 4)
    for k in range(4):
        g = groups[k // 2]
        np.testing.assert_allclose(outs[0][k], xs[g[0]] + xs[g[1]])
        np.testing.assert_allclose(outs[1][k], np.concatenate([xs[g[0]], xs[g[1]]], 0))
        part = k % 2
        np.testing.assert_allclose(
            outs[2][k], np.maximum(xs[g[0]], xs[g[1]])[:, 2 * part: 2 * part + 2])
        np.testing.assert_allclose(
            outs[3][k], np.concatenate([xs[g[0]][:, 2 * part: 2 * part + 2],
                                        xs[g[1]][:, 2 * part: 2 * part + 2]], 0))
    np.testing.assert_allclose(outs[4][0], xs[1])
    np.testing.assert_allclose(outs[4][1], xs[0])
    np.testing.assert_allclose(outs[4][2], np.zeros((2, 4)))  # no pair targets device 2
    np.testing.assert_allclose(outs[4][3], xs[2])
