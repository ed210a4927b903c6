"""Elementwise StableHLO ops: unary and binary maths, convert, compare, select, clamp.

All share the `ElementwiseOp` base: `result[i]` depends only on each operand at the same
index `i`. The only exceptions to "every operand has the result's shape" are the rank-0
`pred` of `select` and the rank-0 `min`/`max` of `clamp`, which apply to every element
(see `scalar_operands`). The sharding interface keys on this base class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I32, ComplexType, FunctionType, IntegerAttr, TensorType, i1, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Commutative, Pure

from xshard.dialects.stablehlo.checks import (
    element_type,
    fail,
    is_bool,
    is_complex,
    is_float,
    is_integer,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.syntax import (
    parse_attr_dict,
    parse_keyword_equal,
    parse_operand_list,
    parse_same_operands_and_result_type,
    parse_unary_functional,
    print_attr_dict,
    print_same_operands_and_result_type,
    print_unary_functional,
    resolve,
)

_KINDS: Mapping[str, Callable[[Attribute], bool]] = {
    "bool": is_bool,
    "integer": is_integer,
    "float": is_float,
    "complex": is_complex,
}


class ElementwiseOp(IRDLOperation):
    """Base of every elementwise StableHLO op (not an op itself)."""

    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("bool", "integer", "float", "complex")
    """Which element types the operands may have (keys of `_KINDS`)."""

    def scalar_operands(self) -> tuple[SSAValue, ...]:
        """Operands allowed to be rank-0 and broadcast to every element."""
        return ()

    def _check_element_kind(self, value_type: Attribute) -> None:
        elem = element_type(value_type)
        if not any(_KINDS[k](elem) for k in self.ELEMENT_KINDS):
            kinds = " or ".join(self.ELEMENT_KINDS)
            fail(self, f"operand element type must be {kinds}, got {elem}")


def is_elementwise(op: Operation) -> bool:
    """Whether `op` is one of StableHLO's elementwise ops."""
    return isinstance(op, ElementwiseOp)


def same_types(op: Operation, types: Sequence[Attribute], result: Attribute) -> None:
    if any(t != result for t in types):
        listed = ", ".join(str(t) for t in types)
        fail(op, f"requires the same type for all operands and results, got ({listed}) -> {result}")


# ---------------------------------------------------------------- unary


class UnaryElementwiseOp(ElementwiseOp):
    """`%r = stablehlo.<op> %x : tensor<...>`."""

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
            result_types=[result_type or operand.type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> UnaryElementwiseOp:
        operand = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_types, result_type = parse_same_operands_and_result_type(parser, 1)
        return cls.create(
            operands=resolve(parser, [operand], operand_types),
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, [self.operand.type], self.result.type)

    def verify_(self) -> None:
        self._check_element_kind(self.operand.type)
        same_types(self, [self.operand.type], self.result.type)


_NUMERIC = ("integer", "float", "complex")
_FLOATING = ("float", "complex")


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    """Absolute value. https://openxla.org/stablehlo/spec#abs"""

    name = "stablehlo.abs"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC

    def verify_(self) -> None:
        self._check_element_kind(self.operand.type)
        elem = element_type(self.operand.type)
        expected = elem.element_type if is_complex(elem) else elem  # |complex| is real
        result_elem = element_type(self.result.type)
        if not shapes_match(shape(self.operand.type), shape(self.result.type)):
            fail(self, f"requires the same shape for operand and result, got "
                       f"{self.operand.type} -> {self.result.type}")
        if result_elem != expected:
            fail(self, f"result element type must be {expected}, got {result_elem}")


@irdl_op_definition
class NegateOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#negate"""

    name = "stablehlo.negate"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class SignOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#sign"""

    name = "stablehlo.sign"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class NotOp(UnaryElementwiseOp):
    """Logical not of booleans, bitwise not of integers. https://openxla.org/stablehlo/spec#not"""

    name = "stablehlo.not"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("bool", "integer")


@irdl_op_definition
class PopulationCountOp(UnaryElementwiseOp):
    """The number of set bits of each integer. https://openxla.org/stablehlo/spec#popcnt"""

    name = "stablehlo.popcnt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("integer",)


@irdl_op_definition
class CountLeadingZerosOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#count_leading_zeros"""

    name = "stablehlo.count_leading_zeros"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("integer",)


@irdl_op_definition
class ExponentialOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#exponential"""

    name = "stablehlo.exponential"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class ExponentialMinusOneOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#exponential_minus_one"""

    name = "stablehlo.exponential_minus_one"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class LogOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#log"""

    name = "stablehlo.log"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class LogPlusOneOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#log_plus_one"""

    name = "stablehlo.log_plus_one"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class TanhOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#tanh"""

    name = "stablehlo.tanh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class LogisticOp(UnaryElementwiseOp):
    """Sigmoid. https://openxla.org/stablehlo/spec#logistic"""

    name = "stablehlo.logistic"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class SqrtOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#sqrt"""

    name = "stablehlo.sqrt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class RsqrtOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#rsqrt"""

    name = "stablehlo.rsqrt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class SineOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#sine"""

    name = "stablehlo.sine"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class CosineOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#cosine"""

    name = "stablehlo.cosine"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class TanOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#tan"""

    name = "stablehlo.tan"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class CbrtOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#cbrt"""

    name = "stablehlo.cbrt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class RoundNearestEvenOp(UnaryElementwiseOp):
    """Round to the nearest integer, ties to even (`jnp.round`).
    https://openxla.org/stablehlo/spec#round_nearest_even"""

    name = "stablehlo.round_nearest_even"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)


@irdl_op_definition
class RoundNearestAfzOp(UnaryElementwiseOp):
    """Round to the nearest integer, ties away from zero.
    https://openxla.org/stablehlo/spec#round_nearest_afz"""

    name = "stablehlo.round_nearest_afz"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)


@irdl_op_definition
class IsFiniteOp(UnaryElementwiseOp):
    """`%r = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>`: neither infinite
    nor NaN. https://openxla.org/stablehlo/spec#is_finite"""

    name = "stablehlo.is_finite"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)

    def __init__(
        self, operand: SSAValue | Operation, attributes: Mapping[str, Attribute] | None = None
    ):
        operand = SSAValue.get(operand)
        super().__init__(operand, TensorType(i1, shape(operand.type)), attributes)

    @classmethod
    def parse(cls, parser: Parser) -> IsFiniteOp:
        return parse_unary_functional(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        print_unary_functional(printer, self)

    def verify_(self) -> None:
        self._check_element_kind(self.operand.type)
        if not is_bool(element_type(self.result.type)):
            fail(self, f"result element type must be i1, got {element_type(self.result.type)}")
        if not shapes_match(shape(self.operand.type), shape(self.result.type)):
            fail(self, f"requires the same shape for operand and result, got "
                       f"{self.operand.type} -> {self.result.type}")


@irdl_op_definition
class ReducePrecisionOp(UnaryElementwiseOp):
    """`%r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>`: each element
    rounded to `exponent_bits` and `mantissa_bits`, in the same type
    (`jax.lax.reduce_precision`; JAX's remat emits it under a policy).
    https://openxla.org/stablehlo/spec#reduce_precision"""

    name = "stablehlo.reduce_precision"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)

    exponent_bits = prop_def(IntegerAttr[I32])
    mantissa_bits = prop_def(IntegerAttr[I32])

    def __init__(self, operand: SSAValue | Operation, exponent_bits: int, mantissa_bits: int):
        operand = SSAValue.get(operand)
        super().__init__(operand)
        self.properties["exponent_bits"] = IntegerAttr(exponent_bits, i32)
        self.properties["mantissa_bits"] = IntegerAttr(mantissa_bits, i32)

    @classmethod
    def parse(cls, parser: Parser) -> ReducePrecisionOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parse_keyword_equal(parser, "format")
        at = parser.pos
        found = re.fullmatch(r"e(\d+)m(\d+)", parser.parse_identifier())
        if found is None:
            parser.raise_error("expected a format such as e5m10", at, parser.pos)
        props, attrs = parse_attr_dict(parser, cls)
        props["exponent_bits"] = IntegerAttr(int(found[1]), i32)
        props["mantissa_bits"] = IntegerAttr(int(found[2]), i32)
        parser.parse_punctuation(":")
        operand_types, result_type = parse_same_operands_and_result_type(parser, 1)
        return cls.create(
            operands=resolve(parser, [operand], operand_types),
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        e, m = self.exponent_bits.value.data, self.mantissa_bits.value.data
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", format = e{e}m{m}")
        print_attr_dict(printer, self, ("exponent_bits", "mantissa_bits"))
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, [self.operand.type], self.result.type)

    def verify_(self) -> None:
        super().verify_()
        if self.exponent_bits.value.data < 1 or self.mantissa_bits.value.data < 0:
            fail(self, "exponent_bits must be at least 1 and mantissa_bits at least 0")


@irdl_op_definition
class FloorOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#floor"""

    name = "stablehlo.floor"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)


@irdl_op_definition
class CeilOp(UnaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#ceil"""

    name = "stablehlo.ceil"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)


def _part_type(t: Attribute) -> Attribute:
    """The type of a complex tensor's real (or imaginary) part; a float tensor's own."""
    elem = element_type(t)
    if not isinstance(elem, ComplexType):
        return t
    return TensorType(elem.element_type, shape(t))


class _PartOp(UnaryElementwiseOp):
    """`real`, `imag`: a complex tensor's part, a float tensor's (real: itself, imag:
    zeros) alike: `%r = stablehlo.real %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>`."""

    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING

    def __init__(self, operand: SSAValue | Operation):
        operand = SSAValue.get(operand)
        super().__init__(operand, _part_type(operand.type))

    def verify_(self) -> None:
        self._check_element_kind(self.operand.type)
        if self.result.type != (want := _part_type(self.operand.type)):
            fail(self, f"result must be {want}, got {self.result.type}")


@irdl_op_definition
class RealOp(_PartOp):
    """https://openxla.org/stablehlo/spec#real"""

    name = "stablehlo.real"


@irdl_op_definition
class ImagOp(_PartOp):
    """https://openxla.org/stablehlo/spec#imag"""

    name = "stablehlo.imag"


@irdl_op_definition
class ConvertOp(UnaryElementwiseOp):
    """Element type conversion; the shape stays. https://openxla.org/stablehlo/spec#convert

    `ConvertOp(x, result_type)`.
    """

    name = "stablehlo.convert"

    def __init__(
        self,
        operand: SSAValue | Operation,
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(operand, result_type, attributes)

    def verify_(self) -> None:
        if not shapes_match(shape(self.operand.type), shape(self.result.type)):
            fail(self, f"requires the same shape for operand and result, got "
                       f"{self.operand.type} -> {self.result.type}")


# ---------------------------------------------------------------- binary


class BinaryElementwiseOp(ElementwiseOp):
    """`%r = stablehlo.<op> %a, %b : tensor<...>`."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
        super().__init__(
            operands=[lhs, rhs], result_types=[result_type or lhs.type], attributes=attributes
        )

    @classmethod
    def parse(cls, parser: Parser) -> BinaryElementwiseOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        if len(operands) != 2:
            parser.raise_error(f"'{cls.name}' expects 2 operands, got {len(operands)}", pos)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_types, result_type = cls.parse_types(parser)
        return cls.create(
            operands=resolve(parser, operands, operand_types),
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    @classmethod
    def parse_types(cls, parser: Parser) -> tuple[list[Attribute], Attribute]:
        """The types after the `:`: the operands', and the result's."""
        return parse_same_operands_and_result_type(parser, 2)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        self.print_types(printer)

    def print_types(self, printer: Printer) -> None:
        print_same_operands_and_result_type(
            printer, [self.lhs.type, self.rhs.type], self.result.type
        )

    def verify_(self) -> None:
        self._check_element_kind(self.lhs.type)
        same_types(self, [self.lhs.type, self.rhs.type], self.result.type)


@irdl_op_definition
class ComplexOp(BinaryElementwiseOp):
    """`%z = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>`: the complex tensor of
    two float tensors (`jax.lax.complex`, rotary embeddings written with complex
    numbers). The pretty form gives the result's type alone where the operands' are its
    parts'. https://openxla.org/stablehlo/spec#complex"""

    name = "stablehlo.complex"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        lhs = SSAValue.get(lhs)
        elem = element_type(lhs.type)
        super().__init__(lhs, rhs, TensorType(ComplexType(elem), shape(lhs.type)))

    @classmethod
    def parse_types(cls, parser: Parser) -> tuple[list[Attribute], Attribute]:
        at = parser.pos
        written = parser.parse_type()
        if not isinstance(written, FunctionType):
            return [_part_type(written)] * 2, written
        if len(written.inputs.data) != 2 or len(written.outputs.data) != 1:
            parser.raise_error("expected 2 operand types and 1 result type", at, parser.pos)
        return list(written.inputs.data), written.outputs.data[0]

    def print_types(self, printer: Printer) -> None:
        part = _part_type(self.result.type)
        if self.lhs.type == part and self.rhs.type == part:
            printer.print_attribute(self.result.type)
        else:
            printer.print_function_type([self.lhs.type, self.rhs.type], [self.result.type])

    def verify_(self) -> None:
        self._check_element_kind(self.lhs.type)
        elem = element_type(self.result.type)
        if not isinstance(elem, ComplexType):
            fail(self, f"result element type must be complex, got {elem}")
        part = _part_type(self.result.type)
        if self.lhs.type != part or self.rhs.type != part:
            fail(self, f"operands must both be {part}, got {self.lhs.type} and {self.rhs.type}")


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#add"""

    name = "stablehlo.add"
    traits = traits_def(Commutative())


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#subtract"""

    name = "stablehlo.subtract"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#multiply"""

    name = "stablehlo.multiply"
    traits = traits_def(Commutative())


@irdl_op_definition
class DivideOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#divide"""

    name = "stablehlo.divide"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class RemainderOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#remainder"""

    name = "stablehlo.remainder"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class MaximumOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#maximum"""

    name = "stablehlo.maximum"
    traits = traits_def(Commutative())


@irdl_op_definition
class MinimumOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#minimum"""

    name = "stablehlo.minimum"
    traits = traits_def(Commutative())


@irdl_op_definition
class PowerOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#power"""

    name = "stablehlo.power"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class Atan2Op(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#atan2"""

    name = "stablehlo.atan2"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOATING


@irdl_op_definition
class AndOp(BinaryElementwiseOp):
    """Logical and of booleans, bitwise and of integers. https://openxla.org/stablehlo/spec#and"""

    name = "stablehlo.and"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("bool", "integer")
    traits = traits_def(Commutative())


@irdl_op_definition
class OrOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#or"""

    name = "stablehlo.or"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("bool", "integer")
    traits = traits_def(Commutative())


@irdl_op_definition
class XorOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#xor"""

    name = "stablehlo.xor"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("bool", "integer")
    traits = traits_def(Commutative())


@irdl_op_definition
class ShiftLeftOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#shift_left"""

    name = "stablehlo.shift_left"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("integer",)


@irdl_op_definition
class ShiftRightLogicalOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#shift_right_logical"""

    name = "stablehlo.shift_right_logical"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("integer",)


@irdl_op_definition
class ShiftRightArithmeticOp(BinaryElementwiseOp):
    """https://openxla.org/stablehlo/spec#shift_right_arithmetic"""

    name = "stablehlo.shift_right_arithmetic"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("integer",)


# ---------------------------------------------------------------- compare, select, clamp
