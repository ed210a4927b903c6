"""`convert-stablehlo-to-tcp`: raise the StableHLO ops that have a TCP form to TCP.

Converted: elementwise ops with a TCP twin (on float or signless non-boolean
integer tensors), `constant`, `convert`, `broadcast_in_dim` whose dimension map
is increasing (a rank expansion by `tensor.expand_shape`, or `tensor.reshape`
from rank 0, then size-1 broadcasting by `tcp.broadcast`), `dot_general` that
is a (batched) matmul, `reduce` of one tensor whose body is a single add,
multiply, maximum or minimum and whose init value is that op's identity (a
keep-dims TCP reduction, then `tensor.collapse_shape` or `tensor.reshape` to
drop the dimensions as StableHLO does), and `slice`. Anything else is left as
it is: the pass raises what maps and keeps the rest, so mixed programs work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i1,
    i64,
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
from xdsl.utils.exceptions import VerifyException

from xshard.dialects import stablehlo as shlo
from xshard.dialects import tcp

from .convert_tcp_to_stablehlo import ELEMENTWISE, signed_range

TO_TCP: dict[str, type[Operation]] = {name: cls for cls, name in ELEMENTWISE.items()}

# StableHLO reduction body op -> (keep-dims TCP reduction, identity for floats)
REDUCTIONS: dict[type[Operation], tuple[type[tcp.ReduceOp], float]] = {
    shlo.AddOp: (tcp.ReduceSumOp, 0.0),
    shlo.MultiplyOp: (tcp.ReduceProdOp, 1.0),
    shlo.MaximumOp: (tcp.ReduceMaxOp, -math.inf),
    shlo.MinimumOp: (tcp.ReduceMinOp, math.inf),
}


def tcp_tensor(ty: Attribute) -> bool:
    """A type TCP computes on, leaving out i1 (StableHLO's booleans add as `or`)."""
    return (
        isinstance(ty, TensorType)
        and tcp.element_kind(ty.element_type) is not None
        and ty.element_type != i1
    )


def static(ty: Attribute) -> bool:
    return isinstance(ty, TensorType) and DYNAMIC_INDEX not in ty.get_shape()


def index_constants(values: Sequence[int]) -> list[arith.ConstantOp]:
    return [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in values]


def valid(op: Operation) -> bool:
    try:
        op.verify()
    except VerifyException:
        return False
    return True


class RaiseElementwise(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        cls = TO_TCP.get(op.name)
        types = [v.type for v in (*op.operands, *op.results)]
        if cls is None or not all(tcp_tensor(t) for t in types):
            return
        new = cls.create(operands=list(op.operands), result_types=[op.results[0].type])
        if valid(new):  # e.g. stablehlo.negate on integers: tcp.neg takes floats only
            rewriter.replace(op, new)


class RaiseIntegerDivide(RewritePattern):
    """`stablehlo.divide` on integers truncates: `tcp.divsi` with `Trunc`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.DivideOp, rewriter: PatternRewriter) -> None:
        ty = op.results[0].type
        if tcp_tensor(ty) and isinstance(ty.element_type, IntegerType):
            rewriter.replace(op, tcp.DivSIOp(op.lhs, op.rhs, tcp.RoundingMode.Trunc))


class RaiseConstant(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ConstantOp, rewriter: PatternRewriter) -> None:
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr) and tcp.element_kind(
            value.get_element_type()
        ):
            rewriter.replace(op, tcp.ConstOp(value))


class RaiseConvert(RewritePattern):
    """StableHLO reads signless integers as signed (i1 as a boolean: Signless in TCP)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ConvertOp, rewriter: PatternRewriter) -> None:
        src, dst = op.operands[0].type, op.results[0].type
        if not all(
            isinstance(t, TensorType) and tcp.element_kind(t.element_type) for t in (src, dst)
        ):
            return

        def signedness(ty: TensorType) -> tcp.Signedness | None:
            if not isinstance(ty.element_type, IntegerType):
                return None
            return tcp.Signedness.Signless if ty.element_type == i1 else tcp.Signedness.Signed

        rewriter.replace(op, tcp.CastOp(op.operands[0], dst, signedness(src), signedness(dst)))


def _reassociation(dims: Sequence[int], rank: int) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    """Groups of a rank-`rank` shape, one per kept dim `dims[d]`, the unit dims beside it joined.

    Leading unit dims join the first group; with no kept dims there are no groups
    (all dims are units: a rank-0 tensor).
    """
    groups: list[list[int]] = [[] for _ in dims]
    owner = 0
    for j in range(rank if dims else 0):
        if owner + 1 < len(dims) and j >= dims[owner + 1]:
            owner += 1
        groups[owner].append(j)
    return ArrayAttr(ArrayAttr(IntegerAttr(j, i64) for j in group) for group in groups)


class RaiseBroadcastInDim(RewritePattern):
    """Rank expansion first (as TCP demands), then size-1 broadcasting."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.BroadcastInDimOp, rewriter: PatternRewriter) -> None:
        src, dst = op.operands[0].type, op.results[0].type
        if not (tcp_tensor(src) and tcp_tensor(dst) and static(src) and static(dst)):
            return
        dims = list(op.broadcast_dimensions.get_values())
        if any(b <= a for a, b in pairwise(dims)):
            return  # a transposing broadcast has no TCP form
        in_shape, out_shape = src.get_shape(), dst.get_shape()
        expanded = [1] * len(out_shape)
        for d, j in enumerate(dims):
            expanded[j] = in_shape[d]
        new_ops: list[Operation] = []
        value: SSAValue = op.operands[0]
        expanded_ty = TensorType(dst.element_type, expanded)
        if len(in_shape) == 0 and out_shape:
            # xDSL 0.74's tensor.expand_shape rejects rank 0 sources.
            shape = arith.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(expanded)]), expanded)
            )
            new_ops += [shape, tensor.ReshapeOp(value, shape.result, expanded_ty)]
        elif len(in_shape) < len(out_shape):
            reassociation = _reassociation(dims, len(out_shape))
            new_ops.append(tensor.ExpandShapeOp(value, [], reassociation, expanded, expanded_ty))
        if new_ops:
            value = new_ops[-1].results[0]
        axes = [
            j for j, (e, o) in enumerate(zip(expanded, out_shape, strict=True)) if e == 1 and o != 1
        ]
        if axes:
            sizes = index_constants([out_shape[j] for j in axes])
            new_ops += [*sizes, tcp.BroadcastOp(value, [c.result for c in sizes], axes, dst)]
            value = new_ops[-1].results[0]
        rewriter.replace(op, new_ops, [value])


class RaiseDotGeneral(RewritePattern):
    """Only the (batched) matmul form: leading batch dims, contracting lhs[-1] with rhs[-2]."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.DotGeneralOp, rewriter: PatternRewriter) -> None:
        lhs, rhs = op.operands
        rank = lhs.type.get_num_dims() if isinstance(lhs.type, TensorType) else 0
        batch = list(range(rank - 2))
        numbers = op.dot_dimension_numbers
        if (
            rank < 2
            or list(numbers.lhs_batching_dimensions.get_values()) != batch
            or list(numbers.rhs_batching_dimensions.get_values()) != batch
            or list(numbers.lhs_contracting_dimensions.get_values()) != [rank - 1]
            or list(numbers.rhs_contracting_dimensions.get_values()) != [rank - 2]
        ):
            return
        new = tcp.MatmulOp(lhs, rhs, op.results[0].type)
        if valid(new):
            rewriter.replace(op, new)


class RaiseReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ReduceOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 1:
            return
        src, dst = op.inputs[0].type, op.results[0].type
        if not (tcp_tensor(src) and static(src)):
            return
        body_ops = list(op.body.block.ops)
        args = list(op.body.block.args)
        if len(body_ops) != 2 or type(body_ops[0]) not in REDUCTIONS:
            return
        combine, ret = body_ops
        if set(combine.operands) != set(args) or list(ret.operands) != [combine.results[0]]:
            return
        cls, float_identity = REDUCTIONS[type(combine)]
        if not _is_identity(op.init_values[0], float_identity, type(combine)):
            return
        axes = sorted(op.dimensions.get_values())
        kept = TensorType(
            src.element_type, [1 if d in axes else n for d, n in enumerate(src.get_shape())]
        )
        reduce = cls(op.inputs[0], axes, kept)
        kept_dims = [d for d in range(kept.get_num_dims()) if d not in axes]
        collapse = tensor.CollapseShapeOp.build(
            operands=[reduce.out],
            result_types=[dst],
            properties={"reassociation": _reassociation(kept_dims, kept.get_num_dims())},
        )
        init = op.init_values[0].owner
        rewriter.replace(op, [reduce, collapse])
        if isinstance(init, Operation) and not init.results[0].uses:
            rewriter.erase(init)


def _is_identity(value: SSAValue, float_identity: float, body: type[Operation]) -> bool:
    """Whether `value` is a constant holding the identity of the reduction `body`."""
    owner = value.owner
    if not isinstance(owner, shlo.ConstantOp | tcp.ConstOp):
        return False
    attr = owner.value
    if not isinstance(attr, DenseIntOrFPElementsAttr) or not attr.is_splat():
        return False
    found = attr.get_values()[0]
    element = attr.get_element_type()
    if isinstance(element, IntegerType):
        lo, hi = signed_range(element)
        if body is shlo.MaximumOp:
            return found == lo
        if body is shlo.MinimumOp:
            return found == hi
    return found == float_identity


class RaiseSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.SliceOp, rewriter: PatternRewriter) -> None:
        if not tcp_tensor(op.operand.type):
            return
        starts = list(op.start_indices.get_values())
        limits = list(op.limit_indices.get_values())
        strides = list(op.strides.get_values())
        sizes = [-(-(hi - lo) // k) for lo, hi, k in zip(starts, limits, strides, strict=True)]
        consts = {
            v: arith.ConstantOp(IntegerAttr(v, IndexType()))
            for v in dict.fromkeys([*starts, *sizes, *strides])
        }
        new = tcp.SliceOp(
            op.operand,
            [consts[v].result for v in starts],
            [consts[v].result for v in sizes],
            [consts[v].result for v in strides],
            op.result.type,
        )
        rewriter.replace(op, [*consts.values(), new])


@dataclass
class OutsideStablehloRegions(RewritePattern):
    """Applies `pattern` except inside StableHLO region ops (reduction bodies stay StableHLO)."""

    pattern: RewritePattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        parent = op.parent_op()
        while parent is not None:
            if parent.dialect_name() == "stablehlo":
                return
            parent = parent.parent_op()
        self.pattern.match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class ConvertStablehloToTcpPass(ModulePass):
    """Raise StableHLO ops that have a TCP form.

    The others are left as they are.
    """

    name = "convert-stablehlo-to-tcp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    OutsideStablehloRegions(pattern)
                    for pattern in (
                        RaiseIntegerDivide(),
                        RaiseElementwise(),
                        RaiseConstant(),
                        RaiseConvert(),
                        RaiseBroadcastInDim(),
                        RaiseDotGeneral(),
                        RaiseReduce(),
                        RaiseSlice(),
                    )
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
