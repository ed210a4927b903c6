"""JAX functions in, xDSL modules out, and xDSL modules back to text XLA compiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.errors import BridgeError
from xshard.xdsl_compat.printing import text


def lower_to_text(fn: Callable[..., Any], *example_args: Any) -> str:
    """JAX's pretty StableHLO for `jax.jit(fn)` at the example arguments' shapes."""
    return jax.jit(fn).lower(*example_args).as_text()


def import_function(fn: Callable[..., Any], *example_args: Any) -> ModuleOp:
    """`fn` lowered by JAX and parsed into xshard's StableHLO subset."""
    text = lower_to_text(fn, *example_args)
    try:
        return LocatingParser(xshard_context(), text, "<jax>").parse_module()
    except ParseError as err:
        raise BridgeError(
            f"JAX's StableHLO for {getattr(fn, '__name__', fn)!r} is outside what xshard "
            f"parses:\n{err}"
        ) from err


def module_text(module: ModuleOp) -> str:
    """xshard's printed text of `module`, the form handed to XLA."""
    return text(module)
