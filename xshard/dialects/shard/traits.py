"""Canonicalization traits whose patterns `xshard.dialects.shard.canonicalization`
registers: op definitions name the trait, the patterns (which match on the ops)
fill it in, so imports run one way, from the patterns to the ops."""

from __future__ import annotations

from typing import ClassVar

from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait


class RegisteredCanonicalization(HasCanonicalizationPatternsTrait):
    patterns: ClassVar[tuple[RewritePattern, ...]] = ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return cls.patterns


class EmptyGridAxesCanonicalization(RegisteredCanonicalization):
    """Collectives over no grid axes."""


class ShardingCanonicalization(RegisteredCanonicalization):
    """`shard.sharding` with constant dynamic sizes."""


class ShardCanonicalization(RegisteredCanonicalization):
    """Duplicate `shard.shard` ops."""
