"""Helpers for testing xshard passes by running their output (also for users' own passes)."""
