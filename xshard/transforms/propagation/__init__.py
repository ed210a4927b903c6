"""Propagation phase: complete the user's sharding annotations."""
