"""The one error type of the sharding core, kept apart so every module can raise it."""


class ShardingError(ValueError):
    """A grid, sharding or shape that breaks the rules of the shard dialect."""
