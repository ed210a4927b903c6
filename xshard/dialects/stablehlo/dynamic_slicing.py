"""dynamic_slice and dynamic_update_slice: slices at start indices known only at run
time (clamped into the operand, as the spec says)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xshard.dialects.stablehlo.checks import (
    element_type,
    fail,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.data_movement import i64_array, same_element_type, tensor_type
from xshard.dialects.stablehlo.syntax import (
    int_list,
    parse_attr_dict,
    parse_function_type,
    parse_i64_array,
    parse_keyword_equal,
    parse_operand_list,
    parse_operands_before_keyword,
    print_attr_dict,
    print_functional_type,
    resolve,
)


def _check_start_indices(op: Operation, indices: Sequence[SSAValue], rank: int) -> None:
    if len(indices) != rank:
        fail(op, f"expects {rank} start indices (the operand rank), got {len(indices)}")
    types = {i.type for i in indices}
    if len(types) > 1:
        fail(op, "start indices must all have the same type")
    for index in indices:
        if shape(index.type) or not isinstance(element_type(index.type), IntegerType):
            fail(op, f"start indices must be rank-0 integer tensors, got {index.type}")


@irdl_op_definition
class DynamicSliceOp(IRDLOperation):
    """`%r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 4] : (...) -> tensor<2x4xf32>`.

    Start indices are clamped into bounds at run time.
    https://openxla.org/stablehlo/spec#dynamic_slice
    """

    name = "stablehlo.dynamic_slice"

    operand = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    slice_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        start_indices: Sequence[SSAValue | Operation],
        slice_sizes: Sequence[int] | DenseArrayBase,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        slice_sizes = i64_array(slice_sizes)
        result_type = TensorType(tensor_type(operand).element_type, slice_sizes.get_values())
        super().__init__(
            operands=[operand, start_indices],
            result_types=[result_type],
            properties={"slice_sizes": slice_sizes},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> DynamicSliceOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        indices = parse_operands_before_keyword(parser)
        parse_keyword_equal(parser, "sizes")
        sizes = parse_i64_array(parser)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        values = resolve(parser, [operand, *indices], fn.inputs.data)
        return cls.create(
            operands=values,
            result_types=list(fn.outputs.data),
            properties={"slice_sizes": sizes} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", sizes = {int_list(self.slice_sizes.get_values())}")
        print_attr_dict(printer, self, elided=("slice_sizes",))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        same_element_type(self, self.operand.type, self.result.type)
        operand_shape = shape(self.operand.type)
        _check_start_indices(self, self.start_indices, len(operand_shape))
        sizes = self.slice_sizes.get_values()
        if len(sizes) != len(operand_shape):
            fail(self, f"slice_sizes must have operand rank ({len(operand_shape)}) entries, "
                       f"got {len(sizes)}")
        for d, (size, bound) in enumerate(zip(sizes, operand_shape, strict=True)):
            if size < 0 or (bound >= 0 and size > bound):
                fail(self, f"slice size {size} of dimension {d} is out of bounds [0, {bound}]")
        if not shapes_match(sizes, shape(self.result.type)):
            fail(self, f"result shape must be {list(sizes)}, got {list(shape(self.result.type))}")


@irdl_op_definition
class DynamicUpdateSliceOp(IRDLOperation):
    """`%r = stablehlo.dynamic_update_slice %x, %u, %i, %j : (...) -> tensor<4x8xf32>`.

    https://openxla.org/stablehlo/spec#dynamic_update_slice
    """

    name = "stablehlo.dynamic_update_slice"

    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        update: SSAValue | Operation,
        start_indices: Sequence[SSAValue | Operation],
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand, update, start_indices],
            result_types=[operand.type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> DynamicUpdateSliceOp:
        operands = parse_operand_list(parser)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.operand.type:
            fail(self, f"result type must equal the operand type, got {self.operand.type} -> "
                       f"{self.result.type}")
        same_element_type(self, self.update.type, self.operand.type)
        operand_shape, update_shape = shape(self.operand.type), shape(self.update.type)
        if len(update_shape) != len(operand_shape):
            fail(self, f"update rank ({len(update_shape)}) must equal operand rank "
                       f"({len(operand_shape)})")
        _check_start_indices(self, self.start_indices, len(operand_shape))
        for d, (size, bound) in enumerate(zip(update_shape, operand_shape, strict=True)):
            if bound >= 0 and size > bound:
                fail(self, f"update dimension {d} ({size}) is larger than the operand's "
                           f"({bound})")
