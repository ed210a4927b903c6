"""The `tosa` dialect: xDSL's tosa ops plus the elementwise ops upstream shards.

xDSL 0.74 ships a few TOSA ops; MLIR's sharding tests use many more
(sigmoid, tanh, abs, negate...). This dialect adds the elementwise ops that
have upstream sharding models, with the syntax of mlir-opt 22.1.8:
`tosa.op %a, %b {attrs} : (types) -> type`, `nan_mode` on maximum/minimum,
zero-point operands on `negate` and `matmul`.

`tosa.matmul` replaces xDSL's, whose verifier rejects batch sizes other than
1; 22.1.8 accepts any batch, and a batch of 1 on one side broadcasts.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import tosa as xdsl_tosa
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyAttr, BoolAttr, TensorType, i1
from xdsl.dialects.tosa import NanMode, NanModeAttr
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Commutative, Pure
from xdsl.utils.exceptions import VerifyException


def check_broadcast(op: IRDLOperation, inputs: tuple[Attribute, ...], output: Attribute) -> None:
    """TOSA broadcasting: equal ranks; each input dim is the output's or 1."""
    assert isinstance(output, TensorType)
    out = output.get_shape()
    for t in inputs:
        assert isinstance(t, TensorType)
        shape = t.get_shape()
        if len(shape) != len(out):
            raise VerifyException(f"'{op.name}' operands and result must have the same rank")
        for d, o in zip(shape, out, strict=True):
            if DYNAMIC_INDEX not in (d, o) and d not in (1, o):
                raise VerifyException(f"'{op.name}' operand and result shapes are not compatible")


class _Elementwise(IRDLOperation):
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        check_broadcast(self, tuple(v.type for v in self.operands), self.results[0].type)


class _Unary(_Elementwise):
    T: ClassVar = VarConstraint("T", AnyAttr())
    input1 = operand_def(TensorType.constr(T))
    output = result_def(TensorType.constr(T))


class _Binary(_Elementwise):
    T: ClassVar = VarConstraint("T", AnyAttr())
    input1 = operand_def(TensorType.constr(T))
    input2 = operand_def(TensorType.constr(T))
    output = result_def(TensorType.constr(T))


class _Compare(_Elementwise):
    T: ClassVar = VarConstraint("T", AnyAttr())
    input1 = operand_def(TensorType.constr(T))
    input2 = operand_def(TensorType.constr(T))
    output = result_def(TensorType[i1])


class _MinMax(_Binary):
    """`nan_mode` is written bare inside the attribute dictionary and omitted when it is
    the default, as 22.1.8 prints it: `tosa.maximum %a, %b {nan_mode = IGNORE} : ...`.
    The `#tosa.nan_mode<IGNORE>` form parses too.
    """

    nan_mode = opt_prop_def(NanModeAttr, default_value=NanModeAttr(NanMode.PROPAGATE))
    traits = traits_def(Pure(), Commutative())
    assembly_format = None

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        entries: list[tuple[str, Attribute | str]] = list(self.attributes.items())
        mode = self.properties.get("nan_mode")
        if isinstance(mode, NanModeAttr) and mode.data != NanMode.PROPAGATE:
            entries.insert(0, ("nan_mode", mode.data))
        if entries:
            printer.print_string(" {")
            printer.print_list(entries, lambda e: _print_entry(printer, *e))
            printer.print_string("}")
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)

    @classmethod
    def parse(cls, parser: Parser) -> _MinMax:
        pos = parser.pos
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(operands) != 2:
            parser.raise_error(f"'{cls.name}' expects 2 operands, got {len(operands)}", pos)
        properties: dict[str, Attribute] = {}
        attributes: dict[str, Attribute] = {}

        def parse_entry() -> None:
            key = parser.parse_identifier_or_str_literal()
            parser.parse_punctuation("=")
            if key != "nan_mode":
                attributes[key] = parser.parse_attribute()
            elif (mode := parser.parse_optional_identifier()) is not None:
                if mode not in NanMode.__members__.values():
                    parser.raise_error(f"expected a nan_mode (PROPAGATE or IGNORE), got {mode}")
                properties[key] = NanModeAttr(NanMode(mode))
            else:
                properties[key] = parser.parse_attribute()

        if parser.parse_optional_punctuation("{") is not None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_entry)
            parser.parse_punctuation("}")
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.build(
            operands=parser.resolve_operands(operands, fn.inputs.data, pos),
            result_types=fn.outputs.data,
            properties=properties,
            attributes=attributes,
        )


def _print_entry(printer: Printer, key: str, value: Attribute | str) -> None:
    printer.print_identifier_or_string_literal(key)
    printer.print_string(" = ")
    if isinstance(value, str):
        printer.print_string(value)
    else:
        printer.print_attribute(value)


@irdl_op_definition
class SigmoidOp(_Unary):
    name = "tosa.sigmoid"


@irdl_op_definition
class TanhOp(_Unary):
    name = "tosa.tanh"


@irdl_op_definition
class AbsOp(_Unary):
    name = "tosa.abs"


@irdl_op_definition
class ExpOp(_Unary):
    name = "tosa.exp"


@irdl_op_definition
class LogOp(_Unary):
    name = "tosa.log"


@irdl_op_definition
class RsqrtOp(_Unary):
    name = "tosa.rsqrt"


@irdl_op_definition
class FloorOp(_Unary):
    name = "tosa.floor"


@irdl_op_definition
class CeilOp(_Unary):
    name = "tosa.ceil"


@irdl_op_definition
class ErfOp(_Unary):
    name = "tosa.erf"


@irdl_op_definition
class ClzOp(_Unary):
    name = "tosa.clz"


@irdl_op_definition
class BitwiseNotOp(_Unary):
    name = "tosa.bitwise_not"


@irdl_op_definition
class LogicalNotOp(_Unary):
    name = "tosa.logical_not"


@irdl_op_definition
class PowOp(_Binary):
    name = "tosa.pow"


@irdl_op_definition
class IntDivOp(_Binary):
    name = "tosa.intdiv"


@irdl_op_definition
class BitwiseAndOp(_Binary):
    name = "tosa.bitwise_and"


@irdl_op_definition
class BitwiseOrOp(_Binary):
    name = "tosa.bitwise_or"


@irdl_op_definition
class BitwiseXorOp(_Binary):
    name = "tosa.bitwise_xor"


@irdl_op_definition
class LogicalAndOp(_Binary):
    name = "tosa.logical_and"


@irdl_op_definition
class LogicalOrOp(_Binary):
    name = "tosa.logical_or"


@irdl_op_definition
class LogicalXorOp(_Binary):
    name = "tosa.logical_xor"


@irdl_op_definition
class LogicalLeftShiftOp(_Binary):
    name = "tosa.logical_left_shift"


@irdl_op_definition
class LogicalRightShiftOp(_Binary):
    name = "tosa.logical_right_shift"


@irdl_op_definition
class EqualOp(_Compare):
    name = "tosa.equal"


@irdl_op_definition
class GreaterOp(_Compare):
    name = "tosa.greater"


@irdl_op_definition
class GreaterEqualOp(_Compare):
    name = "tosa.greater_equal"


@irdl_op_definition
class MaximumOp(_MinMax):
    name = "tosa.maximum"


@irdl_op_definition
class MinimumOp(_MinMax):
    name = "tosa.minimum"


@irdl_op_definition
class ArithmeticRightShiftOp(_Binary):
    name = "tosa.arithmetic_right_shift"
    round = prop_def(BoolAttr)


@irdl_op_definition
class SelectOp(_Elementwise):
    name = "tosa.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    input1 = operand_def(TensorType[i1])
    input2 = operand_def(TensorType.constr(T))
    input3 = operand_def(TensorType.constr(T))
    output = result_def(TensorType.constr(T))


@irdl_op_definition
class NegateOp(_Elementwise):
    """`-(input1 - input1_zp) + output_zp`; the zero points are one-element tensors."""

    name = "tosa.negate"
    T: ClassVar = VarConstraint("T", AnyAttr())
    input1 = operand_def(TensorType.constr(T))
    input1_zp = operand_def(TensorType.constr(T))
    output_zp = operand_def(TensorType.constr(T))
    output = result_def(TensorType.constr(T))

    def verify_(self) -> None:
        check_broadcast(self, (self.input1.type,), self.output.type)


@irdl_op_definition
class MatMulOp(IRDLOperation):
    """Batched `[N, H, C] x [N, C, W] -> [N, H, W]`; `a_zp` and `b_zp` are zero points."""

    name = "tosa.matmul"
    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(TensorType.constr(T))
    b = operand_def(TensorType.constr(T))
    a_zp = operand_def(TensorType.constr(T))
    b_zp = operand_def(TensorType.constr(T))
    output = result_def(TensorType)
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b, out = (t.get_shape() for t in (self.a.type, self.b.type, self.output.type))
        if len(a) != 3 or len(b) != 3 or len(out) != 3:
            raise VerifyException("'tosa.matmul' expects operands and result of rank 3")
        expected = (_batch(a[0], b[0]), a[1], b[2])
        if DYNAMIC_INDEX not in (a[2], b[1]) and a[2] != b[1]:
            raise VerifyException(f"'tosa.matmul' contracting dims differ: {a[2]} and {b[1]}")
        for got, want in zip(out, expected, strict=True):
            if DYNAMIC_INDEX not in (got, want) and got != want:
                raise VerifyException(
                    f"'tosa.matmul' result shape {tuple(out)} does not match {expected}"
                )


def _batch(x: int, y: int) -> int:
    if x == y or y == 1:
        return x
    if x == 1:
        return y
    if DYNAMIC_INDEX in (x, y):
        return DYNAMIC_INDEX
    raise VerifyException(f"'tosa.matmul' batch sizes {x} and {y} do not broadcast")


TOSA = Dialect(
    "tosa",
    [
        *(op for op in xdsl_tosa.TOSA.operations if op is not xdsl_tosa.MatMulOp),
        SigmoidOp,
        TanhOp,
        AbsOp,
        ExpOp,
        LogOp,
        RsqrtOp,
        FloorOp,
        CeilOp,
        ErfOp,
        ClzOp,
        BitwiseNotOp,
        LogicalNotOp,
        PowOp,
        IntDivOp,
        BitwiseAndOp,
        BitwiseOrOp,
        BitwiseXorOp,
        LogicalAndOp,
        LogicalOrOp,
        LogicalXorOp,
        LogicalLeftShiftOp,
        LogicalRightShiftOp,
        EqualOp,
        GreaterOp,
        GreaterEqualOp,
        MaximumOp,
        MinimumOp,
        ArithmeticRightShiftOp,
        SelectOp,
        NegateOp,
        MatMulOp,
    ],
    list(xdsl_tosa.TOSA.attributes),
)
