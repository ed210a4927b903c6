"""StableHLO ops that move data without arithmetic: broadcast_in_dim, reshape, transpose,
slice, dynamic_slice, dynamic_update_slice, concatenate, pad, bitcast_convert."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i64,
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

from xshard.dialects.parsing import parse_signed_integer
from xshard.dialects.stablehlo.checks import (
    check_dims_in_range,
    dim_matches,
    element_type,
    fail,
    is_complex,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.syntax import (
    int_list,
    parse_attr_dict,
    parse_function_type,
    parse_i64_array,
    parse_keyword_equal,
    parse_operands_before_keyword,
    parse_unary_functional,
    print_attr_dict,
    print_functional_type,
    print_unary_functional,
    resolve,
)


def i64_array(values: Sequence[int] | DenseArrayBase) -> DenseArrayBase:
    if isinstance(values, DenseArrayBase):
        return values
    return DenseArrayBase.from_list(i64, list(values))


def tensor_type(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType)
    return value.type


def same_element_type(op: Operation, operand: Attribute, result: Attribute) -> None:
    if element_type(operand) != element_type(result):
        fail(op, f"requires the same element type for operand and result, got "
                 f"{element_type(operand)} and {element_type(result)}")


def _parse_unary_with_keyword_array(
    cls: type[IRDLOperation], parser: Parser, keyword: str, prop: str
) -> Operation:
    """`%x, <keyword> = [..] {attrs} : (type) -> type`."""
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    parse_keyword_equal(parser, keyword)
    array = parse_i64_array(parser)
    props, attrs = parse_attr_dict(parser, cls)
    parser.parse_punctuation(":")
    fn = parse_function_type(parser)
    return cls.create(
        operands=resolve(parser, [operand], fn.inputs.data),
        result_types=list(fn.outputs.data),
        properties={prop: array} | props,
        attributes=attrs,
    )


def _print_unary_with_keyword_array(
    op: Operation, printer: Printer, keyword: str, prop: str
) -> None:
    array = op.properties[prop]
    assert isinstance(array, DenseArrayBase)
    printer.print_string(" ")
    printer.print_operand(op.operands[0])
    printer.print_string(f", {keyword} = {int_list(array.get_values())}")
    print_attr_dict(printer, op, elided=(prop,))
    printer.print_string(" : ")
    print_functional_type(printer, op)


@irdl_op_definition
class BroadcastInDimOp(IRDLOperation):
    """`%r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<16xf32>) -> tensor<2x16xf32>`.

    Operand dimension `d` becomes result dimension `broadcast_dimensions[d]`, where it
    is either kept or, when of size 1, expanded. https://openxla.org/stablehlo/spec#broadcast_in_dim
    """

    name = "stablehlo.broadcast_in_dim"

    operand = operand_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        broadcast_dimensions: Sequence[int] | DenseArrayBase,
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[operand],
            result_types=[result_type],
            properties={"broadcast_dimensions": i64_array(broadcast_dimensions)},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        return _parse_unary_with_keyword_array(cls, parser, "dims", "broadcast_dimensions")

    def print(self, printer: Printer) -> None:
        _print_unary_with_keyword_array(self, printer, "dims", "broadcast_dimensions")

    def verify_(self) -> None:
        same_element_type(self, self.operand.type, self.result.type)
        operand_shape, result_shape = shape(self.operand.type), shape(self.result.type)
        dims = self.broadcast_dimensions.get_values()
        if len(dims) != len(operand_shape):
            fail(self, f"broadcast_dimensions size ({len(dims)}) does not match operand rank "
                       f"({len(operand_shape)})")
        check_dims_in_range(self, "broadcast_dimensions", dims, len(result_shape))
        for d, (size, target) in enumerate(zip(operand_shape, dims, strict=True)):
            if size != 1 and not dim_matches(size, result_shape[target]):
                fail(self, f"size of operand dimension {d} ({size}) is not 1 and not equal to "
                           f"the size of result dimension {target} ({result_shape[target]})")


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`%r = stablehlo.reshape %x : (tensor<2xf32>) -> tensor<1x2xf32>`, row-major order kept.

    https://openxla.org/stablehlo/spec#reshape
    """

    name = "stablehlo.reshape"

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(operands=[operand], result_types=[result_type], attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> ReshapeOp:
        return parse_unary_functional(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        print_unary_functional(printer, self)

    def verify_(self) -> None:
        same_element_type(self, self.operand.type, self.result.type)
        operand_shape, result_shape = shape(self.operand.type), shape(self.result.type)
        if min((*operand_shape, *result_shape), default=0) < 0:
            fail(self, "requires static shapes")
        if math.prod(operand_shape) != math.prod(result_shape):
            fail(self, f"number of elements differs: {self.operand.type} has "
                       f"{math.prod(operand_shape)}, {self.result.type} has "
                       f"{math.prod(result_shape)}")


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`%r = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>`.

    Result dimension `i` is operand dimension `permutation[i]`.
    https://openxla.org/stablehlo/spec#transpose
    """

    name = "stablehlo.transpose"

    operand = operand_def(TensorType)
    permutation = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        permutation: Sequence[int] | DenseArrayBase,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        permutation = i64_array(permutation)
        if result_type is None:
            source = tensor_type(operand)
            result_type = TensorType(
                source.element_type, [source.get_shape()[p] for p in permutation.get_values()]
            )
        super().__init__(
            operands=[operand],
            result_types=[result_type],
            properties={"permutation": permutation},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        return _parse_unary_with_keyword_array(cls, parser, "dims", "permutation")

    def print(self, printer: Printer) -> None:
        _print_unary_with_keyword_array(self, printer, "dims", "permutation")

    def verify_(self) -> None:
        same_element_type(self, self.operand.type, self.result.type)
        operand_shape, result_shape = shape(self.operand.type), shape(self.result.type)
        perm = self.permutation.get_values()
        if sorted(perm) != list(range(len(operand_shape))):
            fail(self, f"permutation {list(perm)} is not a permutation of "
                       f"[0, {len(operand_shape)})")
        expected = [operand_shape[p] for p in perm]
        if not shapes_match(expected, result_shape):
            fail(self, f"result shape must be {expected}, got {list(result_shape)}")


@irdl_op_definition
class SliceOp(IRDLOperation):
    """`%r = stablehlo.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>`.

    Per dimension `start:limit:stride` (limit exclusive; `:1` left out when printing).
    https://openxla.org/stablehlo/spec#slice
    """

    name = "stablehlo.slice"

    operand = operand_def(TensorType)
    start_indices = prop_def(DenseArrayBase[I64])
    limit_indices = prop_def(DenseArrayBase[I64])
    strides = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        start_indices: Sequence[int],
        limit_indices: Sequence[int],
        strides: Sequence[int] | None = None,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        strides = list(strides) if strides is not None else [1] * len(start_indices)
        if result_type is None:
            result_type = TensorType(
                tensor_type(operand).element_type,
                [
                    -(-(limit - start) // stride)
                    for start, limit, stride in zip(
                        start_indices, limit_indices, strides, strict=True
                    )
                ],
            )
        super().__init__(
            operands=[operand],
            result_types=[result_type],
            properties={
                "start_indices": i64_array(start_indices),
                "limit_indices": i64_array(limit_indices),
                "strides": i64_array(strides),
            },
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> SliceOp:
        operand = parser.parse_unresolved_operand()

        def parse_range() -> tuple[int, int, int]:
            start = parse_signed_integer(parser, 64)
            parser.parse_punctuation(":")
            limit = parse_signed_integer(parser, 64)
            stride = 1
            if parser.parse_optional_punctuation(":"):
                stride = parse_signed_integer(parser, 64)
            return start, limit, stride

        ranges = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        starts = [r[0] for r in ranges]
        limits = [r[1] for r in ranges]
        strides = [r[2] for r in ranges]
        return cls.create(
            operands=resolve(parser, [operand], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={
                "start_indices": i64_array(starts),
                "limit_indices": i64_array(limits),
                "strides": i64_array(strides),
            }
            | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        ranges = [
            f"{start}:{limit}" + (f":{stride}" if stride != 1 else "")
            for start, limit, stride in zip(
                self.start_indices.get_values(),
                self.limit_indices.get_values(),
                self.strides.get_values(),
                strict=True,
            )
        ]
        printer.print_string(f" [{', '.join(ranges)}]")
        print_attr_dict(printer, self, elided=("start_indices", "limit_indices", "strides"))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        same_element_type(self, self.operand.type, self.result.type)
        operand_shape, result_shape = shape(self.operand.type), shape(self.result.type)
        starts = self.start_indices.get_values()
        limits = self.limit_indices.get_values()
        strides = self.strides.get_values()
        rank = len(operand_shape)
        if not len(starts) == len(limits) == len(strides) == rank:
            fail(self, f"start_indices, limit_indices and strides must each have operand rank "
                       f"({rank}) entries, got {len(starts)}, {len(limits)}, {len(strides)}")
        for d, (start, limit, stride, size) in enumerate(
            zip(starts, limits, strides, operand_shape, strict=True)
        ):
            if stride <= 0:
                fail(self, f"stride of dimension {d} must be positive, got {stride}")
            if not 0 <= start <= limit or (size >= 0 and limit > size):
                fail(self, f"slice {start}:{limit} of dimension {d} is out of bounds "
                           f"[0, {size}]")
        expected = [
            -(-(limit - start) // stride)
            for start, limit, stride in zip(starts, limits, strides, strict=True)
        ]
        if not shapes_match(expected, result_shape):
            fail(self, f"result shape must be {expected}, got {list(result_shape)}")



@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """`%r = stablehlo.concatenate %a, %b, dim = 1 : (...) -> tensor<4x16xf32>`.

    https://openxla.org/stablehlo/spec#concatenate
    """

    name = "stablehlo.concatenate"

    inputs = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        dimension: int,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        values = [SSAValue.get(v) for v in inputs]
        if result_type is None:
            first = tensor_type(values[0])
            dims = list(first.get_shape())
            dims[dimension] = sum(tensor_type(v).get_shape()[dimension] for v in values)
            result_type = TensorType(first.element_type, dims)
        super().__init__(
            operands=[values],
            result_types=[result_type],
            properties={"dimension": IntegerAttr(dimension, i64)},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConcatenateOp:
        inputs = parse_operands_before_keyword(parser)
        parse_keyword_equal(parser, "dim")
        dimension = parse_signed_integer(parser, 64)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, inputs, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={"dimension": IntegerAttr(dimension, i64)} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attr_dict(printer, self, elided=("dimension",))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            fail(self, "expects at least one input")
        first = self.inputs[0].type
        rank = len(shape(first))
        dim = self.dimension.value.data
        if not 0 <= dim < rank:
            fail(self, f"dimension {dim} is out of range [0, {rank})")
        total = 0
        for i, value in enumerate(self.inputs):
            if element_type(value.type) != element_type(first):
                fail(self, f"input {i} has element type {element_type(value.type)}, expected "
                           f"{element_type(first)}")
            value_shape = shape(value.type)
            if len(value_shape) != rank:
                fail(self, f"input {i} has rank {len(value_shape)}, expected {rank}")
            for d in range(rank):
                if d != dim and not dim_matches(value_shape[d], shape(first)[d]):
                    fail(self, f"input {i} has size {value_shape[d]} in dimension {d}, expected "
                               f"{shape(first)[d]} (only dimension {dim} may differ)")
            total = -1 if total < 0 or value_shape[dim] < 0 else total + value_shape[dim]
        same_element_type(self, first, self.result.type)
        expected = list(shape(first))
        expected[dim] = total
        if not shapes_match(expected, shape(self.result.type)):
            fail(self, f"result shape must be {expected}, got {list(shape(self.result.type))}")


@irdl_op_definition
class PadOp(IRDLOperation):
    """`%r = stablehlo.pad %x, %v, low = [1, 0], high = [2, 1], interior = [1, 0] : (...) -> ...`.

    Negative edge padding removes elements. https://openxla.org/stablehlo/spec#pad
    """

    name = "stablehlo.pad"

    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = prop_def(DenseArrayBase[I64])
    edge_padding_high = prop_def(DenseArrayBase[I64])
    interior_padding = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        padding_value: SSAValue | Operation,
        edge_padding_low: Sequence[int],
        edge_padding_high: Sequence[int],
        interior_padding: Sequence[int] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        source = tensor_type(operand)
        interior = list(interior_padding or [0] * len(edge_padding_low))
        result_type = TensorType(
            source.element_type,
            _padded_shape(source.get_shape(), edge_padding_low, edge_padding_high, interior),
        )
        super().__init__(
            operands=[operand, padding_value],
            result_types=[result_type],
            properties={
                "edge_padding_low": i64_array(edge_padding_low),
                "edge_padding_high": i64_array(edge_padding_high),
                "interior_padding": i64_array(interior),
            },
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> PadOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        padding_value = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        for keyword, prop in (
            ("low", "edge_padding_low"),
            ("high", "edge_padding_high"),
            ("interior", "interior_padding"),
        ):
            parser.parse_punctuation(",")
            parse_keyword_equal(parser, keyword)
            props[prop] = parse_i64_array(parser)
        more_props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, [operand, padding_value], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props | more_props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(", ")
        printer.print_operand(self.padding_value)
        printer.print_string(
            f", low = {int_list(self.edge_padding_low.get_values())}"
            f", high = {int_list(self.edge_padding_high.get_values())}"
            f", interior = {int_list(self.interior_padding.get_values())}"
        )
        print_attr_dict(
            printer, self, elided=("edge_padding_low", "edge_padding_high", "interior_padding")
        )
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        same_element_type(self, self.operand.type, self.result.type)
        if shape(self.padding_value.type) or element_type(self.padding_value.type) != element_type(
            self.operand.type
        ):
            fail(self, f"padding_value must be a rank-0 tensor of the operand's element type, "
                       f"got {self.padding_value.type}")
        operand_shape = shape(self.operand.type)
        low = self.edge_padding_low.get_values()
        high = self.edge_padding_high.get_values()
        interior = self.interior_padding.get_values()
        rank = len(operand_shape)
        if not len(low) == len(high) == len(interior) == rank:
            fail(self, f"low, high and interior padding must each have operand rank ({rank}) "
                       f"entries, got {len(low)}, {len(high)}, {len(interior)}")
        if any(i < 0 for i in interior):
            fail(self, f"interior padding must be non-negative, got {list(interior)}")
        expected = _padded_shape(operand_shape, low, high, interior)
        if any(size < 0 for size, bound in zip(expected, operand_shape, strict=True) if bound >= 0):
            fail(self, f"padding gives a negative result dimension: {expected}")
        if not shapes_match(expected, shape(self.result.type)):
            fail(self, f"result shape must be {expected}, got {list(shape(self.result.type))}")


def _padded_shape(
    dims: Sequence[int], low: Sequence[int], high: Sequence[int], interior: Sequence[int]
) -> list[int]:
    return [
        -1 if size < 0 else lo + size + max(size - 1, 0) * mid + hi
        for size, lo, hi, mid in zip(dims, low, high, interior, strict=True)
    ]


def _bit_width(t: Attribute) -> int | None:
    width = getattr(t, "bitwidth", None)
    return width if isinstance(width, int) else None


@irdl_op_definition
class BitcastConvertOp(IRDLOperation):
    """`%r = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xui32>`: the same bits
    read as another element type. A narrower result type splits each element into a new
    minor dim; a wider one joins the operand's minor dim.
    https://openxla.org/stablehlo/spec#bitcast_convert
    """

    name = "stablehlo.bitcast_convert"

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> BitcastConvertOp:
        return parse_unary_functional(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        print_unary_functional(printer, self)

    def verify_(self) -> None:
        source, target = element_type(self.operand.type), element_type(self.result.type)
        if is_complex(source) != is_complex(target):
            fail(self, f"cannot bitcast between complex and non-complex element types, got "
                       f"{source} and {target}")
        bits, new_bits = _bit_width(source), _bit_width(target)
        if bits is None or new_bits is None:
            fail(self, f"element types must have a known bit width, got {source} and {target}")
        operand_shape, result_shape = shape(self.operand.type), shape(self.result.type)
        if new_bits == bits:
            expected = list(operand_shape)
        elif new_bits < bits:
            expected = [*operand_shape, bits // new_bits]
            if bits % new_bits:
                fail(self, f"{bits}-bit elements do not split into {new_bits}-bit ones")
        else:
            if not operand_shape or operand_shape[-1] * bits != new_bits:
                fail(self, f"the operand's minor dim times {bits} bits must be {new_bits} bits, "
                           f"got {self.operand.type}")
            expected = list(operand_shape[:-1])
        if not shapes_match(expected, result_shape):
            fail(self, f"result shape must be {expected}, got {list(result_shape)}")
