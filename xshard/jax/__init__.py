"""The jax/XLA bridge: JAX functions to xDSL modules, and modules to runs on N devices.

The names below load on first use, so that passes importing the jax-free
`xshard.jax.broadcast_fallback` do not pay for importing jax.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "BridgeError": "xshard.jax.errors",
    "SpmdExecutable": "xshard.jax.runtime",
    "compile_spmd": "xshard.jax.runtime",
    "run_global": "xshard.jax.runtime",
    "run_spmd": "xshard.jax.runtime",
    "import_function": "xshard.jax.importer",
    "lower_to_text": "xshard.jax.importer",
    "module_text": "xshard.jax.importer",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from xshard.jax.errors import BridgeError
    from xshard.jax.importer import import_function, lower_to_text, module_text
    from xshard.jax.runtime import SpmdExecutable, compile_spmd, run_global, run_spmd


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'xshard.jax' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
