"""The comm-report table for XLA's own partitioning of a few JAX programs.

Each example is `jax.jit`-compiled on 8 devices with the given shardings
(`jax.jit(f, in_shardings=..., out_shardings=...).lower(...).compile().as_text()`);
the collectives in the compiled HLO are read from the text and printed with
comm-report's row model and cost model (xshard/transforms/analysis/comm_report.py),
so the table compares line by line with `xshard-opt -p comm-report` on xshard's
output for the same program.

    python tools/xla_comm_report.py                  # every example
    python tools/xla_comm_report.py megatron_mlp     # one

The HLO is read by `xshard.jax.hlo_collectives`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from xshard.jax.hlo_collectives import hlo_rows
from xshard.transforms.analysis.comm_report import CommRow, report_lines

# ---------------------------------------------------------------- examples


def _examples() -> dict[str, Callable[[], tuple[Any, tuple[Any, ...]]]]:
    """name -> () -> (jitted function, abstract arguments), on a 1-d mesh of 8."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((8,), ("m",))

    def s(*spec: str | None) -> NamedSharding:
        return NamedSharding(mesh, P(*spec))

    def arg(*shape: int) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(shape, jnp.float32)

    def mlp(x, w1, w2):
        return jax.nn.relu(x @ w1) @ w2

    def residual(x, a, b):
        return x @ a + x @ b

    def masked_psum(x):
        root = jax.lax.axis_index("m") == 3
        return jax.lax.psum(jnp.where(root, x, 0.0), "m")

    weights = (s(None, "m"), s("m", None))
    return {
        # Megatron: column- then row-parallel weights, replicated activations.
        "megatron_mlp": lambda: (
            jax.jit(mlp, in_shardings=(s(), *weights), out_shardings=s()),
            (arg(16, 32), arg(32, 64), arg(64, 32)),
        ),
        # Sequence parallel: activations split along the sequence outside the MLP.
        "sequence_parallel_mlp": lambda: (
            jax.jit(mlp, in_shardings=(s("m"), *weights), out_shardings=s("m")),
            (arg(16, 32), arg(32, 64), arg(64, 32)),
        ),
        # The RFC's weight-stationary MLP: x and y split on the model dim.
        "weight_stationary_mlp": lambda: (
            jax.jit(
                mlp,
                in_shardings=(s(None, None, "m"), *weights),
                out_shardings=s(None, None, "m"),
            ),
            (arg(4, 8, 64), arg(64, 128), arg(128, 64)),
        ),
        # Two partial sums (contraction over the split dim) meet at an add.
        "residual_block": lambda: (
            jax.jit(
                residual,
                in_shardings=(s(None, "m"), s("m", None), s("m", None)),
                out_shardings=s(),
            ),
            (arg(16, 32), arg(32, 32), arg(32, 32)),
        ),
        # psum of a value masked to device 3: the collective_broadcast RFC's idiom.
        "masked_psum_broadcast": lambda: (
            jax.jit(jax.shard_map(masked_psum, mesh=mesh, in_specs=P("m"), out_specs=P())),
            (jax.ShapeDtypeStruct((64,), jnp.float32, sharding=s("m")),),
        ),
    }


def xla_rows(name: str) -> list[CommRow]:
    """The collectives XLA compiles example `name` to."""
    fn, args = _examples()[name]()
    return hlo_rows(fn.lower(*args).compile().as_text(), 8)


def main(argv: list[str]) -> int:
    os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    names = argv or list(_examples())
    unknown = [n for n in names if n not in _examples()]
    if unknown:
        print(f"unknown example(s) {unknown}; known: {list(_examples())}", file=sys.stderr)
        return 2
    for name in names:
        print("\n".join(report_lines(f"{name} (jax.jit, XLA)", xla_rows(name))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
