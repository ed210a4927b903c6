"""Compare, select and clamp: the elementwise ops that compare values or choose
between them."""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import FunctionType, IntegerType, Signedness, TensorType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
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

from xshard.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
)
from xshard.dialects.stablehlo.checks import (
    element_type,
    fail,
    is_bool,
    is_complex,
    is_float,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.elementwise import ElementwiseOp, same_types
from xshard.dialects.stablehlo.syntax import (
    parse_attr_dict,
    parse_operand_list,
    parse_same_operands_and_result_type,
    print_attr_dict,
    print_functional_type,
    print_same_operands_and_result_type,
    resolve,
)


def _direction(
    value: ComparisonDirection | str | ComparisonDirectionAttr,
) -> ComparisonDirectionAttr:
    if isinstance(value, ComparisonDirectionAttr):
        return value
    return ComparisonDirectionAttr(ComparisonDirection(value))


def _default_compare_type(elem: Attribute) -> ComparisonType:
    """The type JAX gives a comparison of `elem` values."""
    if is_float(elem) or is_complex(elem):
        return ComparisonType.FLOAT
    if isinstance(elem, IntegerType) and (
        elem.width.data == 1 or elem.signedness.data == Signedness.UNSIGNED
    ):
        return ComparisonType.UNSIGNED
    return ComparisonType.SIGNED


@irdl_op_definition
class CompareOp(ElementwiseOp):
    """`%r = stablehlo.compare GT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`.

    https://openxla.org/stablehlo/spec#compare. `CompareOp(lhs, rhs, "GT")` picks the
    comparison type from the element type, as JAX does.
    """

    name = "stablehlo.compare"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        comparison_direction: ComparisonDirection | str | ComparisonDirectionAttr,
        compare_type: ComparisonType | str | ComparisonTypeAttr | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
        assert isinstance(lhs.type, TensorType)
        if compare_type is None:
            compare_type = _default_compare_type(lhs.type.element_type)
        if not isinstance(compare_type, ComparisonTypeAttr):
            compare_type = ComparisonTypeAttr(ComparisonType(compare_type))
        super().__init__(
            operands=[lhs, rhs],
            result_types=[TensorType(i1, lhs.type.get_shape())],
            properties={
                "comparison_direction": _direction(comparison_direction),
                "compare_type": compare_type,
            },
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> CompareOp:
        direction = ComparisonDirectionAttr(parser.parse_str_enum(ComparisonDirection))
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {"comparison_direction": direction}
        if parser.parse_optional_punctuation(","):
            props["compare_type"] = ComparisonTypeAttr(parser.parse_str_enum(ComparisonType))
        more_props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        pos = parser.pos
        fn = parser.parse_type()
        if not isinstance(fn, FunctionType) or len(fn.inputs) != 2 or len(fn.outputs) != 1:
            parser.raise_error("expected a function type `(lhs, rhs) -> result`", pos, parser.pos)
        return cls.create(
            operands=resolve(parser, [lhs, rhs], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props | more_props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.comparison_direction.data.value}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.compare_type is not None:
            printer.print_string(f", {self.compare_type.data.value}")
        print_attr_dict(printer, self, elided=("comparison_direction", "compare_type"))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            fail(self, f"requires the same type for lhs and rhs, got {self.lhs.type} and "
                       f"{self.rhs.type}")
        result_elem = element_type(self.result.type)
        if not is_bool(result_elem):
            fail(self, f"result element type must be i1, got {result_elem}")
        if not shapes_match(shape(self.lhs.type), shape(self.result.type)):
            fail(self, f"requires the same shape for operands and result, got "
                       f"{self.lhs.type} -> {self.result.type}")


@irdl_op_definition
class SelectOp(ElementwiseOp):
    """`%r = stablehlo.select %pred, %t, %f : tensor<4xi1>, tensor<4xf32>`.

    https://openxla.org/stablehlo/spec#select. A rank-0 `pred` chooses for all elements.
    """

    name = "stablehlo.select"

    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        pred: SSAValue | Operation,
        on_true: SSAValue | Operation,
        on_false: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        on_true = SSAValue.get(on_true)
        super().__init__(
            operands=[pred, on_true, on_false],
            result_types=[on_true.type],
            attributes=attributes,
        )

    def scalar_operands(self) -> tuple[SSAValue, ...]:
        return (self.pred,) if not shape(self.pred.type) else ()

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        if len(operands) != 3:
            parser.raise_error(f"'{cls.name}' expects 3 operands, got {len(operands)}", pos)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) == 2:
            pred_type, value_type = types
            operand_types, result_type = [pred_type, value_type, value_type], value_type
        elif len(types) == 1 and isinstance(fn := types[0], FunctionType):
            if len(fn.inputs) != 3 or len(fn.outputs) != 1:
                parser.raise_error("expected 3 operand types and 1 result type", pos, parser.pos)
            operand_types, result_type = list(fn.inputs.data), fn.outputs.data[0]
        else:
            parser.raise_error("expected functional type or list of two types", pos, parser.pos)
        return cls.create(
            operands=resolve(parser, operands, operand_types),
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        if self.on_true.type == self.result.type and self.on_false.type == self.result.type:
            printer.print_attribute(self.pred.type)
            printer.print_string(", ")
            printer.print_attribute(self.result.type)
        else:
            print_functional_type(printer, self)

    def verify_(self) -> None:
        if not is_bool(element_type(self.pred.type)):
            fail(self, f"pred must be a tensor of i1, got {self.pred.type}")
        pred_shape = shape(self.pred.type)
        if pred_shape and not shapes_match(pred_shape, shape(self.on_true.type)):
            fail(self, f"pred must be rank 0 or have the shape of on_true, got "
                       f"{self.pred.type} and {self.on_true.type}")
        same_types(self, [self.on_true.type, self.on_false.type], self.result.type)


@irdl_op_definition
class ClampOp(ElementwiseOp):
    """`%r = stablehlo.clamp %min, %x, %max : tensor<4xf32>`.

    https://openxla.org/stablehlo/spec#clamp. `min` and `max` may be rank 0.
    """

    name = "stablehlo.clamp"

    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        min: SSAValue | Operation,
        operand: SSAValue | Operation,
        max: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[min, operand, max], result_types=[operand.type], attributes=attributes
        )

    def scalar_operands(self) -> tuple[SSAValue, ...]:
        return tuple(v for v in (self.min, self.max) if not shape(v.type))

    @classmethod
    def parse(cls, parser: Parser) -> ClampOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        if len(operands) != 3:
            parser.raise_error(f"'{cls.name}' expects 3 operands, got {len(operands)}", pos)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_types, result_type = parse_same_operands_and_result_type(parser, 3)
        return cls.create(
            operands=resolve(parser, operands, operand_types),
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_same_operands_and_result_type(
            printer, [o.type for o in self.operands], self.result.type
        )

    def verify_(self) -> None:
        operand_shape = shape(self.operand.type)
        elem = element_type(self.operand.type)
        for name, bound in (("min", self.min), ("max", self.max)):
            if element_type(bound.type) != elem:
                fail(self, f"{name} must have element type {elem}, got {bound.type}")
            bound_shape = shape(bound.type)
            if bound_shape and not shapes_match(bound_shape, operand_shape):
                fail(self, f"{name} must be rank 0 or have the operand's shape, got "
                           f"{bound.type} for operand {self.operand.type}")
        if self.result.type != self.operand.type:
            fail(self, f"result type must equal the operand type, got {self.operand.type} -> "
                       f"{self.result.type}")
