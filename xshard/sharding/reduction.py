"""Reduction kinds, as in the shard dialect's `#shard.partial` enum."""

from enum import auto

from xdsl.utils.str_enum import StrEnum


class ReductionKind(StrEnum):
    """How the partial values held along a grid axis combine into the true value."""

    SUM = auto()
    MAX = auto()
    MIN = auto()
    PRODUCT = auto()
    AVERAGE = auto()
    BITWISE_AND = auto()
    BITWISE_OR = auto()
    BITWISE_XOR = auto()
    GENERIC = auto()
