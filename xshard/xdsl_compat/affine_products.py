"""Products in affine expressions, read as MLIR reads them.

Without this fix xDSL 0.74's affine parser raises `NotImplementedError` (a traceback)
on a product of two non-constant expressions: `s0 * s1`, valid MLIR, which upstream's
`test-grid-all-slice-op-lowering` writes, and `d0 * d1`, which is not affine and which
MLIR refuses. With it a product with a symbolic side (no dimension on one side) is an
`AffineBinaryOpExpr` multiplication, and a product of two dimension expressions is
MLIR's parse error; products with a constant side parse as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError

from xshard.xdsl_compat._patch import patch


def _affine_binop(original: Callable[..., Any]) -> Callable[..., Any]:
    def create(self: AffineParser, lhs: AffineExpr, rhs: AffineExpr, binop: Any) -> Any:
        if binop.text != "*" or AffineConstantExpr in {type(lhs), type(rhs)}:
            return original(self, lhs, rhs, binop)
        if lhs.used_dims() and rhs.used_dims():
            raise ParseError(
                binop.span,
                "non-affine expression: at least one of the multiply operands has to be "
                "either a constant or symbolic",
            )
        return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, lhs, rhs)

    return create


def apply() -> None:
    patch(AffineParser, "_create_binop_expr", _affine_binop)
