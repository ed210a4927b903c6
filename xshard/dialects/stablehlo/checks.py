"""Small helpers the StableHLO verifiers share: error messages and type predicates."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, ComplexType, IntegerType, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException


def fail(op: Operation, message: str) -> NoReturn:
    """Raise the verifier error the way MLIR words it: `'stablehlo.x' op <message>`."""
    raise VerifyException(f"'{op.name}' op {message}")


def tensor(op: Operation, value_type: Attribute, what: str) -> TensorType:
    if not isinstance(value_type, TensorType):
        fail(op, f"{what} must be a ranked tensor, got {value_type}")
    return value_type


def shape(value_type: Attribute) -> tuple[int, ...]:
    assert isinstance(value_type, TensorType)
    return value_type.get_shape()


def element_type(value_type: Attribute) -> Attribute:
    assert isinstance(value_type, TensorType)
    return value_type.element_type


def dim_matches(a: int, b: int) -> bool:
    """Two dimension sizes agree, a dynamic size (`?`) agreeing with any."""
    return a == b or DYNAMIC_INDEX in (a, b)


def shapes_match(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dim_matches(x, y) for x, y in zip(a, b, strict=True))


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def is_complex(t: Attribute) -> bool:
    return isinstance(t, ComplexType)


def is_bool(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def is_integer(t: Attribute) -> bool:
    """A non-boolean integer (StableHLO's si/ui types)."""
    return isinstance(t, IntegerType) and t.width.data > 1


def is_unique(values: Sequence[int]) -> bool:
    return len(set(values)) == len(values)


def check_dims_in_range(op: Operation, name: str, dims: Sequence[int], rank: int) -> None:
    for d in dims:
        if not 0 <= d < rank:
            fail(op, f"{name} contains {d}, out of range [0, {rank})")
    if not is_unique(dims):
        fail(op, f"{name} must be unique, got {list(dims)}")
