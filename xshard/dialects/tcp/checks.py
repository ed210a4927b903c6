"""Element kinds and the operand checks TCP's verifiers share."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Flag, auto
from itertools import pairwise

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.builtin import (
    Signedness as BuiltinSignedness,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException


class Elements(Flag):
    """Element types an operand may have (upstream Tcp_FloatTensor, Tcp_IntTensor, ...)."""

    FLOAT = auto()
    INT = auto()
    ANY = FLOAT | INT


_ELEMENT_WORDS = {Elements.FLOAT: "float", Elements.INT: "signless integer",
                  Elements.ANY: "float or signless integer"}


def element_kind(element_type: Attribute) -> Elements | None:
    if isinstance(element_type, AnyFloat):
        return Elements.FLOAT
    if (
        isinstance(element_type, IntegerType)
        and element_type.signedness.data == BuiltinSignedness.SIGNLESS
    ):
        return Elements.INT
    return None


def tensor_operand(op: Operation, value: SSAValue, what: str, allowed: Elements) -> TensorType:
    """The tensor type of `value`, after checking its element type is allowed."""
    ty = value.type
    kind = element_kind(ty.element_type) if isinstance(ty, TensorType) else None
    if kind is None or kind not in allowed:
        raise VerifyException(
            f"'{op.name}' op {what} must be a ranked tensor of {_ELEMENT_WORDS[allowed]} "
            f"values, but got {ty}"
        )
    return ty


def dims_compatible(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC_INDEX or b == DYNAMIC_INDEX


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b, strict=True))


def int_list(attr: ArrayAttr[IntegerAttr[I64]]) -> list[int]:
    return [a.value.data for a in attr.data]


def check_axes(op: Operation, axes: list[int], rank: int) -> None:
    """Upstream's rules for a static `axes` list: in bounds, increasing, no duplicates."""
    if any(a < 0 or a >= rank for a in axes):
        raise VerifyException(
            f"'{op.name}' op failed to verify that attribute `axes` are in bounds"
        )
    if any(b < a for a, b in pairwise(axes)):
        raise VerifyException(
            f"'{op.name}' op failed to verify that attribute `axes` must be in increasing order"
        )
    if len(set(axes)) != len(axes):
        raise VerifyException(
            f"'{op.name}' op failed to verify that attribute `axes` must not have any duplicates"
        )
