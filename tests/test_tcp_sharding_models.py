"""The TCP sharding models' choices that lit tests reach only in part: which
partial kinds each `tcp.cast` keeps, and which `tcp.slice` dims count as whole."""

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    TensorType,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i32,
)
from xdsl.utils.test_value import create_ssa_value

from xshard.dialects import tcp
from xshard.interfaces.models.tcp import SliceModel, cast_partial
from xshard.interfaces.sharding_interface import dim_loops

S, U, L = tcp.Signedness.Signed, tcp.Signedness.Unsigned, tcp.Signedness.Signless


@pytest.mark.parametrize(
    ("src", "dst", "sin", "sout", "kinds"),
    [
        (f32, f64, None, None, {"sum", "max", "min"}),  # widening: exact per element
        (f64, f32, None, None, {"max", "min"}),  # narrowing rounds each summand
        (bf16, f16, None, None, {"max", "min"}),  # same width, different range
        (f32, i32, None, S, {"max", "min"}),  # truncation is monotone, not additive
        (f32, i32, None, U, set()),  # unsigned results break the signed order
        (i32, f32, S, None, {"max", "min"}),
        (i32, f32, U, None, set()),
        (i32, i8, S, S, {"sum"}),  # wraps like the sum does, but not monotone
        (i32, i32, S, U, {"sum"}),
        (i8, i32, S, S, {"max", "min"}),  # sign extension: monotone, not additive
        (i8, i32, U, S, set()),
        (i32, i1, S, L, set()),  # x != 0
        (i1, i32, L, S, set()),
    ],
)
def test_cast_partial_kinds(src, dst, sin, sout, kinds):
    op = tcp.CastOp(create_ssa_value(TensorType(src, [4])), TensorType(dst, [4]), sin, sout)
    op.verify()
    assert {k.value for k in cast_partial(op).kinds} == kinds


def test_slice_whole_dims():
    """Whole: one static size on both sides; a dynamic dim counts as sliced."""
    c = {v: arith.ConstantOp(IntegerAttr(v, IndexType())).result for v in (0, 1, 2, 4)}
    n = create_ssa_value(IndexType())
    src = create_ssa_value(TensorType(f32, [4, 4, 4, DYNAMIC_INDEX]))
    op = tcp.SliceOp(
        src,
        starts=[c[0], c[0], c[1], c[0]],
        sizes=[c[4], c[2], c[2], n],
        strides=[c[1], c[2], c[1], c[1]],
        result_type=TensorType(f32, [4, 2, 2, DYNAMIC_INDEX]),
    )
    rule = SliceModel().rule(op)
    assert dim_loops(rule.operand_maps[0]) == (0, None, None, None)
    assert rule.result_maps == (rule.operand_maps[0],)
