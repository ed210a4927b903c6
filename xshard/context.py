"""An xDSL context with xDSL's dialects and xshard's, xshard's winning on a name clash."""

from collections.abc import Callable
from functools import cache

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.universe import Universe

from xshard.dialects import get_xshard_dialects


@cache
def xshard_dialects() -> dict[str, Callable[[], Dialect]]:
    """Each dialect's factory; read once, as xDSL's multiverse scans the installed
    packages' entry points on every call (~3 ms)."""
    dialects = dict(Universe.get_multiverse().all_dialects)
    dialects.update(get_xshard_dialects())
    return dialects


def xshard_context(allow_unregistered: bool = False) -> Context:
    """Every dialect xDSL knows, with `shard`, `stablehlo` and `tcp` taken from xshard."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in xshard_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
