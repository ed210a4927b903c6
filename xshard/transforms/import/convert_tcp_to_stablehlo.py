"""`convert-tcp-to-stablehlo`: lower TCP programs to the StableHLO that XLA runs.

Elementwise ops map one to one; `tcp.const` becomes `stablehlo.constant`,
`tcp.cast` `stablehlo.convert` (through an unsigned type where the cast reads or
writes unsigned integers), `tcp.clamp` a `stablehlo.clamp` with rank-0 constant
bounds, `tcp.broadcast` a `stablehlo.broadcast_in_dim` with the identity
dimension map, `tcp.slice` with constant operands a `stablehlo.slice`,
`tcp.matmul` a `stablehlo.dot_general`, the keep-dims reductions a
`stablehlo.reduce` followed by a `stablehlo.reshape` that puts the size-1
dimensions back, `tensor.expand_shape`/`collapse_shape`/`reshape` a
`stablehlo.reshape`, and groups are inlined. Integer division rounding other
than towards zero is built from divide, remainder, compare and select.

StableHLO ops carry static shapes here wherever the TCP op takes sizes as SSA
values (broadcast, slice, reshapes), because XLA needs them. What cannot be
lowered (`tcp.gather`, dynamic slices or broadcasts, ops whose StableHLO
counterpart xshard's subset lacks) is reported at the op, never skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i1,
)
from xdsl.dialects.builtin import (
    Signedness as BuiltinSignedness,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xshard.diagnostics import DiagnosticError
from xshard.dialects import stablehlo as shlo
from xshard.dialects import tcp

# tcp op -> name of its StableHLO counterpart. Names, not classes: an op missing
# from xshard's StableHLO subset is reported at the TCP op that needs it.
ELEMENTWISE: dict[type[Operation], str] = {
    tcp.AddOp: "stablehlo.add",
    tcp.SubOp: "stablehlo.subtract",
    tcp.MulOp: "stablehlo.multiply",
    tcp.DivFOp: "stablehlo.divide",
    tcp.MaxOp: "stablehlo.maximum",
    tcp.MinOp: "stablehlo.minimum",
    tcp.Atan2Op: "stablehlo.atan2",
    tcp.TanhOp: "stablehlo.tanh",
    tcp.SigmoidOp: "stablehlo.logistic",
    tcp.SqrtOp: "stablehlo.sqrt",
    tcp.CeilOp: "stablehlo.ceil",
    tcp.FloorOp: "stablehlo.floor",
    tcp.CosOp: "stablehlo.cosine",
    tcp.SinOp: "stablehlo.sine",
    tcp.LogOp: "stablehlo.log",
    tcp.NegOp: "stablehlo.negate",
    tcp.ExpOp: "stablehlo.exponential",
    tcp.AbsOp: "stablehlo.abs",
}

# keep-dims reduction -> the StableHLO op of its reduce body
REDUCTIONS: dict[type[tcp.ReduceOp], type[Operation]] = {
    tcp.ReduceSumOp: shlo.AddOp,
    tcp.ReduceProdOp: shlo.MultiplyOp,
    tcp.ReduceMaxOp: shlo.MaximumOp,
    tcp.ReduceMinOp: shlo.MinimumOp,
}


def signed_range(element: IntegerType) -> tuple[int, int]:
    """Smallest and largest value of a signless integer read as signed (as StableHLO does)."""
    half = 1 << (element.width.data - 1)
    return -half, half - 1


def reduction_identity(op: tcp.ReduceOp, element: Attribute) -> float | int:
    """The init value of the reduce: what an empty reduction gives."""
    if isinstance(op, tcp.ReduceSumOp):
        return 0
    if isinstance(op, tcp.ReduceProdOp):
        return 1
    lo, hi = signed_range(element) if isinstance(element, IntegerType) else (-math.inf, math.inf)
    return lo if isinstance(op, tcp.ReduceMaxOp) else hi


def stablehlo_op_class(op: Operation, name: str) -> type[Operation]:
    for cls in shlo.StableHLO.operations:
        if cls.name == name:
            return cls
    raise DiagnosticError(
        op, f"cannot lower '{op.name}': xshard's StableHLO dialect has no '{name}'"
    )


def static_type(op: Operation, ty: Attribute) -> TensorType:
    """`ty` as a tensor type with a static shape, or a diagnostic at `op`."""
    if not isinstance(ty, TensorType) or DYNAMIC_INDEX in ty.get_shape():
        raise DiagnosticError(
            op, f"cannot lower '{op.name}' to StableHLO: {ty} does not have a static shape"
        )
    return ty


def splat(value: float | int, ty: TensorType) -> shlo.ConstantOp:
    return shlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(ty, [value]))


def scalar(value: float | int, element_type: Attribute) -> shlo.ConstantOp:
    return splat(value, TensorType(element_type, []))


def constant_index(value: SSAValue) -> int | None:
    """The value of an `arith.constant` of index type, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def reject_booleans(op: Operation) -> None:
    """TCP computes on i1 as on any signless integer (1 + 1 wraps to 0); StableHLO's
    booleans add and multiply as `or` and `and`, so the meanings differ."""
    if any(isinstance(v.type, TensorType) and v.type.element_type == i1 for v in op.operands):
        raise DiagnosticError(
            op,
            f"cannot lower '{op.name}' on i1 to StableHLO: StableHLO computes on booleans "
            "as logic (add is or), not as integers modulo 2",
        )


class LowerElementwise(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        name = ELEMENTWISE.get(type(op))
        if name is None:
            return
        reject_booleans(op)
        cls = stablehlo_op_class(op, name)
        new = cls.create(operands=list(op.operands), result_types=[op.results[0].type])
        rewriter.replace(op, new)


class LowerAtan(RewritePattern):
    """atan(x) = atan2(x, 1): StableHLO has no one-argument arctangent."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.AtanOp, rewriter: PatternRewriter) -> None:
        ty = static_type(op, op.out.type)
        one = splat(1.0, ty)
        rewriter.replace(op, [one, shlo.Atan2Op(op.input, one.output)])


class LowerRound(RewritePattern):
    """Both roundings from floor, exactly (the subset has no `round_nearest_*`).

    f = floor(|x|) and the fraction |x| - f are exact in floating point, so the
    only choice is at the fraction 0.5: away from zero takes f + 1, to-even takes
    whichever of f, f + 1 is even. The sign is put back last.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tcp.RoundOp | tcp.RoundEvenOp, rewriter: PatternRewriter
    ) -> None:
        ty = static_type(op, op.out.type)
        new_ops: list[Operation] = []

        def emit(new: Operation) -> SSAValue:
            new_ops.append(new)
            return new.results[0]

        x = op.input
        half, one, zero = (emit(splat(v, ty)) for v in (0.5, 1.0, 0.0))
        a = emit(shlo.AbsOp(x))
        f = emit(shlo.FloorOp(a))
        frac = emit(shlo.SubtractOp(a, f))
        up = emit(shlo.AddOp(f, one))
        if isinstance(op, tcp.RoundOp):
            r = emit(shlo.SelectOp(emit(shlo.CompareOp(frac, half, "GE")), up, f))
        else:
            two = emit(splat(2.0, ty))
            f_half = emit(shlo.FloorOp(emit(shlo.DivideOp(f, two))))
            f_odd = emit(shlo.CompareOp(emit(shlo.MultiplyOp(f_half, two)), f, "NE"))
            tie_up = emit(shlo.AndOp(emit(shlo.CompareOp(frac, half, "EQ")), f_odd))
            go_up = emit(shlo.OrOp(emit(shlo.CompareOp(frac, half, "GT")), tie_up))
            r = emit(shlo.SelectOp(go_up, up, f))
        negative = emit(shlo.CompareOp(x, zero, "LT"))
        result = emit(shlo.SelectOp(negative, emit(shlo.NegateOp(r)), r))
        rewriter.replace(op, new_ops, [result])


class LowerConst(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.ConstOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, shlo.ConstantOp(op.value))


def _unsigned(ty: TensorType) -> TensorType:
    element = ty.element_type
    assert isinstance(element, IntegerType)
    return TensorType(IntegerType(element.width.data, BuiltinSignedness.UNSIGNED), ty.get_shape())


class LowerCast(RewritePattern):
    """StableHLO reads a signless integer as signed; unsigned ends go through `ui<N>`.

    A same-width integer conversion keeps the bits, so `i32 -> ui32` reinterprets.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.CastOp, rewriter: PatternRewriter) -> None:
        src, dst = op.input.type, op.out.type
        assert isinstance(src, TensorType) and isinstance(dst, TensorType)
        new_ops: list[Operation] = []
        value: SSAValue = op.input
        unsigned_in = (
            op.in_int_signedness is not None
            and op.in_int_signedness.data == tcp.Signedness.Unsigned
        )
        if unsigned_in:
            new_ops.append(shlo.ConvertOp(value, _unsigned(src)))
            value = new_ops[-1].results[0]
        unsigned_out = (
            op.out_int_signedness is not None
            and op.out_int_signedness.data == tcp.Signedness.Unsigned
        )
        new_ops.append(shlo.ConvertOp(value, _unsigned(dst) if unsigned_out else dst))
        if unsigned_out:
            new_ops.append(shlo.ConvertOp(new_ops[-1].results[0], dst))
        rewriter.replace(op, new_ops)


class LowerClamp(RewritePattern):
    """A missing bound becomes the element type's extreme, so one `stablehlo.clamp` does."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.ClampOp, rewriter: PatternRewriter) -> None:
        reject_booleans(op)
        ty = op.input.type
        assert isinstance(ty, TensorType)
        element = ty.element_type
        if isinstance(element, IntegerType):
            # i64 bounds saturate to the element type: the same clamp, and representable.
            smallest, largest = signed_range(element)
            lo = op.min_int.value.data if op.min_int is not None else smallest
            hi = op.max_int.value.data if op.max_int is not None else largest
            lo, hi = (min(max(v, smallest), largest) for v in (lo, hi))
        else:
            lo = op.min_float.value.data if op.min_float is not None else -math.inf
            hi = op.max_float.value.data if op.max_float is not None else math.inf
        lo_op, hi_op = scalar(lo, element), scalar(hi, element)
        rewriter.replace(op, [lo_op, hi_op, shlo.ClampOp(lo_op, op.input, hi_op)])


class LowerIntDivision(RewritePattern):
    """`stablehlo.divide` truncates; floor and ceil correct the quotient by one.

    Signed: with r = a rem b, floor subtracts 1 where r != 0 and r, b differ in
    sign; ceil adds 1 where r != 0 and they agree. Unsigned division runs on
    `ui<N>` (floor is truncation there; ceil adds 1 where r != 0).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.IntDivOp, rewriter: PatternRewriter) -> None:
        reject_booleans(op)
        ty = op.out.type
        assert isinstance(ty, TensorType)
        mode = op.rounding_mode.data
        unsigned = isinstance(op, tcp.DivUIOp)
        new_ops: list[Operation] = []

        def emit(new: Operation) -> SSAValue:
            new_ops.append(new)
            return new.results[0]

        a, b = op.in1, op.in2
        work_ty = ty
        if unsigned:
            work_ty = _unsigned(ty)
            a, b = emit(shlo.ConvertOp(a, work_ty)), emit(shlo.ConvertOp(b, work_ty))
        q = emit(shlo.DivideOp(a, b))
        if mode == tcp.RoundingMode.Trunc or (unsigned and mode == tcp.RoundingMode.Floor):
            result = q
        else:
            static_type(op, ty)
            r = emit(shlo.RemainderOp(a, b))
            zero, one = emit(splat(0, work_ty)), emit(splat(1, work_ty))
            adjust = emit(shlo.CompareOp(r, zero, "NE"))
            if not unsigned:
                r_neg = emit(shlo.CompareOp(r, zero, "LT"))
                b_neg = emit(shlo.CompareOp(b, zero, "LT"))
                signs = "NE" if mode == tcp.RoundingMode.Floor else "EQ"
                differ = emit(shlo.CompareOp(r_neg, b_neg, signs))
                adjust = emit(shlo.AndOp(adjust, differ))
            step = shlo.SubtractOp if mode == tcp.RoundingMode.Floor else shlo.AddOp
            result = emit(shlo.SelectOp(adjust, emit(step(q, one)), q))
        if unsigned:
            result = emit(shlo.ConvertOp(result, ty))
        rewriter.replace(op, new_ops, [result])


class LowerBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.BroadcastOp, rewriter: PatternRewriter) -> None:
        ty = static_type(op, op.out.type)
        for axis, size in zip(tcp.int_list(op.axes), op.new_dim_sizes, strict=True):
            known = constant_index(size)
            if known is not None and known != ty.get_shape()[axis]:
                raise DiagnosticError(
                    op,
                    f"cannot lower 'tcp.broadcast' to StableHLO: new size {known} of "
                    f"dimension {axis} contradicts the result type {ty}",
                )
        dims = list(range(ty.get_num_dims()))
        rewriter.replace(op, shlo.BroadcastInDimOp(op.input, dims, ty))


class LowerSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.SliceOp, rewriter: PatternRewriter) -> None:
        ty = static_type(op, op.out.type)
        static_type(op, op.input.type)
        starts = [constant_index(v) for v in op.starts]
        sizes = [constant_index(v) for v in op.sizes]
        strides = [constant_index(v) for v in op.strides]
        if None in starts or None in sizes or None in strides:
            raise DiagnosticError(
                op,
                "cannot lower 'tcp.slice' to StableHLO: starts, sizes and strides must be "
                "arith.constant values",
            )
        if list(sizes) != list(ty.get_shape()):
            raise DiagnosticError(
                op,
                f"cannot lower 'tcp.slice' to StableHLO: sizes {sizes} contradict the "
                f"result type {ty}",
            )
        limits = [
            s + (n - 1) * k + 1 if n else s for s, n, k in zip(starts, sizes, strides, strict=True)
        ]
        in_shape = op.input.type.get_shape()
        if any(k < 1 for k in strides) or any(
            s < 0 or limit > dim for s, limit, dim in zip(starts, limits, in_shape, strict=True)
        ):
            raise DiagnosticError(
                op,
                f"cannot lower 'tcp.slice' to StableHLO: starts {starts}, sizes {sizes}, "
                f"strides {strides} do not select inside {op.input.type} with positive strides",
            )
        rewriter.replace(op, shlo.SliceOp(op.input, starts, limits, strides, ty))


class LowerMatmul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.MatmulOp, rewriter: PatternRewriter) -> None:
        rank = op.out.type.get_num_dims()
        batch = list(range(rank - 2))
        rewriter.replace(
            op,
            shlo.DotGeneralOp(op.lhs, op.rhs, batch, batch, [rank - 1], [rank - 2], op.out.type),
        )


class LowerReduction(RewritePattern):
    """`stablehlo.reduce` drops the reduced dims; a reshape restores them with size 1."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.ReduceOp, rewriter: PatternRewriter) -> None:
        ty = static_type(op, op.out.type)
        static_type(op, op.input.type)
        reject_booleans(op)
        body = REDUCTIONS[type(op)]
        element = ty.element_type
        axes = tcp.int_list(op.axes)
        init = scalar(reduction_identity(op, element), element)
        reduce = shlo.ReduceOp.create([op.input], [init.results[0]], axes, body)
        reshape = shlo.ReshapeOp(reduce.results[0], ty)
        rewriter.replace(op, [init, reduce, reshape])


class LowerTensorReshapes(RewritePattern):
    """expand_shape, collapse_shape and reshape only move metadata: one `stablehlo.reshape`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tensor.ExpandShapeOp | tensor.CollapseShapeOp | tensor.ReshapeOp):
            return
        source = op.operands[0]
        ty = static_type(op, op.results[0].type)
        static_type(op, source.type)
        rewriter.replace(op, shlo.ReshapeOp(source, ty))


class InlineGroups(RewritePattern):
    """A group is a fusion hint that StableHLO has no use for: splice its body in place."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tcp.GroupOp | tcp.IsolatedGroupOp):
            return
        block = op.body.block
        yield_op = block.last_op
        assert isinstance(yield_op, tcp.YieldOp)
        results = list(yield_op.ins)
        rewriter.erase(yield_op)
        args = list(op.ins) if isinstance(op, tcp.IsolatedGroupOp) else []
        rewriter.inline_block(block, InsertPoint.before(op), args)
        rewriter.replace(op, [], results)


class LowerCustomOp(RewritePattern):
    """An opaque op stays opaque: `stablehlo.custom_call @op_name`, its attributes kept."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.CustomOp, rewriter: PatternRewriter) -> None:
        call = shlo.CustomCallOp(
            op.op_name.data,
            list(op.inputs),
            [r.type for r in op.outputs],
            attributes=op.attributes,
        )
        rewriter.replace(op, call)


class RejectGather(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tcp.GatherOp, rewriter: PatternRewriter) -> None:
        raise DiagnosticError(
            op,
            "cannot lower 'tcp.gather' to StableHLO: xshard's StableHLO subset has no "
            "stablehlo.gather",
        )


def _erase_dead_shape_operands(module: ModuleOp) -> None:
    """Sizes and shapes that TCP and tensor ops took as SSA values are static now: drop them."""
    for op in reversed(list(module.walk())):
        if isinstance(op, tensor.DimOp | arith.ConstantOp) and not op.results[0].uses:
            op.detach()
            op.erase()


@dataclass(frozen=True)
class ConvertTcpToStablehloPass(ModulePass):
    """Lower TCP ops to StableHLO.

    Tensor reshapes too; what cannot be lowered is reported.
    """

    name = "convert-tcp-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    InlineGroups(),
                    LowerAtan(),
                    LowerRound(),
                    LowerElementwise(),
                    LowerConst(),
                    LowerCast(),
                    LowerClamp(),
                    LowerIntDivision(),
                    LowerBroadcast(),
                    LowerSlice(),
                    LowerMatmul(),
                    LowerReduction(),
                    LowerTensorReshapes(),
                    LowerCustomOp(),
                    RejectGather(),
                ],
                dce_enabled=False,
            ),
        ).rewrite_module(op)
        _erase_dead_shape_operands(op)
        for inner in op.walk():
            if inner.dialect_name() == "tcp":
                raise DiagnosticError(inner, f"'{inner.name}' was not lowered to StableHLO")
