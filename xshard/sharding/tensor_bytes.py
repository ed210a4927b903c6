"""Bytes of a tensor's elements, as the cost models, planners and reports count them:
an element narrower than a byte (i1) takes a whole byte, as in XLA."""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import ComplexType, TensorType
from xdsl.ir import Attribute


def _bits(element: Attribute) -> int | None:
    """An element's width: a complex number's is its two parts'."""
    if isinstance(element, ComplexType):
        part = _bits(element.element_type)
        return None if part is None else 2 * part
    return getattr(element, "bitwidth", None)


def element_bytes(t: TensorType) -> int:
    """Bytes per element; an element type without a bit width (index) counts as 4."""
    bits = _bits(t.element_type)
    return max((32 if bits is None else bits) // 8, 1)


def tensor_bytes(t: Attribute) -> int | None:
    """Bytes of a statically shaped tensor of elements with a bit width, else None."""
    if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
        return None
    if _bits(t.element_type) is None:
        return None
    return prod(t.get_shape()) * element_bytes(t)
