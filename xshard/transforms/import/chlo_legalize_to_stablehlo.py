"""`chlo-legalize-to-stablehlo`: decompose the CHLO ops JAX emits into StableHLO.

Upstream StableHLO's pass of the same name, for the ops in `xshard.dialects.chlo`,
with the same mathematics (`ChloLegalizeToStablehlo.cpp`, `ChloDecompositionPatterns*`):

- the special functions (`erf`, `erfc`, `erf_inv`, `lgamma`, `digamma`, `bessel_i1e`,
  `zeta`, `polygamma`, the hyperbolic and inverse trigonometric functions) become
  arithmetic, in `chlo_special_functions`; complex arguments are refused;
- `square` is `x * x`; `tan` is `stablehlo.tan`; `conj` of a real is the real;
  `is_inf`, `is_pos_inf`, `is_neg_inf` compare (the absolute value) with infinity;
- `next_after` steps x's bits, read as an integer, by one towards y;
- `mulhi`: the product in twice the width, shifted right; in 64 bits, from 32-bit halves;
- `top_k`: an i32 iota along the last dim, a stable `sort` of (values, iota) by
  values, greatest first (`TOTALORDER` for floats), and a `slice` of the first k;
- `ragged_dot`: the lhs masked to each group's rows, one `dot_general` per group, summed
  (ragged free dim) or stacked (ragged contracting dim); a plain `dot_general` when the
  ragged dim is a batching dim.

Constants are rank-0 `stablehlo.constant`s broadcast to the operand's shape, as JAX
writes them. Shapes must be static.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.diagnostics import DiagnosticError
from xshard.dialects import chlo
from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.attributes import Precision
from xshard.dialects.stablehlo.checks import is_complex

from .chlo_special_functions import FLOAT_FORMS, Emit


def _real(op: Operation, value: SSAValue) -> TensorType:
    """`value`'s static tensor type, which must not be complex."""
    t = _static(op, value.type)
    if is_complex(t.element_type):
        raise DiagnosticError(op, f"'{op.name}' on complex numbers is not supported by "
                                  "chlo-legalize-to-stablehlo")
    return t


def _decompose_float(op: Operation, builder: Builder) -> SSAValue:
    """An op of `FLOAT_FORMS`: its width's form; f16 and bf16 through f32 where upstream
    converts them (all operands, and the result back)."""
    t = _real(op, op.operands[0])
    f32_form, f64_form, upcast = FLOAT_FORMS[type(op)]
    if isinstance(t.element_type, Float64Type):
        return f64_form(Emit(builder, t), *op.operands)
    if upcast and not isinstance(t.element_type, Float32Type):
        wide = TensorType(f32, t.get_shape())
        xs = [builder.insert(hlo.ConvertOp(x, wide)).results[0] for x in op.operands]
        y = f32_form(Emit(builder, wide), *xs)
        return builder.insert(hlo.ConvertOp(y, t)).results[0]
    return f32_form(Emit(builder, t), *op.operands)


def _decompose_simple(op: chlo.UnaryOp, builder: Builder) -> SSAValue:
    """square, tan, conj and the infinity tests."""
    x = op.operand
    if isinstance(op, chlo.TanOp):
        _static(op, x.type)
        return builder.insert(hlo.TanOp(x)).results[0]
    e = Emit(builder, _real(op, x))
    if isinstance(op, chlo.SquareOp):
        return e.mul(x, x)
    if isinstance(op, chlo.ConjOp):
        return x
    if isinstance(op, chlo.IsInfOp):
        x = e.unary(hlo.AbsOp, x)
    bound = -math.inf if isinstance(op, chlo.IsNegInfOp) else math.inf
    return e.less(x, e.const(bound), "EQ")


# ---------------------------------------------------------------- next_after, mulhi


def _next_after(op: chlo.NextAfterOp, builder: Builder) -> SSAValue:
    """x's bits as an integer, one step towards y: down where |x| > |y| or the signs
    differ, up otherwise; y where x == y (so ±0 keeps y's sign), the smallest subnormal
    signed like y where x is ±0, NaN where either is NaN."""
    t = _static(op, op.lhs.type)
    assert isinstance(t.element_type, AnyFloat)
    width = t.element_type.bitwidth
    bits_type = TensorType(IntegerType(width), t.get_shape())
    e, b = Emit(builder, t), Emit(builder, bits_type)

    def bits(value: SSAValue, to: TensorType = bits_type) -> SSAValue:
        return b.op(hlo.BitcastConvertOp(operands=[value], result_types=[to]))

    x, y = op.lhs, op.rhs
    x_bits, y_bits = bits(x), bits(y)
    nan_input = e.op(hlo.OrOp(e.less(x, x, "NE"), e.less(y, y, "NE")))
    sign_bit = -(1 << (width - 1))
    x_abs, y_abs = (b.op(hlo.AndOp(v, b.const(~sign_bit))) for v in (x_bits, y_bits))
    x_sign, y_sign = (b.op(hlo.AndOp(v, b.const(sign_bit))) for v in (x_bits, y_bits))
    zero, one = b.const(0), b.const(1)
    smaller = b.op(hlo.OrOp(b.less(x_abs, y_abs, "GT"), b.less(x_sign, y_sign, "NE")))
    stepped = b.add(x_bits, b.select(smaller, b.const(-1), one))
    from_zero = b.select(b.less(y_abs, zero, "EQ"), y_bits, b.op(hlo.OrOp(y_sign, one)))
    result = b.select(b.less(x_abs, zero, "EQ"), from_zero, stepped)
    result = b.select(e.less(x, y, "EQ"), y_bits, result)
    result = b.select(nan_input, bits(e.const(math.nan)), result)
    return bits(result, t)


def _mulhi(op: chlo.MulhiOp, builder: Builder) -> SSAValue:
    t = _static(op, op.lhs.type)
    elem = t.element_type
    assert isinstance(elem, IntegerType)
    unsigned = elem.signedness.data == Signedness.UNSIGNED
    if elem.width.data < 64:
        return _mulhi_widened(builder, t, op.lhs, op.rhs, unsigned)
    if unsigned:
        return _mulhi_u64(Emit(builder, t), op.lhs, op.rhs)
    return _mulhi_s64(builder, t, op.lhs, op.rhs)


def _mulhi_widened(
    builder: Builder, t: TensorType, a: SSAValue, b: SSAValue, unsigned: bool
) -> SSAValue:
    """Below 64 bits: the product in twice the width, shifted right by the width."""
    elem = t.element_type
    assert isinstance(elem, IntegerType)
    width = elem.width.data
    w = Emit(builder, TensorType(IntegerType(2 * width, elem.signedness), t.get_shape()))
    product = w.mul(w.op(hlo.ConvertOp(a, w.like)), w.op(hlo.ConvertOp(b, w.like)))
    shift = hlo.ShiftRightLogicalOp if unsigned else hlo.ShiftRightArithmeticOp
    return w.op(hlo.ConvertOp(w.op(shift(product, w.const(width))), t))


def _mulhi_u64(e: Emit, a: SSAValue, b: SSAValue) -> SSAValue:
    """From 32-bit halves: a_hi b_hi plus the carries out of the middle products."""
    mask = e.const(0xFFFFFFFF)

    def high(v: SSAValue) -> SSAValue:
        return e.op(hlo.ShiftRightLogicalOp(v, e.const(32)))

    a_hi, b_hi = high(a), high(b)
    a_lo, b_lo = e.op(hlo.AndOp(a, mask)), e.op(hlo.AndOp(b, mask))
    mid1 = e.add(e.mul(a_lo, b_hi), high(e.mul(a_lo, b_lo)))
    mid2 = e.add(e.mul(a_hi, b_lo), e.op(hlo.AndOp(mid1, mask)))
    return e.add(e.add(e.mul(a_hi, b_hi), high(mid1)), high(mid2))


def _mulhi_s64(builder: Builder, t: TensorType, a: SSAValue, b: SSAValue) -> SSAValue:
    """The unsigned high half, less b where a < 0 and a where b < 0 (two's complement)."""
    u = Emit(builder, TensorType(IntegerType(64, Signedness.UNSIGNED), t.get_shape()))
    s = Emit(builder, t)
    ua, ub = u.op(hlo.ConvertOp(a, u.like)), u.op(hlo.ConvertOp(b, u.like))
    high = _mulhi_u64(u, ua, ub)
    high = u.sub(high, u.select(s.less(a, s.const(0)), ub, u.const(0)))
    high = u.sub(high, u.select(s.less(b, s.const(0)), ua, u.const(0)))
    return s.op(hlo.ConvertOp(high, t))


# ---------------------------------------------------------------- top_k


def _decompose_top_k(op: chlo.TopKOp, builder: Builder) -> list[SSAValue]:
    t = _static(op, op.operand.type)
    dims = t.get_shape()
    last = len(dims) - 1
    positions = builder.insert(hlo.IotaOp(last, TensorType(i32, dims))).results[0]
    scalars = [TensorType(t.element_type, []), TensorType(i32, [])]
    body = Block(arg_types=[scalars[0], scalars[0], scalars[1], scalars[1]])
    greater = hlo.CompareOp(
        body.args[0], body.args[1], "GT",
        "TOTALORDER" if isinstance(t.element_type, AnyFloat) else None,
    )
    body.add_ops([greater, hlo.ReturnOp([greater.result])])
    sort = builder.insert(hlo.SortOp.create(
        operands=[op.operand, positions],
        result_types=[t, positions.type],
        properties={
            "dimension": IntegerAttr(last, i64),
            "is_stable": IntegerAttr.from_bool(op.stable),
        },
        regions=[Region(body)],
    ))
    k = op.k.value.data
    limits = [*dims[:-1], k]
    return [
        builder.insert(hlo.SliceOp(sorted_, [0] * len(dims), limits)).results[0]
        for sorted_ in sort.results
    ]


# ---------------------------------------------------------------- ragged_dot


def _ragged_dot(op: chlo.RaggedDotOp, builder: Builder) -> SSAValue:
    for value in (*op.operands, op.result):
        _static(op, value.type)
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    precision = None
    if op.precision_config is not None:
        precision = [p.data for p in op.precision_config.data]
    if op.mode == "batch":
        return _dot(builder, op, op.lhs, op.rhs, result_type, precision)
    _real(op, op.lhs)
    groups = _ragged_groups(op, builder)
    if not groups:
        return Emit(builder, result_type).const(0)
    if op.mode == "contracting":
        return _stacked(builder, op, groups, precision)
    return _summed(builder, op, groups, precision)


def _dot(
    builder: Builder,
    op: chlo.RaggedDotOp,
    lhs: SSAValue,
    rhs: SSAValue,
    result_type: TensorType,
    precision: Sequence[Precision] | None,
    group_dim: int | None = None,
) -> SSAValue:
    """`dot_general` with the op's dimension numbers; the rhs's dims after `group_dim`,
    which `rhs` lacks, move down by one."""
    numbers = op.ragged_dot_dimension_numbers

    def rhs_dims(field: str) -> list[int]:
        return [d - 1 if group_dim is not None and d > group_dim else d
                for d in numbers.dims(field)]

    return builder.insert(hlo.DotGeneralOp(
        lhs, rhs, numbers.dims("lhs_batching"), rhs_dims("rhs_batching"),
        numbers.dims("lhs_contracting"), rhs_dims("rhs_contracting"),
        result_type, precision,
    )).results[0]


def _ragged_groups(op: chlo.RaggedDotOp, builder: Builder) -> list[SSAValue]:
    """The lhs once per group, zero outside the group's rows [start, start + size) of the
    ragged dim, start the sum of the sizes before (per leading index of group_sizes)."""
    lhs_type, sizes_type = op.lhs.type, op.group_sizes.type
    assert isinstance(lhs_type, TensorType) and isinstance(sizes_type, TensorType)
    *batch, count = sizes_type.get_shape()
    prefix = op.group_prefix() if batch else []
    index_type = TensorType(i64, lhs_type.get_shape())
    rows = builder.insert(hlo.IotaOp(op.ragged_dim, index_type)).results[0]
    zero = Emit(builder, lhs_type).const(0)
    e = Emit(builder, TensorType(i64, batch))
    start = e.const(0)
    groups = []
    for i in range(count):
        size = e.op(hlo.SliceOp(op.group_sizes, [*(0 for _ in batch), i], [*batch, i + 1]))
        size = e.op(hlo.ReshapeOp(size, TensorType(sizes_type.element_type, batch)))
        if sizes_type.element_type != i64:
            size = e.op(hlo.ConvertOp(size, e.like))
        limit = e.add(start, size)
        low, high = (e.op(hlo.BroadcastInDimOp(v, prefix, index_type)) for v in (start, limit))
        inside = e.op(hlo.AndOp(e.less(rows, low, "GE"), e.less(rows, high)))
        groups.append(e.select(inside, op.lhs, zero))
        start = limit
    return groups


def _stacked(
    builder: Builder,
    op: chlo.RaggedDotOp,
    groups: list[SSAValue],
    precision: Sequence[Precision] | None,
) -> SSAValue:
    """Ragged contracting dim: each group's product, stacked along a new leading dim."""
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    dims = result_type.get_shape()[1:]
    one = TensorType(result_type.element_type, dims)
    stacked = TensorType(result_type.element_type, [1, *dims])
    parts = [
        builder.insert(hlo.ReshapeOp(_dot(builder, op, g, op.rhs, one, precision),
                                     stacked)).results[0]
        for g in groups
    ]
    return builder.insert(hlo.ConcatenateOp(parts, 0, result_type)).results[0]


def _summed(
    builder: Builder,
    op: chlo.RaggedDotOp,
    groups: list[SSAValue],
    precision: Sequence[Precision] | None,
) -> SSAValue:
    """Ragged free dim: the sum over groups of group i's rows times the rhs's group i."""
    rhs_type, result_type = op.rhs.type, op.result.type
    assert isinstance(rhs_type, TensorType) and isinstance(result_type, TensorType)
    group_dim = op.ragged_dot_dimension_numbers.dims("rhs_group")[0]
    dims = list(rhs_type.get_shape())
    kept = TensorType(rhs_type.element_type, dims[:group_dim] + dims[group_dim + 1:])
    e = Emit(builder, result_type)
    total = None
    for i, lhs in enumerate(groups):
        starts = [0] * len(dims)
        starts[group_dim] = i
        limits = dims[:group_dim] + [i + 1] + dims[group_dim + 1:]
        rhs = e.op(hlo.ReshapeOp(e.op(hlo.SliceOp(op.rhs, starts, limits)), kept))
        product = _dot(builder, op, lhs, rhs, result_type, precision, group_dim)
        total = product if total is None else e.add(total, product)
    assert total is not None
    return total


# ---------------------------------------------------------------- the pass


def _static(op: Operation, t: Attribute) -> TensorType:
    if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
        raise DiagnosticError(op, f"chlo-legalize-to-stablehlo needs static shapes, got {t}")
    return t


def legalize(op: Operation, builder: Builder) -> list[SSAValue] | None:
    """The StableHLO values replacing `op`'s results, or None if `op` is not CHLO."""
    if type(op) in FLOAT_FORMS:
        return [_decompose_float(op, builder)]
    if isinstance(op, chlo.UnaryOp):
        return [_decompose_simple(op, builder)]
    if isinstance(op, chlo.NextAfterOp):
        return [_next_after(op, builder)]
    if isinstance(op, chlo.MulhiOp):
        return [_mulhi(op, builder)]
    if isinstance(op, chlo.TopKOp):
        return _decompose_top_k(op, builder)
    if isinstance(op, chlo.RaggedDotOp):
        return [_ragged_dot(op, builder)]
    return None


@dataclass(frozen=True)
class ChloLegalizeToStablehloPass(ModulePass):
    """Decompose JAX's CHLO ops into StableHLO.

    No options. Every CHLO op in the module, in regions too, is replaced."""

    name = "chlo-legalize-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewriter = Rewriter()
        for inner in list(op.walk()):
            if inner.dialect_name() != "chlo":
                continue
            values = legalize(inner, Builder(InsertPoint.before(inner)))
            if values is None:
                raise DiagnosticError(inner, f"chlo-legalize-to-stablehlo cannot lower "
                                             f"'{inner.name}'")
            rewriter.replace_op(inner, [], values)
