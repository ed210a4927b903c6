"""Real JAX programs, written with flax, equinox, dm-haiku and optax, with the shardings
a `jax.jit` user gives them: what the tests and benchmarks hand xshard as JAX prints it.

Each builder takes a 2x4 `Mesh` (axes `data`, `model`) and returns a `JaxProgram`:
the function, real example arguments (initialized parameters, valid labels), and
its `in_shardings`/`out_shardings`. Sizes are small so that tests stay fast. The
libraries are test extras: they are imported when a program is built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P


@dataclass
class JaxProgram:
    name: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    in_shardings: Any
    out_shardings: Any

    def jitted(self):
        """`jax.jit` with the program's shardings; every argument is kept, so the lowered
        function takes `jax.tree.leaves(self.args)` in order."""
        return jax.jit(
            self.fn,
            in_shardings=self.in_shardings,
            out_shardings=self.out_shardings,
            keep_unused=True,
        )

    def text(self) -> str:
        """The sharded StableHLO `jax.jit` lowers it to (Shardy annotations)."""
        return self.jitted().lower(*self.args).as_text()

    def batch_only(self) -> Any:
        """`in_shardings` with only the batch leaves kept (the first dim split over axes
        that include `data`, nothing else split): what a user annotates who leaves the
        rest to auto-sharding."""

        def keep(s: NamedSharding | None) -> NamedSharding | None:
            spec = tuple(s.spec) if s is not None else ()
            first = spec[0] if spec else None
            axes = first if isinstance(first, tuple) else (first,)
            return s if "data" in axes and not any(spec[1:]) else None

        return jax.tree.map(
            keep, self.in_shardings, is_leaf=lambda x: x is None or isinstance(x, NamedSharding)
        )


def mesh_2x4() -> Mesh:
    return Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))


def _named(mesh: Mesh) -> Callable[..., NamedSharding]:
    return lambda *spec: NamedSharding(mesh, P(*spec))


def _tree_specs(tree: Any, rule: Callable[[str], NamedSharding]) -> Any:
    """A sharding per leaf, chosen by the leaf's path (joined key names)."""

    def name(path) -> str:
        keys = (getattr(k, "key", getattr(k, "name", getattr(k, "idx", k))) for k in path)
        return "/".join(map(str, keys))

    return jax.tree_util.tree_map_with_path(lambda path, _: rule(name(path)), tree)


# ------------------------------------------------------------------ transformer (GPT)

B, S, D, H, F, V = 8, 8, 32, 4, 64, 16
"""Batch, sequence, model width, heads, MLP width, vocabulary."""


def _gpt_params(rng: np.random.Generator) -> dict[str, np.ndarray]:
    def w(*shape):
        return (rng.standard_normal(shape) * 0.1).astype(np.float32)

    return {
        "ln1_g": np.ones(D, np.float32),
        "ln1_b": np.zeros(D, np.float32),
        "ln2_g": np.ones(D, np.float32),
        "ln2_b": np.zeros(D, np.float32),
        "wq": w(D, H, D // H),
        "wk": w(D, H, D // H),
        "wv": w(D, H, D // H),
        "wo": w(H, D // H, D),
        "w1": w(D, F),
        "w2": w(F, D),
        "head": w(D, V),
    }


def _layernorm(x, g, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * g + b


def _gpt_block(p, x):
    h = _layernorm(x, p["ln1_g"], p["ln1_b"])
    q = jnp.einsum("bsd,dhk->bshk", h, p["wq"])
    k = jnp.einsum("bsd,dhk->bshk", h, p["wk"])
    v = jnp.einsum("bsd,dhk->bshk", h, p["wv"])
    scores = jnp.einsum("bqhk,bshk->bhqs", q, k) / np.sqrt(q.shape[-1])
    scores = jnp.where(jnp.tril(jnp.ones((S, S), bool)), scores, -1e9)
    o = jnp.einsum("bhqs,bshk->bqhk", jax.nn.softmax(scores, -1), v)
    x = x + jnp.einsum("bqhk,hkd->bqd", o, p["wo"])
    h = _layernorm(x, p["ln2_g"], p["ln2_b"])
    return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]


def _megatron(mesh: Mesh) -> Callable[[str], NamedSharding]:
    """Attention split by heads, the MLP by its hidden dim, the rest replicated."""
    ns = _named(mesh)
    specs = {
        "wq": ns(None, "model"),
        "wk": ns(None, "model"),
        "wv": ns(None, "model"),
        "wo": ns("model"),
        "w1": ns(None, "model"),
        "w2": ns("model"),
    }

    def rule(path: str) -> NamedSharding:
        leaf = path.rsplit("/", 1)[-1]
        return specs.get(leaf, ns())

    return rule


def gpt_train_step(mesh: Mesh) -> JaxProgram:
    """One step of a GPT block language model: softmax cross-entropy on integer labels,
    `jax.value_and_grad`, `optax.adamw`; Megatron-sharded parameters (and their Adam
    moments), the batch data-parallel."""
    rng = np.random.default_rng(0)
    return _gpt_step("gpt_train_step", mesh, rng, _gpt_params(rng), _gpt_block)


def gpt_layers_train_step(mesh: Mesh, layers: int) -> JaxProgram:
    """`gpt_train_step` with `layers` blocks, unrolled (a Python loop, as a model
    without `scan` lowers), each with its own parameters."""
    rng = np.random.default_rng(0)
    blocks = [_gpt_params(rng) for _ in range(layers)]
    params = {"blocks": [{k: v for k, v in b.items() if k != "head"} for b in blocks]}
    params["head"] = blocks[0]["head"]

    def body(p, x):
        for block in p["blocks"]:
            x = _gpt_block(block, x)
        return x

    return _gpt_step(f"gpt_{layers}_layers_train_step", mesh, rng, params, body)


def gpt_scanned_train_step(mesh: Mesh, layers: int) -> JaxProgram:
    """`gpt_layers_train_step` with its blocks' parameters stacked and the blocks run by
    `jax.lax.scan`, as MaxText and levanter write them: one `while` forward, one
    backward. Each stacked parameter is laid out as its block's, its layer dim whole."""
    rng = np.random.default_rng(0)
    blocks = [_gpt_params(rng) for _ in range(layers)]
    stacked = {k: np.stack([b[k] for b in blocks]) for k in blocks[0] if k != "head"}
    params = {"blocks": stacked, "head": blocks[0]["head"]}

    def body(p, x):
        return jax.lax.scan(lambda h, block: (_gpt_block(block, h), None), x, p["blocks"])[0]

    megatron = _megatron(mesh)

    def rule(path: str) -> NamedSharding:
        s = megatron(path)
        return NamedSharding(mesh, P(None, *s.spec)) if "blocks" in path else s

    return _gpt_step(f"gpt_{layers}_scanned_train_step", mesh, rng, params, body, rule)


def _gpt_step(
    name: str,
    mesh: Mesh,
    rng: np.random.Generator,
    params: Any,
    body: Callable[..., Any],
    rule: Callable[[str], NamedSharding] | None = None,
) -> JaxProgram:
    """A train step of the language model whose logits are `body(params, x) @ head`,
    with `optax.adamw`, its parameters and moments Megatron-sharded, the batch split."""
    import optax

    opt = optax.adamw(1e-3)
    state = opt.init(params)

    def loss(p, x, y):
        logits = body(p, x) @ p["head"]
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    def step(p, s, x, y):
        value, grads = jax.value_and_grad(loss)(p, x, y)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    ns = _named(mesh)
    rule = rule or _megatron(mesh)
    x = rng.standard_normal((B, S, D)).astype(np.float32)
    y = rng.integers(0, V, (B, S)).astype(np.int32)
    p_specs, s_specs = _tree_specs(params, rule), _tree_specs(state, rule)
    return JaxProgram(
        name,
        step,
        (params, state, x, y),
        (p_specs, s_specs, ns("data"), ns("data")),
        (p_specs, s_specs, ns()),
    )


def transformer_block(mesh: Mesh) -> JaxProgram:
    """A flax.linen pre-norm transformer block forward, Megatron specs, batch split."""
    import flax.linen as nn

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            h = nn.LayerNorm()(x)
            h = nn.MultiHeadDotProductAttention(num_heads=H, qkv_features=D)(h, h)
            x = x + h
            h = nn.LayerNorm()(x)
            h = nn.Dense(F, name="mlp_in")(h)
            h = nn.Dense(D, name="mlp_out")(nn.gelu(h))
            return x + h

    rng = np.random.default_rng(1)
    x = rng.standard_normal((B, S, D)).astype(np.float32)
    block = Block()
    params = block.init(jax.random.key(0), x)
    ns = _named(mesh)

    def rule(path: str) -> NamedSharding:
        if path.endswith(("query/kernel", "key/kernel", "value/kernel")):
            return ns(None, "model")
        if path.endswith(("query/bias", "key/bias", "value/bias")):
            return ns("model")
        if path.endswith("out/kernel"):
            return ns("model")
        if path.endswith("mlp_in/kernel"):
            return ns(None, "model")
        if path.endswith("mlp_in/bias"):
            return ns("model")
        if path.endswith("mlp_out/kernel"):
            return ns("model")
        return ns()

    return JaxProgram(
        "transformer_block",
        block.apply,
        (params, x),
        (_tree_specs(params, rule), ns("data")),
        ns("data"),
    )


def conv_block(mesh: Mesh) -> JaxProgram:
    """A flax.nnx conv + layer norm + residual block (NHWC), data-parallel."""
    from flax import nnx

    class ConvBlock(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.conv1 = nnx.Conv(8, 8, kernel_size=(3, 3), rngs=rngs)
            self.norm = nnx.LayerNorm(8, rngs=rngs)
            self.conv2 = nnx.Conv(8, 8, kernel_size=(3, 3), rngs=rngs)

        def __call__(self, x):
            h = nnx.relu(self.norm(self.conv1(x)))
            return x + self.conv2(h)

    graph, state = nnx.split(ConvBlock(nnx.Rngs(0)))

    def forward(state, x):
        return nnx.merge(graph, state)(x)

    x = np.random.default_rng(2).standard_normal((8, 8, 8, 8)).astype(np.float32)
    ns = _named(mesh)
    return JaxProgram(
        "conv_block",
        forward,
        (state, x),
        (_tree_specs(state, lambda _: ns()), ns(("data", "model"))),
        ns(("data", "model")),
    )


def moe_layer(mesh: Mesh) -> JaxProgram:
    """A mixture-of-experts layer: a router, `jax.lax.top_k` routing to 2 of 4 experts
    (dense dispatch by one-hot combine weights), expert weights split over `model`."""
    experts, k = 4, 2
    rng = np.random.default_rng(3)
    params = {
        "router": (rng.standard_normal((D, experts)) * 0.1).astype(np.float32),
        "w_in": (rng.standard_normal((experts, D, F)) * 0.1).astype(np.float32),
        "w_out": (rng.standard_normal((experts, F, D)) * 0.1).astype(np.float32),
    }

    def layer(p, x):
        logits = x @ p["router"]
        top, index = jax.lax.top_k(logits, k)
        gates = jax.nn.softmax(top, -1)
        combine = (jax.nn.one_hot(index, experts) * gates[..., None]).sum(-2)
        h = jax.nn.relu(jnp.einsum("bsd,edf->bsef", x, p["w_in"]))
        y = jnp.einsum("bsef,efd->bsed", h, p["w_out"])
        return jnp.einsum("bsed,bse->bsd", y, combine)

    x = rng.standard_normal((B, S, D)).astype(np.float32)
    ns = _named(mesh)
    specs = {"router": ns(), "w_in": ns("model"), "w_out": ns("model")}
    return JaxProgram("moe_layer", layer, (params, x), (specs, ns("data")), ns("data"))


def haiku_mlp_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of a dm-haiku MLP's mean squared error, data-parallel."""
    import haiku as hk

    def mse(x, y):
        mlp = hk.nets.MLP([F, F, D])
        return jnp.mean((mlp(x) - y) ** 2)

    model = hk.without_apply_rng(hk.transform(mse))
    rng = np.random.default_rng(4)
    x = rng.standard_normal((B * S, D)).astype(np.float32)
    y = rng.standard_normal((B * S, D)).astype(np.float32)
    params = model.init(jax.random.key(0), x, y)
    ns = _named(mesh)
    p_specs = _tree_specs(params, lambda _: ns())
    return JaxProgram(
        "haiku_mlp_grad",
        jax.grad(model.apply),
        (params, x, y),
        (p_specs, ns(("data", "model")), ns(("data", "model"))),
        p_specs,
    )


def equinox_mlp(mesh: Mesh) -> JaxProgram:
    """An equinox MLP forward; the first layer split by columns, the second by rows."""
    import equinox as eqx

    mlp = eqx.nn.MLP(D, D, F, depth=2, activation=jax.nn.gelu, key=jax.random.key(0))
    params, static = eqx.partition(mlp, eqx.is_array)

    def forward(params, x):
        return jax.vmap(eqx.combine(params, static))(x)

    ns = _named(mesh)

    def rule(path: str) -> NamedSharding:
        if path.endswith("layers/0/weight"):
            return ns("model")
        if path.endswith("layers/0/bias"):
            return ns("model")
        if path.endswith("layers/1/weight"):
            return ns(None, "model")
        return ns()

    x = np.random.default_rng(5).standard_normal((B * S, D)).astype(np.float32)
    return JaxProgram(
        "equinox_mlp",
        forward,
        (params, x),
        (_tree_specs(params, rule), ns("data")),
        ns("data"),
    )


def scanned_mlp_train_step(mesh: Mesh) -> JaxProgram:
    """An SGD step of a residual tanh MLP whose 4 layers are one `jax.lax.scan` over
    stacked weights (a `while` forward, one backward); Megatron-sharded stacks, the
    batch split."""
    layers, width, hidden = 4, 32, 128
    rng = np.random.default_rng(6)
    params = {
        "w1": (rng.standard_normal((layers, width, hidden)) * 0.1).astype(np.float32),
        "w2": (rng.standard_normal((layers, hidden, width)) * 0.1).astype(np.float32),
    }

    def loss(p, x):
        def layer(h, w):
            return h + jnp.tanh(h @ w[0]) @ w[1], None

        h, _ = jax.lax.scan(layer, x, (p["w1"], p["w2"]))
        return jnp.mean(h**2)

    def step(p, x):
        value, grads = jax.value_and_grad(loss)(p, x)
        return jax.tree.map(lambda w, g: w - 0.1 * g, p, grads), value

    ns = _named(mesh)
    specs = {"w1": ns(None, None, "model"), "w2": ns(None, "model", None)}
    x = rng.standard_normal((B * S, width)).astype(np.float32)
    return JaxProgram(
        "scanned_mlp_train_step", step, (params, x), (specs, ns("data")), (specs, ns())
    )


LAYERED_PROGRAMS: dict[str, Callable[[Mesh], JaxProgram]] = {
    "gpt_4_layers_train_step": lambda mesh: gpt_layers_train_step(mesh, 4),
    "gpt_12_layers_train_step": lambda mesh: gpt_layers_train_step(mesh, 12),
    "gpt_4_scanned_train_step": lambda mesh: gpt_scanned_train_step(mesh, 4),
    "gpt_12_scanned_train_step": lambda mesh: gpt_scanned_train_step(mesh, 12),
}
"""Multi-layer models, unrolled and scanned, for the auto-sharding benchmark (too slow to compile
in every test that runs `PROGRAMS`)."""

PROGRAMS: dict[str, Callable[[Mesh], JaxProgram]] = {
    "gpt_train_step": gpt_train_step,
    "transformer_block": transformer_block,
    "conv_block": conv_block,
    "moe_layer": moe_layer,
    "haiku_mlp_grad": haiku_mlp_grad,
    "equinox_mlp": equinox_mlp,
    "scanned_mlp_train_step": scanned_mlp_train_step,
}
