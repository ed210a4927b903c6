"""xshard: a pure-Python sharding compiler on xDSL.

Layers, each importable without the ones after it:
`xshard.sharding` (dialect-free core), `xshard.dialects`, `xshard.interfaces`,
`xshard.transforms`, `xshard.jax` (the jax/XLA bridge) and `xshard.cli`.
`xshard.jit`, the drop-in for `jax.jit`, loads the bridge (and jax) on first use.
"""

__version__ = "0.1.0"

from xshard import xdsl_fixes as _xdsl_fixes  # noqa: E402, F401  (hex float literals; see module)
from xshard import xdsl_input_fixes as _xdsl_input_fixes  # noqa: E402, F401  (see module)
from xshard import xdsl_upstream_syntax as _xdsl_upstream_syntax  # noqa: E402, F401  (%0:2)


def __getattr__(name: str) -> object:
    if name == "jit":
        from xshard.jax.sharded_jit import jit

        return jit
    raise AttributeError(f"module 'xshard' has no attribute {name!r}")
