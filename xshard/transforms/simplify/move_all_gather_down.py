"""`shard-move-all-gather-down`: an `all_gather` whose only user is parallel along the
gathered dim moves below that user, so the user runs on the shard.

The user qualifies when its sharding model maps the gathered operand dim `d` to a
parallel loop `l` that indexes exactly one result dim `d'`, and the model has no
`partition` of its own: the op on per-device types is then its per-device form,
the same condition `shard-partition` relies on. The result is gathered on `d'`
(a transpose's permuted dim, a dot_general's free dim). Every other operand must
be the same on every device of the group (`replication.is_replicated`: a
constant, an all-reduced value...), since each device's block of the result is
now computed with its own copy of it; those that `l` indexes are sliced alike
with an `all_slice` (no communication).

When it pays: compute always shrinks by the group size; the gather then moves the
user's result instead of its operand, so the rewrite fires only when that is no
more bytes (elementwise ops, a convert to a narrower type, a dot_general whose
other free dims are no larger than the contracted ones), never for a broadcast
that grows the tensor or a widening convert.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xshard.dialects.shard import AllGatherOp, AllSliceOp
from xshard.interfaces.models import model_for
from xshard.interfaces.sharding_model import UnsupportedOp
from xshard.transforms.simplify.replication import is_replicated


def _dims_of_loop(m: AffineMap, loop: int) -> list[int]:
    return [
        i for i, e in enumerate(m.results) if isinstance(e, AffineDimExpr) and e.position == loop
    ]


def _split(t: Attribute, dim: int, n: int) -> TensorType | None:
    """`t` with `dim` divided by `n`; None unless a static tensor type divisible by `n`."""
    if not isinstance(t, TensorType) or any(s < 0 for s in t.get_shape()):
        return None
    shape = list(t.get_shape())
    if shape[dim] % n:
        return None
    shape[dim] //= n
    return TensorType(t.element_type, shape)


def _bits(t: TensorType) -> int | None:
    width = getattr(t.element_type, "bitwidth", None)
    return None if width is None else t.element_count() * width


class MoveAllGatherDown(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllGatherOp, rewriter: PatternRewriter) -> None:
        if (use := op.result.get_unique_use()) is None:
            return
        user = use.operation
        model = model_for(user)
        if model is None or hasattr(model, "partition") or user.regions or len(user.results) != 1:
            return
        try:
            rule = model.rule(user)
        except UnsupportedOp:
            return
        gathered = rule.operand_maps[use.index]
        dim = op.gather_axis.value.data
        if gathered is None or not isinstance(expr := gathered.results[dim], AffineDimExpr):
            return
        loop = expr.position
        result_dims = _dims_of_loop(rule.result_maps[0], loop)
        src, dst = op.input.type.get_shape()[dim], op.result.type.get_shape()[dim]
        if rule.loops[loop].is_reduction or len(result_dims) != 1 or src <= 0 or dst <= src:
            return
        n = dst // src
        result_type = _split(user.results[0].type, result_dims[0], n)
        old_bits, new_bits = _bits(op.result.type), _bits(user.results[0].type)
        if result_type is None or old_bits is None or new_bits is None or new_bits > old_bits:
            return
        grid, axes = op.grid.root_reference.data, op.grid_axes_tuple()
        # Every check first: an op built and then dropped would keep a use of its operand.
        cuts: dict[int, tuple[int, Attribute]] = {}
        for i, (value, m) in enumerate(zip(user.operands, rule.operand_maps, strict=True)):
            if i == use.index:
                continue
            if not is_replicated(value, grid, axes):
                return
            dims = [] if m is None else _dims_of_loop(m, loop)
            if not dims:
                continue
            sliced = _split(value.type, dims[0], n)
            if len(dims) != 1 or sliced is None:
                return
            cuts[i] = (dims[0], sliced)
        slices: list[Operation] = []
        operands: list[SSAValue] = []
        for i, value in enumerate(user.operands):
            if i == use.index:
                operands.append(op.input)
            elif i in cuts:
                dim, sliced = cuts[i]
                slices.append(AllSliceOp(value, op.grid, axes, dim, sliced))
                operands.append(slices[-1].results[0])
            else:
                operands.append(value)
        moved = type(user).create(
            operands=operands,
            result_types=[result_type],
            properties=dict(user.properties),
            attributes=dict(user.attributes),
        )
        gather = AllGatherOp(moved.results[0], op.grid, axes, result_dims[0], user.results[0].type)
        rewriter.replace(user, [*slices, moved, gather])
        rewriter.erase(op)


def patterns() -> list[RewritePattern]:
    return [MoveAllGatherDown()]


@dataclass(frozen=True)
class MoveAllGatherDownPass(ModulePass):
    """Move all-gathers below parallel users."""

    name = "shard-move-all-gather-down"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns())).rewrite_module(op)
