"""One device's memory as XLA's `memory_analysis()` of a compiled executable gives it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Memory:
    """One device's bytes, as XLA's `CompiledMemoryStats` gives them."""

    temp: int
    argument: int
    output: int
    alias: int

    @classmethod
    def of(cls, compiled: Any) -> Memory:
        """The figures of a compiled executable (`jax.jit`'s or `xshard.jit`'s)."""
        stats = compiled.memory_analysis()
        return cls(
            stats.temp_size_in_bytes,
            stats.argument_size_in_bytes,
            stats.output_size_in_bytes,
            stats.alias_size_in_bytes,
        )

    @property
    def total(self) -> int:
        """What the call holds at its peak: arguments, results and temporaries, less the
        results that reuse argument buffers."""
        return self.argument + self.output + self.temp - self.alias
