"""The jax/XLA bridge: JAX functions to xDSL modules, and modules to runs on N devices.

The names below load on first use, so that importing this package (as importing
`xshard.jax.run` does) imports no jax before a driver has set XLA's flags.
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
    "XShardCallError": "xshard.jax.errors",
    "set_cache_dir": "xshard.jax.compile_cache",
    "jit": "xshard.jax.sharded_jit",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from xshard.jax.compile_cache import set_cache_dir as set_cache_dir
    from xshard.jax.errors import BridgeError as BridgeError
    from xshard.jax.errors import XShardCallError as XShardCallError
    from xshard.jax.importer import import_function as import_function
    from xshard.jax.importer import lower_to_text as lower_to_text
    from xshard.jax.importer import module_text as module_text
    from xshard.jax.runtime import SpmdExecutable as SpmdExecutable
    from xshard.jax.runtime import compile_spmd as compile_spmd
    from xshard.jax.runtime import run_global as run_global
    from xshard.jax.runtime import run_spmd as run_spmd
    from xshard.jax.sharded_jit import jit as jit


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'xshard.jax' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
