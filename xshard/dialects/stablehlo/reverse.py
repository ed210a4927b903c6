"""`stablehlo.reverse`, which JAX emits to flip a kernel in a convolution's gradient."""

from __future__ import annotations

from xdsl.dialects.builtin import I64, DenseArrayBase, TensorType
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
from xdsl.traits import Pure

from xshard.dialects.stablehlo.checks import check_dims_in_range, fail, shape
from xshard.dialects.stablehlo.syntax import (
    int_list,
    parse_attr_dict,
    parse_i64_array,
    parse_keyword_equal,
    parse_same_operands_and_result_type,
    print_attr_dict,
    print_same_operands_and_result_type,
    resolve,
)


@irdl_op_definition
class ReverseOp(IRDLOperation):
    """`%r = stablehlo.reverse %x, dims = [0, 1] : tensor<3x3x8x8xf32>`: the elements in
    reverse order along each of `dimensions`. https://openxla.org/stablehlo/spec#reverse
    """

    name = "stablehlo.reverse"

    operand = operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ReverseOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parse_keyword_equal(parser, "dims")
        dims = parse_i64_array(parser)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_types, result_type = parse_same_operands_and_result_type(parser, 1)
        return cls.create(
            operands=resolve(parser, [operand], operand_types),
            result_types=[result_type],
            properties={"dimensions": dims} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", dims = {int_list(self.dimensions.get_values())}")
        print_attr_dict(printer, self, elided=("dimensions",))
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, [self.operand.type], self.result.type)

    def verify_(self) -> None:
        if self.result.type != self.operand.type:
            fail(self, f"result type must be the operand type {self.operand.type}, got "
                       f"{self.result.type}")
        check_dims_in_range(self, "dimensions", self.dimensions.get_values(),
                            len(shape(self.operand.type)))
