"""Collective optimisations over per-device (shard-level) IR, one pass per module."""
