"""Pieces of StableHLO's custom assembly formats shared by several ops.

Each helper mirrors one upstream directive (`custom<SameOperandsAndResultType>`,
`custom<DenseI64Array>`, the trailing `attr-dict`, ...), so the pretty forms printed
here are the ones jaxlib's parser reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from xshard.dialects.parsing import parse_signed_integer_list


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ...` (at least one)."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )


def parse_operands_before_keyword(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ` before a keyword (`dim = ...`, `sizes = ...`): each operand ends with a comma."""
    operands: list[UnresolvedOperand] = []
    while (operand := parser.parse_optional_unresolved_operand()) is not None:
        operands.append(operand)
        parser.parse_punctuation(",")
    return operands


def resolve(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute]
) -> list[SSAValue]:
    if len(operands) != len(types):
        parser.raise_error(f"{len(operands)} operands present, but the type lists {len(types)}")
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]


def parse_function_type(parser: Parser) -> FunctionType:
    pos = parser.pos
    type = parser.parse_type()
    if not isinstance(type, FunctionType):
        parser.raise_error("expected a function type `(...) -> ...`", pos, parser.pos)
    return type


def parse_unary_functional(cls: type[Operation], parser: Parser) -> Operation:
    """`%x attr-dict : (T) -> U`: the form of the one-operand ops whose type changes."""
    operand = parser.parse_unresolved_operand()
    props, attrs = parse_attr_dict(parser, cls)
    parser.parse_punctuation(":")
    pos = parser.pos
    fn = parse_function_type(parser)
    if len(fn.inputs) != 1 or len(fn.outputs) != 1:
        parser.raise_error("expected a function type `(operand) -> result`", pos, parser.pos)
    return cls.create(
        operands=resolve(parser, [operand], fn.inputs.data),
        result_types=list(fn.outputs.data),
        properties=props,
        attributes=attrs,
    )


def print_unary_functional(printer: Printer, op: Operation) -> None:
    printer.print_string(" ")
    printer.print_operand(op.operands[0])
    print_attr_dict(printer, op)
    printer.print_string(" : ")
    print_functional_type(printer, op)


def parse_same_operands_and_result_type(
    parser: Parser, num_operands: int
) -> tuple[list[Attribute], Attribute]:
    """`custom<SameOperandsAndResultType>`: one type for all, or a function type."""
    pos = parser.pos
    type = parser.parse_type()
    if not isinstance(type, FunctionType):
        return [type] * num_operands, type
    inputs, outputs = type.inputs.data, type.outputs.data
    if len(inputs) != num_operands:
        parser.raise_error(
            f"{num_operands} operands present, but expected {len(inputs)}", pos, parser.pos
        )
    if len(outputs) != 1:
        parser.raise_error("expected single output", pos, parser.pos)
    return list(inputs), outputs[0]


def print_same_operands_and_result_type(
    printer: Printer, operand_types: Sequence[Attribute], result_type: Attribute
) -> None:
    if all(t == result_type for t in operand_types):
        printer.print_attribute(result_type)
    else:
        printer.print_function_type(operand_types, [result_type])


def print_functional_type(printer: Printer, op: Operation) -> None:
    printer.print_function_type(
        [o.type for o in op.operands], [r.type for r in op.results]
    )


def parse_int_list(parser: Parser) -> list[int]:
    """`[1, 0]`, the upstream `custom<DenseI64Array>` list."""
    return parse_signed_integer_list(parser, 64)


def parse_i64_array(parser: Parser) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, parse_int_list(parser))


def int_list(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def parse_keyword_equal(parser: Parser, keyword: str) -> None:
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")


def split_attr_dict(
    op_type: type[IRDLOperation], attrs: Mapping[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Sort a pretty form's `{...}` into the op's properties and its other attributes."""
    prop_names = op_type.get_irdl_definition().properties.keys()
    props = {k: v for k, v in attrs.items() if k in prop_names}
    others = {k: v for k, v in attrs.items() if k not in prop_names}
    return props, others


def parse_attr_dict(
    parser: Parser, op_type: type[IRDLOperation]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    return split_attr_dict(op_type, parser.parse_optional_attr_dict())


def print_attr_dict(
    printer: Printer, op: Operation, elided: Iterable[str] = (),
    defaults: Mapping[str, Attribute] | None = None,
) -> None:
    """The `attr-dict` of a pretty form: properties not spelled out by the syntax, then
    the other attributes. Properties equal to their upstream default are left out."""
    skip = set(elided)
    defaults = defaults or {}
    shown = {
        k: v for k, v in op.properties.items()
        if k not in skip and defaults.get(k) != v
    }
    shown.update(op.attributes)
    printer.print_op_attributes(shown)
