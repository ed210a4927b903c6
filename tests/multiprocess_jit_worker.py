"""One process of `test_sharded_jit.py`'s `jax.distributed` run: 2 processes x 4 CPUs.

    python tests/multiprocess_jit_worker.py PROCESS_ID PORT

Each process builds the 2x4 mesh over all 8 devices (its own 4 are one row of it),
places the real arguments of two programs as global jax.Arrays from host data, calls
`xshard.jit` and `jax.jit` on them, and prints one JSON line per program: whether the
result shardings agree, the largest difference of the shards it holds, relative to
their magnitude, and a hash of xshard's per-device program, which every process
compiles for itself and so must print alike. Cross-process collectives on CPU go through gloo.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402

import xshard  # noqa: E402
from xshard.testing.jax_programs import PROGRAMS, mesh_2x4  # noqa: E402

PROGRAM_NAMES = ("transformer_block", "gpt_train_step")


def global_arrays(args, shardings):
    """Host data all processes share, as global arrays: each process fills its shards."""

    def place(x, sharding):
        x = np.asarray(x)
        return jax.make_array_from_callback(x.shape, sharding, lambda index: x[index])

    per_leaf = jax.tree.map(
        lambda s, sub: jax.tree.map(lambda _: s, sub),
        shardings,
        args,
        is_leaf=lambda s: isinstance(s, NamedSharding),
    )
    return jax.tree.map(place, args, per_leaf)


def main(process_id: int, port: str) -> None:
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(f"localhost:{port}", num_processes=2, process_id=process_id)
    mesh = mesh_2x4()
    for name in PROGRAM_NAMES:
        program = PROGRAMS[name](mesh)
        args = global_arrays(program.args, program.in_shardings)
        jitted = xshard.jit(
            program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings
        )
        ours = jitted(*args)
        text = jitted.lower(*args).as_text()
        want = program.jitted()(*args)
        same_shardings, worst = True, 0.0
        for got, ref in zip(jax.tree.leaves(ours), jax.tree.leaves(want), strict=True):
            same_shardings &= got.sharding.is_equivalent_to(ref.sharding, got.ndim)
            for a, b in zip(got.addressable_shards, ref.addressable_shards, strict=True):
                a, b = np.asarray(a.data, np.float64), np.asarray(b.data, np.float64)
                scale = max(1.0, float(np.abs(b).max(initial=0.0)))
                worst = max(worst, float(np.abs(a - b).max(initial=0.0)) / scale)
        report = {
            "process": process_id,
            "program": name,
            "processes": jax.process_count(),
            "devices": jax.device_count(),
            "local_devices": jax.local_device_count(),
            "same_shardings": bool(same_shardings),
            "max_error": worst,
            "program_sha256": hashlib.sha256(text.encode()).hexdigest(),
        }
        print(json.dumps(report), flush=True)
    jax.distributed.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
