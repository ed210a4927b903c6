"""Partition phase: from the global annotated program to the per-device program."""
