"""The real programs of `xshard.testing.jax_programs` (flax linen and nnx, equinox,
dm-haiku, optax), and a linen transformer block's adamw train step, lowered by plain
`jax.jit(f).lower(...)` (no shardings): xshard parses and verifies JAX's text, and the
module it prints, with its CHLO ops legalized to StableHLO, computes on one device what
`jax.jit` computes (XLA runs the `func.call`s of private helpers as they are).
"""

from __future__ import annotations

from importlib import import_module

import jax
import numpy as np
import pytest

from xshard.context import xshard_context
from xshard.jax import import_function, module_text, run_global
from xshard.testing import jax_programs
from xshard.testing.jax_programs import JaxProgram, mesh_2x4

ChloLegalizeToStablehloPass = import_module(
    "xshard.transforms.import.chlo_legalize_to_stablehlo"
).ChloLegalizeToStablehloPass


def transformer_block_adamw_step(mesh) -> JaxProgram:
    """`jax_programs.transformer_block`, trained: integer-label cross entropy through
    exact gelu (`chlo.erfc`), its gradient and an `optax.adamw` update."""
    import optax

    block = jax_programs.transformer_block(mesh)
    params, x = block.args
    labels = np.arange(x.shape[0], dtype=np.int32) % x.shape[-1]
    opt = optax.adamw(1e-3)

    def loss(p, x, y):
        h = jax.nn.gelu(block.fn(p, x), approximate=False)
        return optax.softmax_cross_entropy_with_integer_labels(h.mean(1), y).mean()

    def step(p, s, x, y):
        value, grads = jax.value_and_grad(loss)(p, x, y)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    return JaxProgram("transformer_block_adamw_step", step,
                      (params, opt.init(params), x, labels), None, None)


PROGRAMS = {
    **{name: build for name, build in jax_programs.PROGRAMS.items()
       # conv_block needs stablehlo.convolution, which another change adds.
       if name != "conv_block"},
    "transformer_block_adamw_step": transformer_block_adamw_step,
}

# Ops each program must hold, so that a JAX upgrade that stops emitting them shows here.
EXPECTED_OPS = {
    "gpt_train_step": {"stablehlo.gather", "stablehlo.scatter", "stablehlo.is_finite",
                       "stablehlo.power", "func.call"},
    "moe_layer": {"chlo.top_k"},
    "transformer_block_adamw_step": {"chlo.erfc", "chlo.square", "stablehlo.gather",
                                     "stablehlo.scatter"},
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_real_program_parses_verifies_and_runs_like_jax(name: str) -> None:
    program = PROGRAMS[name](mesh_2x4())
    module = import_function(program.fn, *program.args)
    module.verify()
    assert EXPECTED_OPS.get(name, set()) <= {op.name for op in module.walk()}
    ChloLegalizeToStablehloPass().apply(xshard_context(), module)
    module.verify()
    got = run_global(module_text(module), [np.asarray(a) for a in jax.tree.leaves(program.args)])
    want = [np.asarray(w) for w in jax.tree.leaves(jax.jit(program.fn)(*program.args))]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)
