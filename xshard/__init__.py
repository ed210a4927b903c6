"""xshard: a pure-Python sharding compiler on xDSL.

Layers, each importable without the ones after it:
`xshard.sharding` (dialect-free core), `xshard.dialects`, `xshard.interfaces`,
`xshard.transforms`, `xshard.jax` (the jax/XLA bridge) and `xshard.cli`.
`xshard.jit`, the drop-in for `jax.jit`, loads the bridge (and jax) on first use;
`parse`, `apply`, `print_module`, `run_module`, `count_collectives` and `comm_report`
are the rest of the Python API (docs/api.md).
"""

__version__ = "0.1.0"

from xshard import xdsl_compat as _xdsl_compat  # noqa: E402, F401  (docs/xdsl-compat.md)

# The Python API (docs/api.md), each name loaded from its home on first use, so that
# `import xshard` loads no pass and no jax.
_EXPORTS = {
    "parse": "xshard.api",
    "apply": "xshard.api",
    "print_module": "xshard.api",
    "run_module": "xshard.jax.run",
    "count_collectives": "xshard.transforms.analysis.collective_count",
    "comm_report": "xshard.transforms.analysis.comm_report",
    "jit": "xshard.jax.sharded_jit",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'xshard' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(_EXPORTS[name]), name)
