"""A flax conv + norm + residual block and its gradient, lowered by JAX as is (no
shardings): xshard parses and verifies the StableHLO, and the text it prints back runs on
one device and computes what `jax.jit` computes.

The forward uses convolution (3x3 and depthwise) and reduce_window (max and average
pooling); the gradient adds select_and_scatter, pad, reverse and the convolutions of a
kernel gradient (`batch_group_count` > 1 for the depthwise one). flax's normalisation
layers compute their variance with `chlo.square`, not StableHLO: the block below writes
its group norm with `d * d`, and the test with flax's own `nn.GroupNorm` runs where
xshard has the chlo dialect.
"""

from __future__ import annotations

import re

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from xshard.context import xshard_context
from xshard.jax import import_function, module_text, run_global


def group_norm(x: jax.Array, groups: int = 4, eps: float = 1e-5) -> jax.Array:
    n, h, w, c = x.shape
    g = x.reshape(n, h, w, groups, c // groups)
    d = g - jnp.mean(g, axis=(1, 2, 4), keepdims=True)
    var = jnp.mean(d * d, axis=(1, 2, 4), keepdims=True)
    return (d * jax.lax.rsqrt(var + eps)).reshape(x.shape)


class Block(nn.Module):
    """conv -> norm -> relu -> depthwise conv -> + x -> max pool -> average pool."""

    norm: str = "hand"

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        y = nn.Conv(8, (3, 3), padding="SAME")(x)
        y = nn.GroupNorm(num_groups=4)(y) if self.norm == "flax" else group_norm(y)
        y = nn.relu(y)
        y = nn.Conv(8, (3, 3), padding="SAME", feature_group_count=8)(y)
        y = nn.max_pool(y + x, (2, 2), strides=(2, 2))
        return nn.avg_pool(y, (3, 3), strides=(1, 1), padding="SAME")


def forward_and_gradient(norm: str):
    """The block's forward and the gradient of a squared loss, as functions of flat
    arrays (parameters, then x), with example inputs."""
    x = np.random.default_rng(0).standard_normal((2, 8, 8, 8)).astype(np.float32)
    block = Block(norm)
    leaves, tree = jax.tree_util.tree_flatten(block.init(jax.random.PRNGKey(0), x))

    def forward(*arrays):
        return block.apply(jax.tree_util.tree_unflatten(tree, arrays[:-1]), arrays[-1])

    def loss(*arrays):
        return jnp.sum(forward(*arrays) ** 2)

    gradient = jax.grad(loss, argnums=tuple(range(len(leaves) + 1)))
    return forward, gradient, [np.asarray(a) for a in leaves] + [x]


def ops_of(text: str) -> set[str]:
    return set(re.findall(r"\b((?:stablehlo|chlo)\.[a-z_]+)", text))


def check_block(norm: str, which: str) -> str:
    """Parse, verify and run on one device the block's `which` function; its text."""
    forward, gradient, args = forward_and_gradient(norm)
    fn = forward if which == "forward" else gradient
    module = import_function(fn, *args)
    module.verify()
    got = run_global(module, args)
    want = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-5)
    return module_text(module)


def test_block_forward() -> None:
    ops = ops_of(check_block("hand", "forward"))
    assert {"stablehlo.convolution", "stablehlo.reduce_window"} <= ops


def test_block_gradient() -> None:
    text = check_block("hand", "gradient")
    assert {
        "stablehlo.convolution",
        "stablehlo.reduce_window",
        "stablehlo.select_and_scatter",
        "stablehlo.pad",
        "stablehlo.reverse",
    } <= ops_of(text)
    assert "batch_group_count = 8" in text  # the depthwise kernel's gradient


@pytest.mark.skipif(
    "chlo" not in xshard_context().registered_dialect_names,
    reason="flax's nn.GroupNorm lowers through chlo.square; xshard has no chlo dialect yet",
)
@pytest.mark.parametrize("which", ["forward", "gradient"])
def test_block_with_flax_group_norm(which: str) -> None:
    assert "chlo.square" in check_block("flax", which)
