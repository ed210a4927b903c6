"""The one exception type of the bridge."""


class BridgeError(Exception):
    """A module or its inputs cannot run: raised before XLA would crash or after it refused."""
