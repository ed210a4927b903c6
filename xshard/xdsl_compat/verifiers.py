"""MLIR's checks that xDSL's verifiers of `linalg.reduce`, `linalg.transpose` and
`tosa.const` lack.

Without this fix xDSL 0.74
- indexes the shapes with `linalg.reduce`'s `dimensions` unchecked (one beyond the
  input's rank: `IndexError`) and accepts them in any order (`[1, 0]`); MLIR requires
  them in `[0, rank)` and increasing;
- indexes the shapes with `linalg.transpose`'s `permutation` before checking it is one
  (`[1, 2]` on a rank-2 input: `IndexError`) and accepts a negative entry (`[1, -2]`);
  MLIR's error is `permutation is not valid`;
- accepts a `tosa.const` whose value's shape or element type is not its result's
  (`dense<> : tensor<0xf32>` behind `tensor<1xf32>`), which MLIR's
  `AllShapesMatch<values, output>` refuses; a pass trusting the result type then
  crashes (xshard's partitioner did).
With it each is a verifier error with MLIR's message; valid ops verify as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import DenseArrayBase, ShapedType
from xdsl.dialects.linalg.ops import ReduceOp, TransposeOp
from xdsl.dialects.tosa import ConstOp as TosaConstOp
from xdsl.utils.exceptions import VerifyException

from xshard.xdsl_compat._patch import patch


def _reduce_verify(original: Callable[..., Any]) -> Callable[..., Any]:
    def verify_(self: ReduceOp) -> None:
        dims = self.properties.get("dimensions")
        if len(self.operands) == 2 and isinstance(dims, DenseArrayBase):
            values = dims.get_values()
            if any(b <= a for a, b in zip(values, values[1:], strict=False)):
                raise VerifyException(
                    "'linalg.reduce' op attribute 'dimensions' failed to satisfy constraint: "
                    "i64 dense array attribute should be in increasing order"
                )
            input_type = self.operands[0].type
            rank = input_type.get_num_dims() if isinstance(input_type, ShapedType) else None
            if rank is not None and any(not 0 <= d < rank for d in values):
                raise VerifyException(
                    "'linalg.reduce' op dimensions for reduction should be in the range "
                    f"[0, {rank - 1}]."
                )
        original(self)

    return verify_


def _transpose_verify(original: Callable[..., Any]) -> Callable[..., Any]:
    def verify_(self: TransposeOp) -> None:
        permutation = self.properties.get("permutation")
        if isinstance(permutation, DenseArrayBase):
            values = permutation.get_values()
            if sorted(values) != list(range(len(values))):
                raise VerifyException("'linalg.transpose' op permutation is not valid")
        original(self)

    return verify_


def _tosa_const_verify(original: Callable[..., Any]) -> Callable[..., Any]:
    def verify_(self: TosaConstOp) -> None:
        original(self)
        values, output = self.values.get_type(), self.output.type
        if isinstance(output, ShapedType) and values.get_shape() != output.get_shape():
            raise VerifyException(
                "'tosa.const' op failed to verify that all of {values, output} have same shape"
            )
        if isinstance(output, ShapedType) and values.element_type != output.element_type:
            raise VerifyException("'tosa.const' op expected same attr/result element types")

    return verify_


def apply() -> None:
    patch(ReduceOp, "verify_", _reduce_verify)
    patch(TransposeOp, "verify_", _transpose_verify)
    patch(TosaConstOp, "verify_", _tosa_const_verify)
