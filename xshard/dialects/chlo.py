"""CHLO, StableHLO's "client" ops: the ones JAX emits for special functions and top-k.

XLA reads them, but they are not StableHLO: `chlo-legalize-to-stablehlo` decomposes
them before sharding (see `docs/dialects/chlo.md`). Pretty forms are upstream's
(`stablehlo/dialect/ChloOps.td`):

    %e = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
    %values, %indices = chlo.top_k(%x, k = 3)
        : tensor<4x16xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)

Only the ops JAX emits for real models (and their siblings with simple real forms) are
here: no broadcasting ops (JAX emits them only for dynamic shapes), no complex forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, TensorType, i1, i32, i64
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xshard.dialects.parsing import parse_signed_integer
from xshard.dialects.stablehlo.checks import (
    element_type,
    fail,
    is_complex,
    is_float,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.syntax import parse_attr_dict, print_attr_dict


class UnaryOp(IRDLOperation):
    """`%r = chlo.<op> %x : tensor<...> -> tensor<...>`, elementwise."""

    ALLOWS_COMPLEX: ClassVar[bool] = False
    """Whether complex operands are valid (upstream's HLO_AnyFpOrComplexTensor)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand],
            result_types=[result_type or self.result_type_for(operand.type)],
            attributes=attributes,
        )

    @staticmethod
    def result_type_for(operand_type: Attribute) -> Attribute:
        return operand_type

    @classmethod
    def parse(cls, parser: Parser) -> UnaryOp:
        operand = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(operand, operand_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        elem = element_type(self.operand.type)
        if not (is_float(elem) or (self.ALLOWS_COMPLEX and is_complex(elem))):
            kinds = "float or complex" if self.ALLOWS_COMPLEX else "float"
            fail(self, f"operand element type must be {kinds}, got {elem}")
        expected = self.result_type_for(self.operand.type)
        if self.result.type != expected:
            fail(self, f"result type must be {expected}, got {self.result.type}")


class _FloatOrComplexOp(UnaryOp):
    ALLOWS_COMPLEX: ClassVar[bool] = True


class _PredicateOp(UnaryOp):
    """A test on each element: the result is a tensor of i1 of the operand's shape."""

    @staticmethod
    def result_type_for(operand_type: Attribute) -> Attribute:
        return TensorType(i1, shape(operand_type))


@irdl_op_definition
class SquareOp(_FloatOrComplexOp):
    """x * x (`jnp.square`, `jnp.var`)."""

    name = "chlo.square"


@irdl_op_definition
class TanOp(_FloatOrComplexOp):
    name = "chlo.tan"


@irdl_op_definition
class ErfOp(UnaryOp):
    """The Gauss error function."""

    name = "chlo.erf"


@irdl_op_definition
class ErfcOp(UnaryOp):
    """1 - erf(x), computed without cancellation (exact `jax.nn.gelu`)."""

    name = "chlo.erfc"


@irdl_op_definition
class ErfInvOp(UnaryOp):
    """The inverse of erf (`jax.random.normal`)."""

    name = "chlo.erf_inv"


@irdl_op_definition
class LgammaOp(UnaryOp):
    """log |Γ(x)|."""

    name = "chlo.lgamma"


@irdl_op_definition
class DigammaOp(UnaryOp):
    """Γ'(x) / Γ(x)."""

    name = "chlo.digamma"


@irdl_op_definition
class IsInfOp(_PredicateOp):
    name = "chlo.is_inf"


@irdl_op_definition
class IsNegInfOp(_PredicateOp):
    name = "chlo.is_neg_inf"


@irdl_op_definition
class IsPosInfOp(_PredicateOp):
    name = "chlo.is_pos_inf"


@irdl_op_definition
class SinhOp(_FloatOrComplexOp):
    name = "chlo.sinh"


@irdl_op_definition
class CoshOp(_FloatOrComplexOp):
    name = "chlo.cosh"


@irdl_op_definition
class AsinOp(_FloatOrComplexOp):
    name = "chlo.asin"


@irdl_op_definition
class AcosOp(_FloatOrComplexOp):
    name = "chlo.acos"


@irdl_op_definition
class AtanOp(_FloatOrComplexOp):
    name = "chlo.atan"


@irdl_op_definition
class AsinhOp(_FloatOrComplexOp):
    name = "chlo.asinh"


@irdl_op_definition
class AcoshOp(_FloatOrComplexOp):
    name = "chlo.acosh"


@irdl_op_definition
class AtanhOp(_FloatOrComplexOp):
    name = "chlo.atanh"


@irdl_op_definition
class TopKOp(IRDLOperation):
    """The `k` largest entries along the last dim and their indices, largest first
    (`jax.lax.top_k`); with `is_stable` (the default), equal entries keep index order.

    `%v, %i = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)`.
    """

    name = "chlo.top_k"

    operand = operand_def(TensorType)
    k = prop_def(IntegerAttr[I64])
    is_stable = opt_prop_def(BoolAttr)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, k: int):
        operand = SSAValue.get(operand)
        assert isinstance(operand.type, TensorType)
        dims = [*operand.type.get_shape()[:-1], k]
        super().__init__(
            operands=[operand],
            result_types=[TensorType(operand.type.element_type, dims), TensorType(i32, dims)],
            properties={"k": IntegerAttr(k, i64)},
        )

    @property
    def stable(self) -> bool:
        return self.is_stable is None or bool(self.is_stable.value.data)

    @classmethod
    def parse(cls, parser: Parser) -> TopKOp:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"k": IntegerAttr(parse_signed_integer(parser, 64), i64)}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("is_stable")
            parser.parse_punctuation("=")
            props["is_stable"] = parser.parse_attribute()
        parser.parse_punctuation(")")
        more, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        return cls.create(
            operands=[parser.resolve_operand(operand, operand_type)],
            result_types=result_types,
            properties=props | more,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data}")
        if self.is_stable is not None:
            printer.print_string(", is_stable = ")
            printer.print_attribute(self.is_stable)
        printer.print_string(")")
        print_attr_dict(printer, self, elided=("k", "is_stable"))
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(")")

    def verify_(self) -> None:
        operand_shape = shape(self.operand.type)
        k = self.k.value.data
        if not operand_shape:
            fail(self, "operand's rank must be at least 1")
        if k < 0:
            fail(self, f"k must be non-negative, got {k}")
        if operand_shape[-1] >= 0 and operand_shape[-1] < k:
            fail(self, f"operand's last dimension must be at least {k}")
        dims = [*operand_shape[:-1], k]
        for what, value, elem in (
            ("values", self.values, element_type(self.operand.type)),
            ("indices", self.indices, i32),
        ):
            if not shapes_match(shape(value.type), dims) or element_type(value.type) != elem:
                fail(self, f"{what} must be {TensorType(elem, dims)}, got {value.type}")


CHLO = Dialect(
    "chlo",
    [
        SquareOp,
        TanOp,
        ErfOp,
        ErfcOp,
        ErfInvOp,
        LgammaOp,
        DigammaOp,
        IsInfOp,
        IsNegInfOp,
        IsPosInfOp,
        SinhOp,
        CoshOp,
        AsinOp,
        AcosOp,
        AtanOp,
        AsinhOp,
        AcoshOp,
        AtanhOp,
        TopKOp,
    ],
    [],
)
