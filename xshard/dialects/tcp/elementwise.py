"""TCP's elementwise ops: unary, binary and clamp, with no implicit broadcasting."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import (
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.tcp.attributes import RoundingMode, RoundingModeAttr
from xshard.dialects.tcp.checks import Elements, element_kind, shapes_compatible, tensor_operand


class ElementwiseOp(IRDLOperation):
    """Operands and result share one element type and compatible shapes (no broadcasting)."""

    ELEMENTS: ClassVar[Elements] = Elements.ANY

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        out = tensor_operand(self, self.results[0], "result", self.ELEMENTS)
        for i, operand in enumerate(self.operands):
            ty = tensor_operand(self, operand, f"operand #{i}", self.ELEMENTS)
            if ty.element_type != out.element_type:
                raise VerifyException(
                    f"'{self.name}' op requires the same element type for all operands "
                    f"and results, but got {ty} and {out}"
                )
            if not shapes_compatible(ty.get_shape(), out.get_shape()):
                raise VerifyException(
                    f"'{self.name}' op requires the same shape for all operands and "
                    f"results (TCP does not broadcast implicitly), but got {ty} and {out}"
                )


class UnaryElementwiseOp(ElementwiseOp):
    input = operand_def(TensorType)
    out = result_def(TensorType)

    assembly_format = "$input attr-dict `:` type($input) `->` type($out)"

    def __init__(self, input: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[input], result_types=[result_type or input.type])


class UnaryFloatOp(UnaryElementwiseOp):
    ELEMENTS: ClassVar[Elements] = Elements.FLOAT


class BinaryElementwiseOp(ElementwiseOp):
    in1 = operand_def(TensorType)
    in2 = operand_def(TensorType)
    out = result_def(TensorType)

    assembly_format = "$in1 `,` $in2 attr-dict `:` type($in1) `,` type($in2) `->` type($out)"

    def __init__(self, in1: SSAValue, in2: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[in1, in2], result_types=[result_type or in1.type])


@irdl_op_definition
class TanhOp(UnaryFloatOp):
    name = "tcp.tanh"


@irdl_op_definition
class SigmoidOp(UnaryFloatOp):
    name = "tcp.sigmoid"


@irdl_op_definition
class SqrtOp(UnaryFloatOp):
    name = "tcp.sqrt"


@irdl_op_definition
class CeilOp(UnaryFloatOp):
    name = "tcp.ceil"


@irdl_op_definition
class FloorOp(UnaryFloatOp):
    name = "tcp.floor"


@irdl_op_definition
class RoundOp(UnaryFloatOp):
    """Rounds to the nearest integer, ties away from zero."""

    name = "tcp.round"


@irdl_op_definition
class RoundEvenOp(UnaryFloatOp):
    """Rounds to the nearest integer, ties to even."""

    name = "tcp.round_even"


@irdl_op_definition
class CosOp(UnaryFloatOp):
    name = "tcp.cos"


@irdl_op_definition
class SinOp(UnaryFloatOp):
    name = "tcp.sin"


@irdl_op_definition
class LogOp(UnaryFloatOp):
    name = "tcp.log"


@irdl_op_definition
class NegOp(UnaryFloatOp):
    name = "tcp.neg"


@irdl_op_definition
class AtanOp(UnaryFloatOp):
    name = "tcp.atan"


@irdl_op_definition
class ExpOp(UnaryFloatOp):
    """xshard addition: e**x (softmax needs it; upstream TCP lacks it)."""

    name = "tcp.exp"


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    name = "tcp.abs"


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    name = "tcp.add"


@irdl_op_definition
class SubOp(BinaryElementwiseOp):
    """in1 - in2."""

    name = "tcp.sub"


@irdl_op_definition
class MulOp(BinaryElementwiseOp):
    name = "tcp.mul"


@irdl_op_definition
class DivFOp(BinaryElementwiseOp):
    name = "tcp.divf"
    ELEMENTS: ClassVar[Elements] = Elements.FLOAT


@irdl_op_definition
class Atan2Op(BinaryElementwiseOp):
    """The angle of the point (in2, in1), i.e. atan(in1 / in2) in the right quadrant."""

    name = "tcp.atan2"
    ELEMENTS: ClassVar[Elements] = Elements.FLOAT


@irdl_op_definition
class MaxOp(BinaryElementwiseOp):
    """xshard addition: elementwise maximum (softmax's max-subtraction needs it)."""

    name = "tcp.max"


@irdl_op_definition
class MinOp(BinaryElementwiseOp):
    """xshard addition: elementwise minimum."""

    name = "tcp.min"


class IntDivOp(BinaryElementwiseOp):
    ELEMENTS: ClassVar[Elements] = Elements.INT
    rounding_mode = prop_def(RoundingModeAttr)

    def __init__(self, in1: SSAValue, in2: SSAValue, rounding_mode: RoundingMode):
        IRDLOperation.__init__(
            self,
            operands=[in1, in2],
            result_types=[in1.type],
            properties={"rounding_mode": RoundingModeAttr(rounding_mode)},
        )


@irdl_op_definition
class DivSIOp(IntDivOp):
    """Signed integer division, rounded as `rounding_mode` says."""

    name = "tcp.divsi"


@irdl_op_definition
class DivUIOp(IntDivOp):
    """Unsigned integer division (operands read as unsigned), rounded as `rounding_mode` says."""

    name = "tcp.divui"


@irdl_op_definition
class ClampOp(UnaryElementwiseOp):
    """Clamps to `[min, max]`; float bounds for float tensors, int bounds for int tensors."""

    name = "tcp.clamp"

    min_float = opt_prop_def(FloatAttr[Float32Type])
    max_float = opt_prop_def(FloatAttr[Float32Type])
    min_int = opt_prop_def(IntegerAttr[I64])
    max_int = opt_prop_def(IntegerAttr[I64])

    def verify_(self) -> None:
        super().verify_()
        kind = element_kind(self.input.type.element_type)
        has_float = self.min_float is not None or self.max_float is not None
        has_int = self.min_int is not None or self.max_int is not None
        if kind == Elements.FLOAT and has_int:
            raise VerifyException(
                f"'{self.name}' op failed to verify that int min / max attributes must not "
                "be set when input is a float tensor"
            )
        if kind == Elements.INT and has_float:
            raise VerifyException(
                f"'{self.name}' op failed to verify that float min / max attributes must not "
                "be set when input is an int tensor"
            )
        if not has_float and not has_int:
            raise VerifyException(
                f"'{self.name}' op failed to verify that at least one of min / max "
                "attributes must be set"
            )
