"""Bytes of a tensor's elements, as the cost models, planners and reports count them:
an element narrower than a byte (i1) takes a whole byte, as in XLA."""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute


def element_bytes(t: TensorType) -> int:
    """Bytes per element; an element type without a bit width (index) counts as 4."""
    return max(getattr(t.element_type, "bitwidth", 32) // 8, 1)


def tensor_bytes(t: Attribute) -> int | None:
    """Bytes of a statically shaped tensor of elements with a bit width, else None."""
    if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
        return None
    if getattr(t.element_type, "bitwidth", None) is None:
        return None
    return prod(t.get_shape()) * element_bytes(t)
