"""Constants, casts, `tcp.broadcast` (size-1 dims only, as the broadcasting RFC decided),
slices and gathers."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    ConstantLike,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.tcp.attributes import Signedness, SignednessAttr
from xshard.dialects.tcp.checks import (
    Elements,
    check_axes,
    dims_compatible,
    element_kind,
    int_list,
    shapes_compatible,
    tensor_operand,
)


@irdl_op_definition
class ConstOp(IRDLOperation, HasFolderInterface):
    """A constant tensor; `value` has exactly the result type."""

    name = "tcp.const"

    value = prop_def(DenseIntOrFPElementsAttr)
    out = result_def(TensorType)

    traits = traits_def(Pure(), ConstantLike())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($out)"

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(result_types=[value.type], properties={"value": value})

    def verify_(self) -> None:
        if self.value.type != self.out.type:
            raise VerifyException(
                f"'{self.name}' op value type {self.value.type} does not match result "
                f"type {self.out.type}"
            )
        tensor_operand(self, self.out, "result", Elements.ANY)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        return (self.value,)


@irdl_op_definition
class CastOp(IRDLOperation):
    """Elementwise conversion between float and (signless, read as signed/unsigned) int types."""

    name = "tcp.cast"

    input = operand_def(TensorType)
    in_int_signedness = opt_prop_def(SignednessAttr)
    out_int_signedness = opt_prop_def(SignednessAttr)
    out = result_def(TensorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input) `->` type($out)"

    def __init__(
        self,
        input: SSAValue,
        result_type: TensorType,
        in_int_signedness: Signedness | None = None,
        out_int_signedness: Signedness | None = None,
    ):
        props: dict[str, Attribute] = {}
        if in_int_signedness is not None:
            props["in_int_signedness"] = SignednessAttr(in_int_signedness)
        if out_int_signedness is not None:
            props["out_int_signedness"] = SignednessAttr(out_int_signedness)
        super().__init__(operands=[input], result_types=[result_type], properties=props)

    def verify_(self) -> None:
        src = tensor_operand(self, self.input, "operand #0", Elements.ANY)
        dst = tensor_operand(self, self.out, "result", Elements.ANY)
        if not shapes_compatible(src.get_shape(), dst.get_shape()):
            raise VerifyException(
                f"'{self.name}' op requires the same shape for operand and result, "
                f"but got {src} and {dst}"
            )
        for side, ty, attr in (
            ("in", src, self.in_int_signedness),
            ("out", dst, self.out_int_signedness),
        ):
            io = "input" if side == "in" else "output"
            if element_kind(ty.element_type) == Elements.FLOAT:
                if attr is not None:
                    raise VerifyException(
                        f"'{self.name}' op {side}_int_signedness attr should not set when "
                        f"{io} is FP"
                    )
                continue
            if attr is None:
                raise VerifyException(
                    f"'{self.name}' op {side}_int_signedness attr must be set when {io} is INT"
                )
            if ty.element_type == IntegerType(1) and attr.data != Signedness.Signless:
                raise VerifyException(
                    f"'{self.name}' op {side}_int_signedness attr must be set to "
                    f"Signedness::Signless when {io} is i1"
                )


# ---------------------------------------------------------------------------
# Broadcast, slice, gather
# ---------------------------------------------------------------------------


@irdl_op_definition
class BroadcastOp(IRDLOperation, HasFolderInterface):
    """Replicates the size-1 dimensions listed in `axes`; `axes[i]` becomes `new_dim_sizes[i]` long.

    Exactly the RFC's design: size-1 broadcasting only, never a rank change,
    static sorted unique axes whose input size is statically 1.
    """

    name = "tcp.broadcast"

    input = operand_def(TensorType)
    new_dim_sizes = var_operand_def(IndexType)
    axes = prop_def(ArrayAttr[IntegerAttr[I64]])
    out = result_def(TensorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$input `,` $new_dim_sizes attr-dict `:` type($input) `,` type($new_dim_sizes) "
        "`->` type($out)"
    )

    def __init__(
        self,
        input: SSAValue,
        new_dim_sizes: Sequence[SSAValue],
        axes: Sequence[int],
        result_type: TensorType,
    ):
        super().__init__(
            operands=[input, new_dim_sizes],
            result_types=[result_type],
            properties={"axes": ArrayAttr(IntegerAttr(a, 64) for a in axes)},
        )

    def verify_(self) -> None:
        src = tensor_operand(self, self.input, "operand #0", Elements.ANY)
        dst = tensor_operand(self, self.out, "result", Elements.ANY)
        if src.get_num_dims() != dst.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op failed to verify that all of {{in, out}} have same rank "
                f"(tcp.broadcast never changes the rank; use tensor.expand_shape first), "
                f"but got {src} and {dst}"
            )
        if src.element_type != dst.element_type:
            raise VerifyException(
                f"'{self.name}' op failed to verify that all of {{in, out}} have same "
                f"element type, but got {src} and {dst}"
            )
        axes = int_list(self.axes)
        shape = src.get_shape()
        if any(a < 0 or a >= len(shape) for a in axes):
            raise VerifyException(
                f"'{self.name}' op failed to verify that attribute `axes` are in bounds"
            )
        if any(shape[a] != 1 for a in axes):
            raise VerifyException(
                f"'{self.name}' op failed to verify that dimensions listed in attribute "
                "`axes` have a static size of `1`"
            )
        check_axes(self, axes, len(shape))
        if len(self.new_dim_sizes) != len(axes):
            raise VerifyException(
                f"'{self.name}' op failed to verify that argument `new_dim_sizes` has the "
                "same size as the attribute `axes`"
            )
        out_shape = dst.get_shape()
        for d, (a, b) in enumerate(zip(shape, out_shape, strict=False)):
            if d not in axes and not dims_compatible(a, b):
                raise VerifyException(
                    f"'{self.name}' op dimension {d} is not listed in `axes`, so its size "
                    f"must not change, but got {src} and {dst}"
                )

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """Broadcasting size-1 dimensions to size 1 changes nothing."""
        return (self.input,) if self.input.type == self.out.type else None


@irdl_op_definition
class SliceOp(IRDLOperation):
    """A strided slice: `sizes[d]` elements of dimension d from `starts[d]`, every `strides[d]`."""

    name = "tcp.slice"

    input = operand_def(TensorType)
    starts = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    out = result_def(TensorType)

    traits = traits_def(Pure())
    irdl_options = (SameVariadicOperandSize(),)
    assembly_format = (
        "$input `starts` `(` $starts `)` `sizes` `(` $sizes `)` `strides` `(` $strides `)` "
        "attr-dict `:` type($input) `->` type($out)"
    )

    def __init__(
        self,
        input: SSAValue,
        starts: Sequence[SSAValue],
        sizes: Sequence[SSAValue],
        strides: Sequence[SSAValue],
        result_type: TensorType,
    ):
        super().__init__(operands=[input, starts, sizes, strides], result_types=[result_type])

    def verify_(self) -> None:
        src = tensor_operand(self, self.input, "operand #0", Elements.ANY)
        dst = tensor_operand(self, self.out, "result", Elements.ANY)
        if src.element_type != dst.element_type or src.get_num_dims() != dst.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op requires the same element type and rank for operand "
                f"and result, but got {src} and {dst}"
            )
        if len(self.starts) != src.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op expects one start, size and stride per dimension "
                f"({src.get_num_dims()}), but got {len(self.starts)}"
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """torch.gather along `dim`: out[i...] = input[i... with i_dim := indices[i...]]."""

    name = "tcp.gather"

    input = operand_def(TensorType)
    indices = operand_def(TensorType)
    dim = prop_def(IntegerAttr[IndexType])
    out = result_def(TensorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$input `,` $indices attr-dict `:` type($input) `,` type($indices) `->` type($out)"
    )

    def verify_(self) -> None:
        src = tensor_operand(self, self.input, "operand #0", Elements.ANY)
        idx = tensor_operand(self, self.indices, "operand #1", Elements.INT)
        dst = tensor_operand(self, self.out, "result", Elements.ANY)
        dim = self.dim.value.data
        if src.get_num_dims() != idx.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op tcp.gather requires that the input tensor and indices "
                "are the same rank"
            )
        if not 0 <= dim < src.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op gather dimension {dim} is out of bounds for {src}"
            )
        for d, (a, b) in enumerate(zip(src.get_shape(), idx.get_shape(), strict=False)):
            if d != dim and a != b and a != DYNAMIC_INDEX:
                raise VerifyException(
                    f"'{self.name}' op indices tensor does not match expected shape"
                )
        if dst.get_shape() != idx.get_shape() or dst.element_type != src.element_type:
            raise VerifyException(
                f"'{self.name}' op Expect the shape of the indicies to match the output shape"
            )
