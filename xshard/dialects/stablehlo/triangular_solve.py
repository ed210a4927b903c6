"""`stablehlo.triangular_solve`, which JAX emits for `lax.linalg.triangular_solve` on GPU,
and on CPU for element types LAPACK lacks (bf16, f16): `solve_triangular`, `cho_solve`."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, TensorType
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from xshard.dialects.stablehlo.attributes import TransposeAttr
from xshard.dialects.stablehlo.checks import fail, shape


@irdl_op_definition
class TriangularSolveOp(IRDLOperation):
    """Solves `op(a) x = b` (`left_side`) or `x op(a) = b` for `x`, `a` lower or upper
    triangular (`lower`), its diagonal taken as ones where `unit_diagonal`, `op` the
    identity, the transpose or the adjoint (`transpose_a`); the leading dims of `a` and
    `b` are a batch. Printed in the generic form, as StableHLO prints it.
    https://openxla.org/stablehlo/spec#triangular_solve"""

    name = "stablehlo.triangular_solve"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b = shape(self.a.type), shape(self.b.type)
        if len(a) < 2 or a[-1] != a[-2]:
            fail(self, f"a must be a batch of square matrices, got {self.a.type}")
        if len(b) != len(a) or b[:-2] != a[:-2]:
            fail(self, f"b must have a's rank and batch dims, got {self.a.type} and {self.b.type}")
        solved = b[-2] if self.left_side.value.data else b[-1]
        if solved != a[-1]:
            side = "rows" if self.left_side.value.data else "columns"
            fail(self, f"b's {side} must match a's order {a[-1]}, got {self.b.type}")
        if self.result.type != self.b.type:
            fail(self, f"result must have b's type, got {self.result.type}")
