"""Train a small character-level GPT with `xshard.jit`, Megatron + data parallel.

The model is a flax linen GPT whose blocks are one `nn.scan` (parameters stacked on a
leading layer dim, as MaxText and levanter stack them), trained with optax adamw on
`examples/data/tiny.txt` (public-domain poems and prose). The train step is written
for `jax.jit` and handed to `xshard.jit` unchanged, with the shardings a `jax.jit`
user gives it on a 2x4 mesh (`data`, `model`): attention heads and the MLP's hidden
units split over `model` (Megatron), the batch over `data`, parameters and optimizer
state donated.

    python examples/train_gpt.py                    # xshard.jit, 200 steps
    python examples/train_gpt.py --jax              # the same steps with jax.jit
    python examples/train_gpt.py --compare          # both, from the same state and data

Two processes of 4 CPU devices each (`jax.distributed`), the same 2x4 mesh:

    python examples/train_gpt.py --num-processes 2 --process-id 0 --coordinator localhost:1234 &
    python examples/train_gpt.py --num-processes 2 --process-id 1 --coordinator localhost:1234
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# 8 simulated CPU devices: XLA reads this when jax starts its CPU client.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import xshard  # noqa: E402

TEXT = Path(__file__).with_name("data") / "tiny.txt"
HEADS = 4
"""One head per `model` device."""
WARMUP = 5
"""Steps left out of the step-time median: the first compiles, the next few settle."""

MEGATRON = {
    # Stacked by nn.scan: dim 0 is the layer. q/k/v kernels are [L, D, H, K] and the
    # output projection [L, H, K, D]: heads split. The MLP splits its hidden units:
    # the first layer by columns, the second by rows, so each block needs one all-reduce.
    "attn/query/kernel": P(None, None, "model"),
    "attn/key/kernel": P(None, None, "model"),
    "attn/value/kernel": P(None, None, "model"),
    "attn/out/kernel": P(None, "model"),
    "mlp_in/kernel": P(None, None, "model"),
    "mlp_in/bias": P(None, "model"),
    "mlp_out/kernel": P(None, "model"),
}
"""A parameter's spec by the end of its path; everything else is replicated."""


class Block(nn.Module):
    """Pre-norm causal self-attention and MLP. Attention has no biases: a key bias's
    gradient is zero in exact arithmetic, and adam would turn its rounding noise into
    whole steps, which differ between any two compilers."""

    heads: int

    @nn.compact
    def __call__(self, x: jax.Array, _: None) -> tuple[jax.Array, None]:
        width = x.shape[-1]
        h = nn.LayerNorm()(x)
        mask = nn.make_causal_mask(jnp.ones(x.shape[:2]))
        x = x + nn.MultiHeadDotProductAttention(self.heads, use_bias=False, name="attn")(
            h, h, mask=mask
        )
        h = nn.gelu(nn.Dense(4 * width, name="mlp_in")(nn.LayerNorm()(x)))
        return x + nn.Dense(width, name="mlp_out")(h), None


class Gpt(nn.Module):
    """Token and position embeddings, `layers` blocks as one `nn.scan`, and a head tied
    to the token embedding."""

    vocab: int
    width: int
    layers: int

    @nn.compact
    def __call__(self, tokens: jax.Array) -> jax.Array:
        init = nn.initializers.normal(0.02)  # GPT-2's
        embed = nn.Embed(self.vocab, self.width, embedding_init=init, name="embed")
        positions = nn.Embed(tokens.shape[1], self.width, embedding_init=init, name="positions")
        x = embed(tokens) + positions(jnp.arange(tokens.shape[1]))
        blocks = nn.scan(
            Block, variable_axes={"params": 0}, split_rngs={"params": True}, length=self.layers
        )
        x, _ = blocks(HEADS, name="layers")(x, None)
        return embed.attend(nn.LayerNorm()(x))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=16, help="sequences per step")
    parser.add_argument("--seq", type=int, default=64, help="characters per sequence")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=64, help="model width (4 heads)")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=20, help="loss curve: every N steps")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--jax", action="store_true", help="train with jax.jit instead")
    side.add_argument("--compare", action="store_true", help="train with both and compare")
    parser.add_argument("--process-id", type=int, default=0)
    parser.add_argument("--num-processes", type=int, default=1)
    parser.add_argument("--coordinator", default="localhost:1234", help="host:port")
    return parser.parse_args(argv)


def path_shardings(tree: Any, mesh: Mesh) -> Any:
    """A `NamedSharding` per leaf from its path (`MEGATRON`); optax's adam moments have
    the parameters' paths under theirs, so they are split like the parameters."""

    def sharding(path: Any, _: Any) -> NamedSharding:
        name = "/".join(str(getattr(k, "key", getattr(k, "name", k))) for k in path)
        spec = next((s for end, s in MEGATRON.items() if name.endswith(end)), P())
        return NamedSharding(mesh, spec)

    return jax.tree_util.tree_map_with_path(sharding, tree)


class Data:
    """Random windows of the text: batch i is the same for every run and process."""

    def __init__(self, text: str, args: argparse.Namespace, mesh: Mesh) -> None:
        self.chars = sorted(set(text))
        self.ids = np.array([self.chars.index(c) for c in text], np.int32)
        self.batch, self.seq, self.seed = args.batch, args.seq, args.seed
        self.sharding = NamedSharding(mesh, P("data"))

    def __call__(self, step: int) -> tuple[jax.Array, jax.Array]:
        """Inputs and next-character targets of step `step`, as global arrays split over
        `data`: each process fills the rows of its own devices."""
        rng = np.random.default_rng((self.seed, step))
        starts = rng.integers(0, len(self.ids) - self.seq - 1, self.batch)
        windows = self.ids[starts[:, None] + np.arange(self.seq + 1)]
        return tuple(
            jax.make_array_from_callback(x.shape, self.sharding, lambda index, x=x: x[index])
            for x in (windows[:, :-1], windows[:, 1:])
        )


class Run:
    """One side's training: its compiled step, its parameters and optimizer state, and
    the loss and wall time of every step so far."""

    def __init__(self, name: str, jit: Any, args: argparse.Namespace, mesh: Mesh, data: Data):
        model = Gpt(len(data.chars), args.width, args.layers)
        warmup = max(1, args.steps // 10)
        schedule = optax.warmup_cosine_decay_schedule(0.0, args.lr, warmup, args.steps + warmup)
        optimizer = optax.adamw(schedule, weight_decay=0.01)

        def init(key):
            return model.init(key, jnp.zeros((args.batch, args.seq), jnp.int32))

        def train_step(params, opt_state, tokens, targets):
            def loss_fn(params):
                logits = model.apply(params, tokens)
                return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()

            loss, grads = jax.value_and_grad(loss_fn)(params)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, loss

        params_shape = jax.eval_shape(init, jax.random.key(args.seed))
        param_shardings = path_shardings(params_shape, mesh)
        state_shardings = path_shardings(jax.eval_shape(optimizer.init, params_shape), mesh)
        # Initialized in place on the mesh, so every process holds only its shards.
        self.params = jax.jit(init, out_shardings=param_shardings)(jax.random.key(args.seed))
        self.opt_state = jax.jit(optimizer.init, out_shardings=state_shardings)(self.params)
        batch = data.sharding
        self.train_step = jit(
            train_step,
            in_shardings=(param_shardings, state_shardings, batch, batch),
            out_shardings=(param_shardings, state_shardings, NamedSharding(mesh, P())),
            donate_argnums=(0, 1),
        )
        self.name, self.losses, self.seconds = name, [], []

    def step(self, tokens: jax.Array, targets: jax.Array) -> None:
        """One adamw step; the old parameters and state are donated to the new."""
        start = time.perf_counter()
        self.params, self.opt_state, loss = self.train_step(
            self.params, self.opt_state, tokens, targets
        )
        self.losses.append(float(loss))
        self.seconds.append(time.perf_counter() - start)

    @property
    def step_time(self) -> float:
        """The median step time after warm-up (compilation is in the first step)."""
        return statistics.median(self.seconds[WARMUP:] or self.seconds)


def progress(runs: list[Run], args: argparse.Namespace) -> None:
    """One line, redrawn in place: step, then each side's loss and tokens/s over its
    last 10 steps."""
    done = len(runs[0].losses)
    bar = "#" * (30 * done // args.steps)
    line = f"\r[{bar:<30}] {done:>4}/{args.steps}"
    for r in runs:
        rate = args.batch * args.seq * len(r.seconds[-10:]) / sum(r.seconds[-10:])
        line += f"  {r.name} loss {r.losses[-1]:.4f} {rate:>7,.0f} tok/s"
    print(line, end="\n" if done == args.steps else "", flush=True)


def report(runs: list[Run], args: argparse.Namespace) -> None:
    """The loss curves side by side, then final losses and step times."""
    print("\nstep  " + "".join(f"{r.name:>12}" for r in runs))
    for i in sorted({*range(0, args.steps, args.every), args.steps - 1}):
        print(f"{i + 1:>4}  " + "".join(f"{r.losses[i]:>12.4f}" for r in runs))
    print()
    for r in runs:
        print(
            f"{r.name:<10} final loss {r.losses[-1]:.4f}  step {1e3 * r.step_time:.1f} ms "
            f"({args.batch * args.seq / r.step_time:,.0f} tok/s; first step, compiling: "
            f"{r.seconds[0]:.1f} s)"
        )
    if len(runs) == 2:
        ours, theirs = runs
        gap = abs(ours.losses[-1] - theirs.losses[-1]) / abs(theirs.losses[-1])
        print(f"final losses differ by {gap:.2e} (relative)")
        print(
            f"step time {ours.name} / {theirs.name}: {ours.step_time / theirs.step_time:.2f}x"
            f" (median of steps {WARMUP + 1}-{args.steps})"
        )


def main(argv: list[str] | None = None) -> list[Run]:
    """Train as the flags say; returns the runs (xshard.jit's first)."""
    args = parse_args(argv)
    if args.num_processes > 1:
        # Before the CPU client starts: the 8 devices are split over the processes.
        jax.config.update("jax_num_cpu_devices", 8 // args.num_processes)
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
        jax.distributed.initialize(args.coordinator, args.num_processes, args.process_id)
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
    data = Data(TEXT.read_text(), args, mesh)
    if jax.process_index() == 0:
        print(
            f"GPT: {args.layers} layers, width {args.width}, {HEADS} heads, vocab "
            f"{len(data.chars)}; batch {args.batch} x {args.seq} characters; mesh "
            f"{dict(mesh.shape)} on {jax.device_count()} devices, "
            f"{jax.process_count()} process(es)"
        )
    sides = {"xshard.jit": xshard.jit, "jax.jit": jax.jit}
    if args.jax:
        sides.pop("xshard.jit")
    elif not args.compare:
        sides.pop("jax.jit")
    runs = [Run(name, jit, args, mesh, data) for name, jit in sides.items()]
    for i in range(args.steps):
        tokens, targets = data(i)
        # In lockstep, so that both sides' step times see the same load on the machine.
        for run in runs:
            run.step(tokens, targets)
        if jax.process_index() == 0:
            progress(runs, args)
    if jax.process_index() == 0:
        report(runs, args)
    else:
        print(f"process {jax.process_index()}: final loss {runs[0].losses[-1]:.4f}")
    if args.num_processes > 1:
        jax.distributed.shutdown()
    return runs


if __name__ == "__main__":
    main(sys.argv[1:])
