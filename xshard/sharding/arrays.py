"""numpy arrays for the IR's tensors: element types as dtypes, and seeded random
values for a function's arguments (what `xshard-run` and the numerics tests feed)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from xshard.diagnostics import DiagnosticError


def element_dtype(element: Attribute, where: Operation) -> np.dtype:
    """The numpy dtype of a tensor element type; `where` locates the refusal of others."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        unsigned = element.signedness.data == Signedness.UNSIGNED
        if width in (8, 16, 32, 64):
            return np.dtype(f"{'u' if unsigned else ''}int{width}")
    if isinstance(element, Float16Type | Float32Type | Float64Type):
        return np.dtype(f"float{element.bitwidth}")
    if isinstance(element, BFloat16Type):
        import ml_dtypes  # shipped with jax

        return np.dtype(ml_dtypes.bfloat16)
    if isinstance(element, ComplexType) and isinstance(
        part := element.element_type, Float32Type | Float64Type
    ):
        return np.dtype(f"complex{2 * part.bitwidth}")
    raise DiagnosticError(where, f"cannot make random inputs of element type {element}")


def static_tensor(type_: Attribute, where: Operation) -> TensorType[Any]:
    if not isinstance(type_, TensorType) or any(d < 0 for d in type_.get_shape()):
        raise DiagnosticError(where, f"expected statically shaped tensors, got {type_}")
    return type_


def random_inputs(fn: func.FuncOp, rng: np.random.Generator) -> list[np.ndarray]:
    """One global value per argument: floats standard normal, integers in [-4, 4]
    ([0, 8] unsigned), booleans fair coins."""
    values = []
    for type_ in fn.function_type.inputs:
        tensor = static_tensor(type_, fn)
        shape, dtype = tensor.get_shape(), element_dtype(tensor.element_type, fn)
        if dtype == np.bool_:
            values.append(rng.integers(0, 2, size=shape).astype(dtype))
        elif dtype.kind in "iu":
            low = 0 if dtype.kind == "u" else -4
            values.append(rng.integers(low, low + 9, size=shape).astype(dtype))
        else:
            values.append(rng.standard_normal(shape).astype(dtype))
    return values
