"""`tcp.matmul` and the reductions xshard adds to TCP (reduced dims kept with size 1)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import (
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.tcp.checks import (
    Elements,
    check_axes,
    dims_compatible,
    int_list,
    shapes_compatible,
    tensor_operand,
)


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """Batched matrix product: out[b..., m, n] = sum_k lhs[b..., m, k] * rhs[b..., k, n].

    Both operands have the same rank r >= 2; the leading r - 2 dimensions are
    batch dimensions, equal on both sides (no implicit batch broadcasting).
    """

    name = "tcp.matmul"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    out = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($out)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: TensorType):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def verify_(self) -> None:
        a = tensor_operand(self, self.lhs, "operand #0", Elements.ANY)
        b = tensor_operand(self, self.rhs, "operand #1", Elements.ANY)
        c = tensor_operand(self, self.out, "result", Elements.ANY)
        if not a.element_type == b.element_type == c.element_type:
            raise VerifyException(
                f"'{self.name}' op requires the same element type for operands and result, "
                f"but got {a}, {b} and {c}"
            )
        rank = a.get_num_dims()
        if rank < 2 or b.get_num_dims() != rank or c.get_num_dims() != rank:
            raise VerifyException(
                f"'{self.name}' op requires operands and result of one rank >= 2 (batch "
                f"dims, then rows and columns), but got {a}, {b} and {c}"
            )
        sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()
        if not shapes_compatible(sa[:-2], sb[:-2]):
            raise VerifyException(
                f"'{self.name}' op batch dimensions of {a} and {b} differ"
            )
        if not dims_compatible(sa[-1], sb[-2]):
            raise VerifyException(
                f"'{self.name}' op contracting dimensions differ: {a} has {sa[-1]} columns, "
                f"{b} has {sb[-2]} rows"
            )
        expected = (*sa[:-2], sa[-2], sb[-1])
        if not shapes_compatible(expected, sc):
            raise VerifyException(
                f"'{self.name}' op result type {c} does not match the product of {a} and {b}"
            )


class ReduceOp(IRDLOperation, HasFolderInterface):
    """Reduces over `axes`, keeping them with size 1 (the inverse of `tcp.broadcast`)."""

    input = operand_def(TensorType)
    axes = prop_def(ArrayAttr[IntegerAttr[I64]])
    out = result_def(TensorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input) `->` type($out)"

    def __init__(self, input: SSAValue, axes: Sequence[int], result_type: TensorType):
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"axes": ArrayAttr(IntegerAttr(a, 64) for a in axes)},
        )

    def verify_(self) -> None:
        src = tensor_operand(self, self.input, "operand #0", Elements.ANY)
        dst = tensor_operand(self, self.out, "result", Elements.ANY)
        if src.element_type != dst.element_type:
            raise VerifyException(
                f"'{self.name}' op requires the same element type for operand and result, "
                f"but got {src} and {dst}"
            )
        if src.get_num_dims() != dst.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op keeps the reduced dimensions, so operand and result "
                f"must have the same rank, but got {src} and {dst}"
            )
        axes = int_list(self.axes)
        if not axes:
            raise VerifyException(f"'{self.name}' op requires at least one axis in `axes`")
        check_axes(self, axes, src.get_num_dims())
        for d, (a, b) in enumerate(zip(src.get_shape(), dst.get_shape(), strict=False)):
            if d in axes and b != 1:
                raise VerifyException(
                    f"'{self.name}' op reduced dimension {d} must have size 1 in the "
                    f"result, but got {dst}"
                )
            if d not in axes and not dims_compatible(a, b):
                raise VerifyException(
                    f"'{self.name}' op dimension {d} is not reduced, so its size must not "
                    f"change, but got {src} and {dst}"
                )

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """Reducing dimensions that already have size 1 gives the input back."""
        return (self.input,) if self.input.type == self.out.type else None


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    name = "tcp.reduce_sum"


@irdl_op_definition
class ReduceProdOp(ReduceOp):
    name = "tcp.reduce_prod"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    name = "tcp.reduce_max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    name = "tcp.reduce_min"
