"""Export passes: from per-device shard-dialect programs to StableHLO for XLA."""
