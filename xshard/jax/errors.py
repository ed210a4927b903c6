"""The exception types of the bridge."""


class BridgeError(Exception):
    """A module or its inputs cannot run: raised before XLA would crash or after it refused."""


class XShardCallError(ValueError):
    """A call of an `xshard.jit` function that does not fit it: an argument missing or of
    the wrong structure, shape, dtype or sharding (the message names it)."""
