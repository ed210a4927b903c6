"""Real training and inference programs built from loops, branches, remat, shard_map and
random bits: what `xshard.jit` has to partition beyond straight-line code, with the
shardings a `jax.jit` user gives them.

Each builder takes the 2x4 `Mesh` (axes `data`, `model`) and returns a `JaxProgram`
(`xshard.testing.jax_programs`): the function, real arguments (initialized parameters,
valid labels) and the shardings of its arguments and results, plus a
`with_sharding_constraint` only where a user would write one, never a hint for the
partitioner (the vocab-parallel GPT constrains its embedding lookup to the batch
split, as Megatron-style code does). The programs use flax, optax, equinox, dm-haiku
and diffrax as their users do (test extras, imported when a program is built). Sizes
are small so that tests stay fast; `xshard.testing.jit_comparison` compiles each with
`jax.jit` and `xshard.jit` and compares them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from xshard.testing.jax_programs import (
    D,
    F,
    JaxProgram,
    _gpt_block,
    _gpt_params,
    _megatron,
    _named,
    _tree_specs,
    haiku_mlp_grad,
)

B, S, H, L = 8, 8, 4, 4
"""Batch, sequence, heads, and the layers a scan runs over."""
V = 64
"""Vocabulary: 16 rows per `model` device where it is split."""


def _weights(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return (rng.standard_normal(shape) * 0.1).astype(np.float32)


def _suffix_rule(mesh: Mesh, specs: dict[str, tuple]) -> Callable[[str], NamedSharding]:
    """A leaf's sharding from the first path suffix it ends with; replicated otherwise."""
    ns = _named(mesh)

    def rule(path: str) -> NamedSharding:
        for suffix, spec in specs.items():
            if path.endswith(suffix):
                return ns(*spec)
        return ns()

    return rule


# ------------------------------------------------------------------ scanned layers


def flax_scan_gpt_train_step(mesh: Mesh) -> JaxProgram:
    """One adamw step of a flax linen GPT whose 4 blocks are one `nn.scan` (parameters
    stacked on dim 0, never split): Megatron specs (q/k/v and the MLP's first layer
    split by columns on `model`, the output projections by rows), the batch on `data`.
    Attention has no biases: a key bias's gradient is zero in exact arithmetic, and adam
    turns its rounding noise into whole steps, which no comparison of two compilers
    could hold to a tolerance."""
    import flax.linen as nn
    import optax

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x, _):
            h = nn.LayerNorm()(x)
            mask = nn.make_causal_mask(jnp.ones(x.shape[:2]))
            attention = nn.MultiHeadDotProductAttention(num_heads=H, use_bias=False, name="attn")
            x = x + attention(h, h, mask=mask)
            h = nn.Dense(F, name="mlp_in")(nn.LayerNorm()(x))
            return x + nn.Dense(D, name="mlp_out")(nn.gelu(h)), None

    class Gpt(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            x = nn.Embed(V, D)(tokens)
            layers = nn.scan(
                Block, variable_axes={"params": 0}, split_rngs={"params": True}, length=L
            )
            x, _ = layers(name="layers")(x, None)
            return nn.Dense(V, name="head")(nn.LayerNorm()(x))

    rng = np.random.default_rng(10)
    tokens = rng.integers(0, V, (B, S)).astype(np.int32)
    labels = rng.integers(0, V, (B, S)).astype(np.int32)
    model = Gpt()
    params = model.init(jax.random.key(0), tokens)
    opt = optax.adamw(1e-3)
    state = opt.init(params)

    def step(params, state, tokens, labels):
        def loss(p):
            logits = model.apply(p, tokens)
            return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

        value, grads = jax.value_and_grad(loss)(params)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    # Stacked: dim 0 is the layer; attention kernels are [L, D, H, K] and [L, H, K, D].
    rule = _suffix_rule(
        mesh,
        {
            "attn/query/kernel": (None, None, "model"),
            "attn/key/kernel": (None, None, "model"),
            "attn/value/kernel": (None, None, "model"),
            "attn/out/kernel": (None, "model"),
            "mlp_in/kernel": (None, None, "model"),
            "mlp_in/bias": (None, "model"),
            "mlp_out/kernel": (None, "model"),
        },
    )
    ns = _named(mesh)
    p_specs, s_specs = _tree_specs(params, rule), _tree_specs(state, rule)
    return JaxProgram(
        "flax_scan_gpt_train_step",
        step,
        (params, state, tokens, labels),
        (p_specs, s_specs, ns("data"), ns("data")),
        (p_specs, s_specs, ns()),
    )


def equinox_scan_mlp(mesh: Mesh) -> JaxProgram:
    """Loss and gradient of an equinox residual MLP whose 4 `eqx.nn.Linear` layers are
    made stacked by `eqx.filter_vmap` and run by `jax.lax.scan`; data-parallel."""
    import equinox as eqx

    keys = jax.random.split(jax.random.key(1), L)
    layers = eqx.filter_vmap(lambda key: eqx.nn.Linear(D, D, key=key))(keys)
    params, static = eqx.partition(layers, eqx.is_array)

    def loss(params, x, y):
        def layer(h, p):
            return h + jax.nn.gelu(jax.vmap(eqx.combine(p, static))(h)), None

        h, _ = jax.lax.scan(layer, x, params)
        return jnp.mean((h - y) ** 2)

    rng = np.random.default_rng(11)
    x = rng.standard_normal((B * S, D)).astype(np.float32)
    y = rng.standard_normal((B * S, D)).astype(np.float32)
    ns = _named(mesh)
    p_specs = _tree_specs(params, lambda _: ns())
    return JaxProgram(
        "equinox_scan_mlp",
        jax.value_and_grad(loss),
        (params, x, y),
        (p_specs, ns("data"), ns("data")),
        (ns(), p_specs),
    )


def rnn_scan_grad(mesh: Mesh) -> JaxProgram:
    """Loss and gradient of an Elman RNN run by `jax.lax.scan` over 8 time steps
    (inputs time-major), read out at the last step; the batch on `data`."""
    hidden, steps = 32, 8
    rng = np.random.default_rng(12)
    params = {
        "wx": _weights(rng, D, hidden),
        "wh": _weights(rng, hidden, hidden),
        "b": np.zeros(hidden, np.float32),
        "wo": _weights(rng, hidden, D),
    }

    def loss(p, xs, y):
        def cell(h, x):
            return jnp.tanh(x @ p["wx"] + h @ p["wh"] + p["b"]), None

        h, _ = jax.lax.scan(cell, jnp.zeros((xs.shape[1], hidden), xs.dtype), xs)
        return jnp.mean((h @ p["wo"] - y) ** 2)

    xs = rng.standard_normal((steps, B, D)).astype(np.float32)
    y = rng.standard_normal((B, D)).astype(np.float32)
    ns = _named(mesh)
    p_specs = _tree_specs(params, lambda _: ns())
    return JaxProgram(
        "rnn_scan_grad",
        jax.value_and_grad(loss),
        (params, xs, y),
        (p_specs, ns(None, "data"), ns("data")),
        (ns(), p_specs),
    )


def fori_loop_solver(mesh: Mesh) -> JaxProgram:
    """Jacobi iterations for A x = b on a batch of right-hand sides (split on `data`),
    `jax.lax.fori_loop` with the trip count a traced int argument (a `while` loop)."""
    n = 32
    rng = np.random.default_rng(13)
    a = _weights(rng, n, n) + np.eye(n, dtype=np.float32) * n / 4  # diagonally dominant
    b = rng.standard_normal((B * 2, n)).astype(np.float32)

    def solve(a, b, iterations):
        diag = jnp.diagonal(a)
        rest = a - jnp.diag(diag)

        def sweep(_, x):
            return (b - x @ rest.T) / diag

        return jax.lax.fori_loop(0, iterations, sweep, jnp.zeros_like(b))

    ns = _named(mesh)
    return JaxProgram(
        "fori_loop_solver",
        solve,
        (a, b, np.int32(6)),
        (ns(), ns("data"), ns()),
        ns("data"),
    )


def grad_accumulation_scan(mesh: Mesh) -> JaxProgram:
    """Data-parallel gradient accumulation: an MLP's gradients summed over 4
    microbatches in a `jax.lax.scan` carry (each microbatch split on `data` by its batch
    dim), then averaged; parameters replicated."""
    micro = 4
    rng = np.random.default_rng(14)
    params = {"w1": _weights(rng, D, F), "b1": np.zeros(F, np.float32), "w2": _weights(rng, F, D)}

    def loss(p, x, y):
        return jnp.mean((jax.nn.gelu(x @ p["w1"] + p["b1"]) @ p["w2"] - y) ** 2)

    def accumulate(p, xs, ys):
        def microbatch(carry, batch):
            total, grads = carry
            value, g = jax.value_and_grad(loss)(p, *batch)
            return (total + value, jax.tree.map(jnp.add, grads, g)), None

        zero = (jnp.zeros(()), jax.tree.map(jnp.zeros_like, p))
        (total, grads), _ = jax.lax.scan(microbatch, zero, (xs, ys))
        return total / micro, jax.tree.map(lambda g: g / micro, grads)

    xs = rng.standard_normal((micro, B * 2, D)).astype(np.float32)
    ys = rng.standard_normal((micro, B * 2, D)).astype(np.float32)
    ns = _named(mesh)
    p_specs = _tree_specs(params, lambda _: ns())
    return JaxProgram(
        "grad_accumulation_scan",
        accumulate,
        (params, xs, ys),
        (p_specs, ns(None, "data"), ns(None, "data")),
        (ns(), p_specs),
    )


# ------------------------------------------------------------------ remat, branches


def checkpoint_block_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of 3 residual MLP blocks, each `jax.checkpoint`ed (recomputed in the
    backward pass behind an optimization barrier); Megatron specs, batch on `data`."""
    rng = np.random.default_rng(15)
    params = [{"w1": _weights(rng, D, F), "w2": _weights(rng, F, D)} for _ in range(3)]

    @jax.checkpoint
    def block(p, h):
        return h + jax.nn.gelu(h @ p["w1"]) @ p["w2"]

    def loss(params, x, y):
        for p in params:
            x = block(p, x)
        return jnp.mean((x - y) ** 2)

    x = rng.standard_normal((B * S, D)).astype(np.float32)
    y = rng.standard_normal((B * S, D)).astype(np.float32)
    ns = _named(mesh)
    p_specs = _tree_specs(params, _suffix_rule(mesh, {"w1": (None, "model"), "w2": ("model",)}))
    return JaxProgram(
        "checkpoint_block_grad",
        jax.grad(loss),
        (params, x, y),
        (p_specs, ns("data"), ns("data")),
        p_specs,
    )


def checkpoint_policy_scan_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of an MLP whose layers a `lax.scan` runs, each remat under MaxText's
    kind of policy (`dots_with_no_batch_dims_saveable`: the matmuls saved, the rest
    recomputed), which JAX lowers with a `stablehlo.reduce_precision` on what it
    recomputes; stacked weights split on `model`, Megatron-style, batch on `data`."""
    rng = np.random.default_rng(21)
    params = {"w1": _weights(rng, L, D, F), "w2": _weights(rng, L, F, D)}
    policy = jax.checkpoint_policies.dots_with_no_batch_dims_saveable

    def loss(params, x, y):
        @functools.partial(jax.checkpoint, policy=policy)
        def layer(h, p):
            return h + jax.nn.gelu(h @ p["w1"]) @ p["w2"], None

        h, _ = jax.lax.scan(layer, x, params)
        return jnp.mean((h - y) ** 2)

    x = rng.standard_normal((B * S, D)).astype(np.float32)
    y = rng.standard_normal((B * S, D)).astype(np.float32)
    ns = _named(mesh)
    p_specs = {"w1": ns(None, None, "model"), "w2": ns(None, "model")}
    return JaxProgram(
        "checkpoint_policy_scan_grad",
        jax.grad(loss),
        (params, x, y),
        (p_specs, ns("data"), ns("data")),
        p_specs,
    )


def rbg_dropout_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of an MLP with dropout whose key is an `unsafe_rbg` key, as MaxText
    makes them (`jax_default_prng_impl`): JAX draws the mask with
    `stablehlo.rng_bit_generator`. Megatron specs, batch on `data`, the key replicated."""
    rng = np.random.default_rng(22)
    params = {"w1": _weights(rng, D, F), "w2": _weights(rng, F, D)}

    def loss(params, x, key):
        h = jax.nn.relu(x @ params["w1"])
        keep = jax.random.bernoulli(key, 0.8, h.shape)
        h = jnp.where(keep, h / 0.8, 0.0)
        return jnp.mean((h @ params["w2"]) ** 2)

    x = rng.standard_normal((B * S, D)).astype(np.float32)
    key = jax.random.key(7, impl="unsafe_rbg")
    ns = _named(mesh)
    p_specs = {"w1": ns(None, "model"), "w2": ns("model", None)}
    return JaxProgram(
        "rbg_dropout_grad",
        jax.grad(loss),
        (params, x, key),
        (p_specs, ns("data"), ns()),
        p_specs,
    )


def complex_rope_attention_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of attention scores whose queries and keys are rotated by a rotary
    embedding written in complex numbers (`jax.lax.complex`, `exp(1j * theta)`, `.real`
    and `.imag`, as llama ports write it); batch on `data`, heads on `model`."""
    rng = np.random.default_rng(23)

    def rope(x, theta):
        z = jax.lax.complex(x[..., ::2], x[..., 1::2]) * jnp.exp(1j * theta)
        return jnp.stack([z.real, z.imag], -1).reshape(x.shape)

    def loss(q, k, theta):
        scores = jnp.einsum("bshd,bthd->bhst", rope(q, theta), rope(k, theta))
        return jnp.mean(jax.nn.softmax(scores, -1) ** 2)

    q = rng.standard_normal((B, S, H, 16)).astype(np.float32)
    k = rng.standard_normal((B, S, H, 16)).astype(np.float32)
    theta = rng.standard_normal((S, 1, 8)).astype(np.float32)
    ns = _named(mesh)
    heads = ns("data", None, "model")
    return JaxProgram(
        "complex_rope_attention_grad",
        jax.grad(loss, argnums=(0, 1)),
        (q, k, theta),
        (heads, heads, ns()),
        (heads, heads),
    )


def fourier_layer_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of a Fourier layer (as in Fourier neural operators): `jnp.fft.rfft`
    over the sequence, a learned complex mix of channels per mode, `irfft` back; batch on
    `data`, the mix's output channels on `model`. (With a 2-d `fft` of the result as well,
    `jax.jit`'s own partitioned program fails on XLA's CPU runtime, a RET_CHECK that the
    FFT's input be laid out dim 0 major, where `xshard.jit`'s runs and matches.)"""
    rng = np.random.default_rng(24)
    modes = S * 2 // 2 + 1
    w = {"re": _weights(rng, modes, D, D), "im": _weights(rng, modes, D, D)}

    def loss(w, x):
        spectrum = jnp.fft.rfft(x, axis=1)
        mixed = jnp.einsum("bmc,mcd->bmd", spectrum, jax.lax.complex(w["re"], w["im"]))
        y = jnp.fft.irfft(mixed, n=x.shape[1], axis=1)
        return jnp.mean(jax.nn.gelu(y) ** 2)

    x = rng.standard_normal((B, 2 * S, D)).astype(np.float32)
    ns = _named(mesh)
    w_specs = {"re": ns(None, None, "model"), "im": ns(None, None, "model")}
    return JaxProgram(
        "fourier_layer_grad", jax.grad(loss), (w, x), (w_specs, ns("data")), w_specs
    )


def fft_convolution_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of a long convolution computed by FFT (as Hyena and S4 compute
    theirs): each channel's kernel as long as the sequence, both zero-padded to twice
    its length, multiplied in frequency and cut back; batch on `data`, the kernels'
    channels on `model`. The kernels' gradient is a complex product summed over the
    batch: a partial complex value, which `shard-partition` once failed to mask (its
    identity, a complex zero, is a pair)."""
    rng = np.random.default_rng(29)
    n = 2 * S
    k = _weights(rng, n, D)

    def loss(k, x):
        spectrum = jnp.fft.rfft(x, n=2 * n, axis=1) * jnp.fft.rfft(k, n=2 * n, axis=0)
        y = jnp.fft.irfft(spectrum, n=2 * n, axis=1)[:, :n]
        return jnp.mean(y**2)

    x = rng.standard_normal((B, n, D)).astype(np.float32)
    ns = _named(mesh)
    k_spec = ns(None, "model")
    return JaxProgram("fft_convolution_grad", jax.grad(loss), (k, x), (k_spec, ns("data")), k_spec)


def sequence_cumsum_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of a causal running mean over a sequence split on `model` (the
    batch on `data`): `jnp.cumsum` along the sequence is a `reduce_window` whose halo
    (all earlier cells) is wider than a device's block, so that dim is gathered for it,
    while the batch stays split. Propagation once dropped both, and every device
    summed the whole batch."""
    rng = np.random.default_rng(31)
    w = _weights(rng, 2 * S, 4 * D)

    def loss(w, x):
        h = jnp.tanh(x @ w)
        steps = jnp.arange(1, x.shape[1] + 1, dtype=h.dtype)[None, :, None]
        return jnp.mean((jnp.cumsum(h, axis=1) / steps) ** 2)

    x = rng.standard_normal((B, 2 * S, 2 * S)).astype(np.float32)
    ns = _named(mesh)
    specs = (ns(), ns("data", "model"))
    return JaxProgram("sequence_cumsum_grad", jax.grad(loss), (w, x), specs, None)


def multisteps_lion_train_step(mesh: Mesh) -> JaxProgram:
    """`optax.MultiSteps` over `optax.lion`: gradients averaged over 2 calls in the
    optimizer state, the update applied on every second one (a `lax.cond`, whose
    accumulating branch adds the batch-partial gradient); the weight split by columns
    over `model`, the batch on `data`."""
    import optax

    rng = np.random.default_rng(24)
    params = {"w": _weights(rng, D, D)}
    x = rng.standard_normal((2 * B, D)).astype(np.float32)
    opt = optax.MultiSteps(optax.lion(1e-3), every_k_schedule=2)
    state = opt.init(params)

    def step(p, state, x):
        value, g = jax.value_and_grad(lambda p: jnp.mean(jnp.tanh(x @ p["w"]) ** 2))(p)
        updates, state = opt.update(g, state, p)
        return optax.apply_updates(p, updates), state, value

    ns = _named(mesh)
    columns = _suffix_rule(mesh, {"w": (None, "model")})
    return JaxProgram(
        "multisteps_lion_train_step",
        step,
        (params, state, x),
        (_tree_specs(params, columns), _tree_specs(state, columns), ns("data")),
        None,
    )


def cond_switch(mesh: Mesh) -> JaxProgram:
    """A layer whose activation is chosen by `lax.cond` on the data (the sign of a
    sum) and then by `lax.switch` on a traced index; weights split by columns."""
    rng = np.random.default_rng(16)
    w = _weights(rng, D, F)
    x = rng.standard_normal((B * S, D)).astype(np.float32)

    def layer(w, x, branch):
        h = x @ w
        h = jax.lax.cond(jnp.sum(h) > 0, jnp.tanh, lambda h: 0.5 * h, h)
        branches = [jax.nn.relu, jnp.sin, lambda h: h * jax.nn.sigmoid(h)]
        return jax.lax.switch(branch, branches, h)

    ns = _named(mesh)
    return JaxProgram(
        "cond_switch",
        layer,
        (w, x, np.int32(2)),
        (ns(None, "model"), ns("data"), ns()),
        ns("data", "model"),
    )


def custom_vjp_grad(mesh: Mesh) -> JaxProgram:
    """The gradient of an MLP through a `jax.custom_vjp` activation (a clipped gradient,
    as straight-through estimators write it) and a `jax.custom_jvp` one (softplus);
    Megatron specs, the batch on `data`. JAX inlines both rules at their call sites."""
    rng = np.random.default_rng(17)
    params = {"w1": _weights(rng, D, F), "w2": _weights(rng, F, D)}

    @jax.custom_vjp
    def clipped(h):
        return jnp.tanh(h)

    def clipped_fwd(h):
        return jnp.tanh(h), h

    def clipped_bwd(h, g):
        return (jnp.clip(g * (1 - jnp.tanh(h) ** 2), -1.0, 1.0),)

    clipped.defvjp(clipped_fwd, clipped_bwd)

    @jax.custom_jvp
    def softplus(h):
        return jnp.logaddexp(h, 0.0)

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        (h,), (t,) = primals, tangents
        return softplus(h), t * jax.nn.sigmoid(h)

    def loss(p, x):
        return jnp.mean(softplus(clipped(x @ p["w1"]) @ p["w2"]) ** 2)

    x = rng.standard_normal((B * S, D)).astype(np.float32)
    ns = _named(mesh)
    specs = {"w1": ns(None, "model"), "w2": ns("model", None)}
    return JaxProgram("custom_vjp_grad", jax.grad(loss), (params, x), (specs, ns("data")), specs)


def batchnorm_conv_train_step(mesh: Mesh) -> JaxProgram:
    """An SGD step of a flax conv net with BatchNorm in training mode (its batch
    statistics `E[x]` and `E[x^2]` over the `data`-split batch, returned updated), a
    depthwise conv, average and max pooling; each kernel split on its output channels
    over `model`; result layouts left to the partitioner, as `jax.jit` users leave
    them."""
    import flax.linen as nn
    import optax

    class Net(nn.Module):
        @nn.compact
        def __call__(self, x, train):
            x = nn.Conv(16, (3, 3))(x)
            x = nn.BatchNorm(use_running_average=not train)(x)
            x = nn.Conv(16, (3, 3), feature_group_count=16)(x)
            x = nn.avg_pool(nn.relu(x), (2, 2), (2, 2))
            x = nn.max_pool(x, (2, 2), (2, 2))
            return nn.Dense(10)(x.reshape(x.shape[0], -1))

    net = Net()
    rng = np.random.default_rng(21)
    x = rng.standard_normal((2 * B, 8, 8, 3)).astype(np.float32)
    y = np.arange(2 * B, dtype=np.int32) % 10
    variables = net.init(jax.random.key(21), x, False)

    def step(params, stats, x, y):
        def loss(p):
            out, updated = net.apply(
                {"params": p, "batch_stats": stats}, x, True, mutable=["batch_stats"]
            )
            return optax.softmax_cross_entropy_with_integer_labels(out, y).mean(), updated

        (value, updated), g = jax.value_and_grad(loss, has_aux=True)(params)
        return jax.tree.map(lambda a, b: a - 0.1 * b, params, g), updated["batch_stats"], value

    ns = _named(mesh)
    kernels = _suffix_rule(mesh, {"Conv_0/kernel": (None, None, None, "model"),
                                  "Conv_1/kernel": (None, None, None, "model")})
    params, stats = variables["params"], variables["batch_stats"]
    return JaxProgram(
        "batchnorm_conv_train_step",
        step,
        (params, stats, x, y),
        (_tree_specs(params, kernels), _tree_specs(stats, lambda _: ns()), ns("data"), ns("data")),
        None,
    )


def microbatch_column_parallel_grad(mesh: Mesh) -> JaxProgram:
    """Gradient accumulation over 4 microbatches in a `jax.lax.scan` (each split on
    `data` by its batch dim) of an MLP whose two weights are both split by columns over
    `model` (a layout a user picks for memory, not Megatron's pair): the backward dot
    of the second weight reads the hidden activation gathered, as the forward one does,
    so that its gradient comes out in the weight's own layout."""
    micro = 4
    rng = np.random.default_rng(22)
    params = (_weights(rng, D, F), _weights(rng, F, 8))
    xs = rng.standard_normal((micro, 2 * B, D)).astype(np.float32)
    ys = rng.standard_normal((micro, 2 * B, 8)).astype(np.float32)

    def step(p, xs, ys):
        def loss(p, x, y):
            return jnp.mean((jax.nn.gelu(x @ p[0]) @ p[1] - y) ** 2)

        def microbatch(acc, batch):
            value, g = jax.value_and_grad(loss)(p, *batch)
            return jax.tree.map(jnp.add, acc, g), value

        grads, values = jax.lax.scan(microbatch, jax.tree.map(jnp.zeros_like, p), (xs, ys))
        return jax.tree.map(lambda w, g: w - 0.1 * g / micro, p, grads), values.mean()

    ns = _named(mesh)
    columns = (ns(None, "model"), ns(None, "model"))
    return JaxProgram(
        "microbatch_column_parallel_grad",
        step,
        (params, xs, ys),
        (columns, ns(None, "data"), ns(None, "data")),
        None,
    )


# ------------------------------------------------------------------ shard_map


def shard_map_ring_allgather(mesh: Mesh) -> JaxProgram:
    """A ring all-gather in a fully manual `jax.shard_map`: each `model` device passes
    blocks to its right neighbour with `jax.lax.ppermute` 3 times and places each
    where it belongs, then the gathered rows meet a matmul outside the map."""
    n = mesh.shape["model"]
    ring = [(i, (i + 1) % n) for i in range(n)]

    def gather(block):
        me = jax.lax.axis_index("model")
        out = jnp.zeros((n, *block.shape), block.dtype).at[me].set(block)
        for k in range(1, n):
            block = jax.lax.ppermute(block, "model", ring)
            out = out.at[(me - k) % n].set(block)
        return out.reshape(n * block.shape[0], *block.shape[1:])

    def forward(x, w):
        whole = jax.shard_map(
            gather,
            mesh=mesh,
            in_specs=P(("data", "model")),
            out_specs=P("data"),
            check_vma=False,
        )(x)
        return jnp.tanh(whole @ w)

    rng = np.random.default_rng(17)
    x = rng.standard_normal((B * S, D)).astype(np.float32)
    ns = _named(mesh)
    return JaxProgram(
        "shard_map_ring_allgather",
        forward,
        (x, _weights(rng, D, D)),
        (ns(("data", "model")), ns()),
        ns("data"),
    )


def shard_map_partial_manual(mesh: Mesh) -> JaxProgram:
    """A row-parallel matmul in a `jax.shard_map` manual over `model` only
    (`axis_names={'model'}`): each device's partial product is `psum`med over
    `model`, while the batch's `data` split stays automatic."""

    def matmul(x, w):
        return jax.lax.psum(x @ w, "model")

    def forward(x, w):
        y = jax.shard_map(
            matmul,
            mesh=mesh,
            in_specs=(P(None, "model"), P("model")),
            out_specs=P(),
            axis_names={"model"},
        )(x, w)
        return jax.nn.relu(y)

    rng = np.random.default_rng(18)
    x = rng.standard_normal((B * S, D)).astype(np.float32)
    ns = _named(mesh)
    return JaxProgram(
        "shard_map_partial_manual",
        forward,
        (x, _weights(rng, D, F)),
        (ns("data", "model"), ns("model")),
        ns("data"),
    )


# ------------------------------------------------------------------ ODE, vocab, sequence


def diffrax_ode_solve(mesh: Mesh) -> JaxProgram:
    """A neural ODE's state at t1 by diffrax (`Heun`, 8 fixed steps of 0.125,
    `SaveAt(t1=True)`), the batch of initial states split on `data`, with the solver's
    error check on (`throw=True`, diffrax's default): a host callback in a `case` branch,
    which each device runs on the whole step-count flag (`guard-host-callbacks`)."""
    import diffrax

    n = 16
    rng = np.random.default_rng(19)

    def solve(w, y0):
        term = diffrax.ODETerm(lambda t, y, w: jnp.tanh(y @ w))
        solution = diffrax.diffeqsolve(
            term,
            diffrax.Heun(),
            t0=0.0,
            t1=1.0,
            dt0=0.125,
            y0=y0,
            args=w,
            saveat=diffrax.SaveAt(t1=True),
            max_steps=8,
        )
        return solution.ys[0]

    y0 = rng.standard_normal((B * 2, n)).astype(np.float32)
    ns = _named(mesh)
    return JaxProgram(
        "diffrax_ode_solve", solve, (_weights(rng, n, n), y0), (ns(), ns("data")), ns("data")
    )


def gaussian_process_grad(mesh: Mesh) -> JaxProgram:
    """A Gaussian process's negative log marginal likelihood and its gradient in the
    kernel's length scales and variance, by `jnp.linalg.cholesky` and `cho_solve`
    (LAPACK custom calls), the training points split on `data`: the kernel matrix is
    one matrix, factored whole on each device."""
    n, d = 16, 4
    rng = np.random.default_rng(23)

    def nll(p, x, y):
        diff = (x[:, None, :] - x[None, :, :]) / p["scale"]
        k = p["sig"] ** 2 * jnp.exp(-0.5 * jnp.sum(diff**2, -1)) + 0.1 * jnp.eye(n)
        chol = jnp.linalg.cholesky(k)
        alpha = jax.scipy.linalg.cho_solve((chol, True), y)
        return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(chol)))

    p = {"scale": np.ones(d, np.float32), "sig": np.float32(1.0)}
    x = rng.standard_normal((n, d)).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    ns = _named(mesh)
    return JaxProgram(
        "gaussian_process_grad",
        jax.value_and_grad(nll),
        (p, x, y),
        ({"scale": ns(), "sig": ns()}, ns("data"), ns("data")),
        None,
    )


def vocab_parallel_embedding_grad(mesh: Mesh) -> JaxProgram:
    """Loss and gradient of a tied embedding (lookup, then logits against the same
    table) whose table is split by vocabulary rows on `model`; tokens on `data`."""
    import optax

    rng = np.random.default_rng(20)
    table = _weights(rng, V, D)
    tokens = rng.integers(0, V, (B, S)).astype(np.int32)
    labels = rng.integers(0, V, (B, S)).astype(np.int32)

    def loss(table, tokens, labels):
        logits = jnp.take(table, tokens, axis=0) @ table.T
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    ns = _named(mesh)
    return JaxProgram(
        "vocab_parallel_embedding_grad",
        jax.value_and_grad(loss),
        (table, tokens, labels),
        (ns("model"), ns("data"), ns("data")),
        (ns(), ns("model")),
    )


def sequence_parallel_attention(mesh: Mesh) -> JaxProgram:
    """Causal multi-head self-attention with the sequence split on `model` and the batch
    on `data` (replicated weights): every query block needs keys from other devices."""
    rng = np.random.default_rng(21)
    k = D // H
    params = {name: _weights(rng, D, H, k) for name in ("wq", "wk", "wv")}
    params["wo"] = _weights(rng, H, k, D)

    def attention(p, x):
        q, kk, v = (jnp.einsum("bsd,dhk->bshk", x, p[w]) for w in ("wq", "wk", "wv"))
        scores = jnp.einsum("bqhk,bshk->bhqs", q, kk) / np.sqrt(k)
        scores = jnp.where(jnp.tril(jnp.ones((S, S), bool)), scores, -1e9)
        o = jnp.einsum("bhqs,bshk->bqhk", jax.nn.softmax(scores, -1), v)
        return x + jnp.einsum("bqhk,hkd->bqd", o, p["wo"])

    x = rng.standard_normal((B, S, D)).astype(np.float32)
    ns = _named(mesh)
    return JaxProgram(
        "sequence_parallel_attention",
        attention,
        (params, x),
        (_tree_specs(params, lambda _: ns()), ns("data", "model")),
        ns("data", "model"),
    )


def gpt_vocab_parallel_train_step(mesh: Mesh) -> JaxProgram:
    """An adamw step of a 2-block GPT written straight (no scan): token embedding and
    LM head split by vocabulary on `model` (vocab-parallel), Megatron blocks, the batch
    on `data`, the embedding lookup constrained to it (`with_sharding_constraint`)."""
    import optax

    rng = np.random.default_rng(22)
    blocks = []
    for _ in range(2):
        block = _gpt_params(rng)
        del block["head"]
        blocks.append(block)
    params = {"embed": _weights(rng, V, D), "blocks": blocks, "head": _weights(rng, D, V)}
    opt = optax.adamw(1e-3)
    state = opt.init(params)

    def loss(p, tokens, labels):
        x = jnp.take(p["embed"], tokens, axis=0)
        x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P("data")))
        for block in p["blocks"]:
            x = _gpt_block(block, x)
        logits = x @ p["head"]
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    def step(p, s, tokens, labels):
        value, grads = jax.value_and_grad(loss)(p, tokens, labels)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    ns, megatron = _named(mesh), _megatron(mesh)

    def rule(path: str) -> NamedSharding:
        leaf = path.rsplit("/", 1)[-1]
        if leaf == "embed":
            return ns("model")
        if leaf == "head":
            return ns(None, "model")
        return megatron(path)

    tokens = rng.integers(0, V, (B, S)).astype(np.int32)
    labels = rng.integers(0, V, (B, S)).astype(np.int32)
    p_specs, s_specs = _tree_specs(params, rule), _tree_specs(state, rule)
    return JaxProgram(
        "gpt_vocab_parallel_train_step",
        step,
        (params, state, tokens, labels),
        (p_specs, s_specs, ns("data"), ns("data")),
        (p_specs, s_specs, ns()),
    )


REGION_PROGRAMS: dict[str, Callable[[Mesh], JaxProgram]] = {
    "flax_scan_gpt_train_step": flax_scan_gpt_train_step,
    "equinox_scan_mlp": equinox_scan_mlp,
    "rnn_scan_grad": rnn_scan_grad,
    "fori_loop_solver": fori_loop_solver,
    "checkpoint_block_grad": checkpoint_block_grad,
    "checkpoint_policy_scan_grad": checkpoint_policy_scan_grad,
    "rbg_dropout_grad": rbg_dropout_grad,
    "complex_rope_attention_grad": complex_rope_attention_grad,
    "fourier_layer_grad": fourier_layer_grad,
    "fft_convolution_grad": fft_convolution_grad,
    "sequence_cumsum_grad": sequence_cumsum_grad,
    "grad_accumulation_scan": grad_accumulation_scan,
    "microbatch_column_parallel_grad": microbatch_column_parallel_grad,
    "batchnorm_conv_train_step": batchnorm_conv_train_step,
    "shard_map_ring_allgather": shard_map_ring_allgather,
    "shard_map_partial_manual": shard_map_partial_manual,
    "diffrax_ode_solve": diffrax_ode_solve,
    "gaussian_process_grad": gaussian_process_grad,
    "vocab_parallel_embedding_grad": vocab_parallel_embedding_grad,
    "sequence_parallel_attention": sequence_parallel_attention,
    "gpt_vocab_parallel_train_step": gpt_vocab_parallel_train_step,
    "cond_switch": cond_switch,
    "multisteps_lion_train_step": multisteps_lion_train_step,
    "custom_vjp_grad": custom_vjp_grad,
    "haiku_mlp_grad": haiku_mlp_grad,
}
