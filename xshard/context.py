"""An xDSL context with xDSL's dialects and xshard's, xshard's winning on a name clash."""

from xdsl.context import Context
from xdsl.universe import Universe

from xshard.dialects import get_xshard_dialects


def xshard_context(allow_unregistered: bool = False) -> Context:
    """Every dialect xDSL knows, with `shard`, `stablehlo` and `tcp` taken from xshard."""
    ctx = Context(allow_unregistered=allow_unregistered)
    dialects = dict(Universe.get_multiverse().all_dialects)
    dialects.update(get_xshard_dialects())
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
