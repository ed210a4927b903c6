"""A TCP-style dialect: TCP's ops with upstream syntax, plus contraction and reductions.

Op names, operands, assembly formats and verifier rules follow llvm/mlir-tcp
(`include/mlir-tcp/Dialect/IR/TcpOps.td`, `lib/Dialect/IR/TcpOps.cpp`). Upstream
TCP has no exponential, max/min, contraction or reduction ops; xshard adds
`tcp.exp`, `tcp.max`, `tcp.min`, `tcp.matmul` and `tcp.reduce_{sum,max,min,prod}`
so softmax- and MLP-style programs can be written in TCP alone
(docs/dialects/tcp.md).

Like upstream there is no implicit broadcasting: `tcp.broadcast` only
replicates dimensions of static size 1 and never changes the rank (the RFC
"Broadcasting in TCP" decision); rank changes go through `tensor.expand_shape`.
Reductions keep the reduced dimensions with size 1, which makes them the
inverse of `tcp.broadcast`.

Quantized element types, `tcp.gather_nd` and the symbolic-shape ops are not
provided.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Flag, auto
from itertools import pairwise
from typing import ClassVar

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.dialects.builtin import (
    Signedness as BuiltinSignedness,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    ConstantLike,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------
# Enums (upstream TcpEnums.td spelling: `#tcp<signedness Signed>`)
# ---------------------------------------------------------------------------


class Signedness(StrEnum):
    """How `tcp.cast` reads or writes a signless integer."""

    Signless = "Signless"
    Signed = "Signed"
    Unsigned = "Unsigned"


@irdl_attr_definition
class SignednessAttr(EnumAttribute[Signedness], SpacedOpaqueSyntaxAttribute):
    name = "tcp.signedness"


class RoundingMode(StrEnum):
    """How integer division rounds its quotient."""

    Trunc = "Trunc"
    Floor = "Floor"
    Ceil = "Ceil"


@irdl_attr_definition
class RoundingModeAttr(EnumAttribute[RoundingMode], SpacedOpaqueSyntaxAttribute):
    name = "tcp.roundingMode"


# ---------------------------------------------------------------------------
# Type helpers
# ---------------------------------------------------------------------------


class Elements(Flag):
    """Element types an operand may have (upstream Tcp_FloatTensor, Tcp_IntTensor, ...)."""

    FLOAT = auto()
    INT = auto()
    ANY = FLOAT | INT


_ELEMENT_WORDS = {Elements.FLOAT: "float", Elements.INT: "signless integer",
                  Elements.ANY: "float or signless integer"}


def element_kind(element_type: Attribute) -> Elements | None:
    if isinstance(element_type, AnyFloat):
        return Elements.FLOAT
    if (
        isinstance(element_type, IntegerType)
        and element_type.signedness.data == BuiltinSignedness.SIGNLESS
    ):
        return Elements.INT
    return None


def _tensor(op: Operation, value: SSAValue, what: str, allowed: Elements) -> TensorType:
    """The tensor type of `value`, after checking its element type is allowed."""
    ty = value.type
    kind = element_kind(ty.element_type) if isinstance(ty, TensorType) else None
    if kind is None or kind not in allowed:
        raise VerifyException(
            f"'{op.name}' op {what} must be a ranked tensor of {_ELEMENT_WORDS[allowed]} "
            f"values, but got {ty}"
        )
    return ty


def dims_compatible(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC_INDEX or b == DYNAMIC_INDEX


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b, strict=True))


def int_list(attr: ArrayAttr[IntegerAttr[I64]]) -> list[int]:
    return [a.value.data for a in attr.data]


def _check_axes(op: Operation, axes: list[int], rank: int) -> None:
    """Upstream's rules for a static `axes` list: in bounds, increasing, no duplicates."""
    if any(a < 0 or a >= rank for a in axes):
        raise VerifyException(
            f"'{op.name}' op failed to verify that attribute `axes` are in bounds"
        )
    if any(b < a for a, b in pairwise(axes)):
        raise VerifyException(
            f"'{op.name}' op failed to verify that attribute `axes` must be in increasing order"
        )
    if len(set(axes)) != len(axes):
        raise VerifyException(
            f"'{op.name}' op failed to verify that attribute `axes` must not have any duplicates"
        )


# ---------------------------------------------------------------------------
# Elementwise ops
# ---------------------------------------------------------------------------


class ElementwiseOp(IRDLOperation):
    """Operands and result share one element type and compatible shapes (no broadcasting)."""

    ELEMENTS: ClassVar[Elements] = Elements.ANY

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        out = _tensor(self, self.results[0], "result", self.ELEMENTS)
        for i, operand in enumerate(self.operands):
            ty = _tensor(self, operand, f"operand #{i}", self.ELEMENTS)
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


# ---------------------------------------------------------------------------
# Constants and casts
# ---------------------------------------------------------------------------


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
        _tensor(self, self.out, "result", Elements.ANY)

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
        src = _tensor(self, self.input, "operand #0", Elements.ANY)
        dst = _tensor(self, self.out, "result", Elements.ANY)
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
        src = _tensor(self, self.input, "operand #0", Elements.ANY)
        dst = _tensor(self, self.out, "result", Elements.ANY)
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
        _check_axes(self, axes, len(shape))
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
        src = _tensor(self, self.input, "operand #0", Elements.ANY)
        dst = _tensor(self, self.out, "result", Elements.ANY)
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
        src = _tensor(self, self.input, "operand #0", Elements.ANY)
        idx = _tensor(self, self.indices, "operand #1", Elements.INT)
        dst = _tensor(self, self.out, "result", Elements.ANY)
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


# ---------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminates a group; yields its results."""

    name = "tcp.yield"

    ins = var_operand_def()

    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(GroupOp, IsolatedGroupOp)))
    assembly_format = "$ins attr-dict `:` type($ins)"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


def _verify_group(op: GroupOp | IsolatedGroupOp) -> None:
    yield_op = op.body.block.last_op
    assert isinstance(yield_op, YieldOp)  # SingleBlockImplicitTerminator checked it
    if len(yield_op.ins) != len(op.outs):
        raise VerifyException(
            f"'{op.name}' op failed to verify that the number of yielded values is same as "
            "the number of results"
        )
    for i, (value, result) in enumerate(zip(yield_op.ins, op.outs, strict=True)):
        if value.type != result.type:
            raise VerifyException(
                f"'{op.name}' op failed to verify that the type of operand #{i} of "
                "terminator matches the corresponding result type"
            )


@irdl_op_definition
class GroupOp(IRDLOperation):
    """Groups ops (a fusion decision) in a region that may use values from outside."""

    name = "tcp.group"

    outs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp))
    assembly_format = "attr-dict-with-keyword $body `:` type($outs)"

    def verify_(self) -> None:
        _verify_group(self)


@irdl_op_definition
class IsolatedGroupOp(IRDLOperation):
    """Like `tcp.group`, but isolated from above: outside values come in as `ins`."""

    name = "tcp.isolated_group"

    ins = var_operand_def()
    outs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), IsolatedFromAbove())
    assembly_format = "$ins attr-dict-with-keyword $body `:` type($ins) `->` type($outs)"

    def verify_(self) -> None:
        arg_types = [a.type for a in self.body.block.args]
        in_types = [v.type for v in self.ins]
        if arg_types != in_types:
            raise VerifyException(
                f"'{self.name}' op block argument types ({', '.join(map(str, arg_types))}) "
                f"must match the input types ({', '.join(map(str, in_types))})"
            )
        _verify_group(self)


@irdl_op_definition
class CustomOp(IRDLOperation):
    """An opaque op known by name (`op_name`); extra attributes are its parameters."""

    name = "tcp.custom_op"

    inputs = var_operand_def()
    op_name = prop_def(StringAttr)
    outputs = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $op_name `)` $inputs attr-dict `:` type($inputs) `->` type($outputs)"


# ---------------------------------------------------------------------------
# xshard additions: contraction and reductions
# ---------------------------------------------------------------------------


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
        a = _tensor(self, self.lhs, "operand #0", Elements.ANY)
        b = _tensor(self, self.rhs, "operand #1", Elements.ANY)
        c = _tensor(self, self.out, "result", Elements.ANY)
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
        src = _tensor(self, self.input, "operand #0", Elements.ANY)
        dst = _tensor(self, self.out, "result", Elements.ANY)
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
        _check_axes(self, axes, src.get_num_dims())
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


class TcpConstantMaterialization(ConstantMaterializationInterface):
    """Lets folding turn a folded tensor value back into a `tcp.const`."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if isinstance(value, DenseIntOrFPElementsAttr) and value.type == type:
            return ConstOp(value)
        return None


TCP = Dialect(
    "tcp",
    [
        TanhOp,
        SigmoidOp,
        SqrtOp,
        CeilOp,
        FloorOp,
        RoundOp,
        RoundEvenOp,
        CosOp,
        SinOp,
        LogOp,
        NegOp,
        AtanOp,
        ExpOp,
        AbsOp,
        AddOp,
        SubOp,
        MulOp,
        DivFOp,
        Atan2Op,
        MaxOp,
        MinOp,
        DivSIOp,
        DivUIOp,
        ClampOp,
        ConstOp,
        CastOp,
        BroadcastOp,
        SliceOp,
        GatherOp,
        YieldOp,
        GroupOp,
        IsolatedGroupOp,
        CustomOp,
        MatmulOp,
        ReduceSumOp,
        ReduceProdOp,
        ReduceMaxOp,
        ReduceMinOp,
    ],
    [SignednessAttr, RoundingModeAttr],
    [TcpConstantMaterialization()],
)
