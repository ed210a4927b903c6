"""`convert-shard-queries-to-stablehlo`: the shard process queries, and the scalar
`arith` computed from them, to `stablehlo.partition_id` arithmetic on rank-0 tensors.

In partition mode partition k runs the grid's row-major device k, so
`process_linear_index` is `partition_id` (as `tensor<i64>`, `device_index.py`),
`process_multi_index` its coordinates and `grid_shape` constants. Scalar `arith` with
an operand so derived becomes StableHLO on rank-0 tensors (`index_arith.py`), an
`arith.select` on tensors with such a predicate a `stablehlo.select`, and an `scf.if`
on one both of its branches and a `stablehlo.select` per result (the only SPMD form of
a per-device choice). A derived value returned turns that function result into a
rank-0 tensor; one feeding a shard op (a dynamic root) reaches it through an
`unrealized_conversion_cast` (`lowering.py`) that the collective's lowering reads
through. Any other use has no StableHLO form and is refused at the value's definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrealizedConversionCastOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from xshard.diagnostics import DiagnosticError
from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.transforms.export.device_index import constant, coordinate
from xshard.transforms.export.index_arith import SCALAR_OPS, lower_scalar, tensor_type
from xshard.transforms.export.lowering import (
    apply_patterns,
    derived_cast,
    derived_tensor,
    emitter,
    fail,
    grid_shape,
    index_tensor,
    linear_index,
    replace,
)


@dataclass
class _Derived:
    """The casts standing for derived scalars, each with the name of the op that
    defined the scalar, which a refused use is reported at."""

    origins: dict[UnrealizedConversionCastOp, str] = field(default_factory=dict)

    def replace(self, rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]):
        casts = [derived_cast(v, r) for v, r in zip(values, op.results, strict=True)]
        for cast in casts:
            rewriter.insert(cast)
            self.origins[cast] = op.name
        replace(rewriter, op, [c.results[0] for c in casts])


def _query_axes(op: shard.ProcessMultiIndexOp | shard.GridShapeOp) -> Sequence[int]:
    return op.axes.get_values() or tuple(range(len(grid_shape(op))))


@dataclass
class _LinearIndex(RewritePattern):
    derived: _Derived

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.ProcessLinearIndexOp, rewriter: PatternRewriter):
        self.derived.replace(rewriter, op, [linear_index(op)])


@dataclass
class _MultiIndex(RewritePattern):
    derived: _Derived

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.ProcessMultiIndexOp, rewriter: PatternRewriter):
        emit, linear, shape = emitter(rewriter), linear_index(op), grid_shape(op)
        coords = [coordinate(emit, linear, shape, a) for a in _query_axes(op)]
        self.derived.replace(rewriter, op, coords)


@dataclass
class _GridShape(RewritePattern):
    derived: _Derived

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shard.GridShapeOp, rewriter: PatternRewriter):
        emit, shape = emitter(rewriter), grid_shape(op)
        self.derived.replace(rewriter, op, [constant(emit, shape[a]) for a in _query_axes(op)])


@dataclass
class _ScalarArith(RewritePattern):
    """Integer `arith` with an operand derived from a process query."""

    derived: _Derived

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, SCALAR_OPS) or tensor_type(op.results[0].type) is None:
            return
        if not any(derived_tensor(o) is not None for o in op.operands):
            return
        emit = emitter(rewriter)
        operands = [index_tensor(emit, op, o) for o in op.operands]
        value = lower_scalar(emit, op, operands, lambda why: fail(op, why))
        self.derived.replace(rewriter, op, [value])


class _SelectTensors(RewritePattern):
    """`arith.select` of tensors on a derived predicate."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter):
        pred = derived_tensor(op.cond)
        if pred is None or tensor_type(op.result.type) is not None:
            return
        replace(rewriter, op, [emitter(rewriter)(hlo.SelectOp(pred, op.lhs, op.rhs))])


class _SelectBranches(RewritePattern):
    """An `scf.if` on a derived predicate: both branches inlined before it, then one
    `stablehlo.select` per result: exact for pure branches."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter):
        pred = derived_tensor(op.cond)
        if pred is None:
            return
        if not op.false_region.blocks:
            raise fail(op, "an scf.if on a process index needs an else branch to select from")
        for result in op.results:
            if not isinstance(result.type, TensorType):
                raise fail(
                    op,
                    f"its result of type {result.type} is not a tensor; a condition on a "
                    "process index becomes a stablehlo.select of tensors",
                )
        branches: list[Sequence[SSAValue]] = []
        for region in (op.true_region, op.false_region):
            if len(region.blocks) != 1:
                raise fail(op, "each branch must be a single block")
            block = region.block
            for inner in block.ops:
                if not isinstance(inner, scf.YieldOp) and not _runs_unconditionally(inner):
                    raise fail(
                        op,
                        f"'{inner.name}' in a branch: both branches of an scf.if on a "
                        "process index run on every device, so they may hold only pure "
                        "StableHLO ops and scalar arith",
                    )
            yielded = block.last_op
            assert isinstance(yielded, scf.YieldOp)
            branches.append(list(yielded.operands))
            rewriter.erase(yielded, safe_erase=False)
            rewriter.inline_block(block, InsertPoint.before(op))
        emit = emitter(rewriter)
        selected = [emit(hlo.SelectOp(pred, t, f)) for t, f in zip(*branches, strict=True)]
        replace(rewriter, op, selected)


def _runs_unconditionally(op: Operation) -> bool:
    """Whether `op` may run on every device whatever its branch: pure StableHLO, or
    arith this pass lowers."""
    if isinstance(op, (*SCALAR_OPS, arith.ConstantOp)):
        return True
    return op.name.startswith("stablehlo.") and is_side_effect_free(op)


def _settle(derived: _Derived) -> None:
    """Returned derived scalars become rank-0 tensor results, the unread ones go, shard
    ops keep theirs; any other use has no StableHLO form."""
    changed: list[func.FuncOp] = []
    for cast, origin in derived.origins.items():
        tensor = cast.inputs[0]
        for use in list(cast.results[0].uses):
            user = use.operation
            if isinstance(user, func.ReturnOp):
                user.operands[use.index] = tensor
                fn = user.parent_op()
                assert isinstance(fn, func.FuncOp)
                if fn not in changed:
                    changed.append(fn)
            elif not user.name.startswith("shard."):
                raise DiagnosticError(
                    cast,
                    f"cannot convert '{origin}' to StableHLO: its result is used by "
                    f"'{user.name}'; values derived from process indices may only feed "
                    "scalar arith, selects, scf.if conditions, collectives' dynamic "
                    "operands or be returned",
                )
        if not cast.results[0].uses:
            Rewriter.erase_op(cast)
    for fn in changed:
        fn.update_function_type()


@dataclass(frozen=True)
class ConvertShardQueriesToStablehloPass(ModulePass):
    """Process queries to partition_id math."""

    name = "convert-shard-queries-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        derived = _Derived()
        patterns: list[RewritePattern] = [
            _LinearIndex(derived),
            _MultiIndex(derived),
            _GridShape(derived),
            _ScalarArith(derived),
            _SelectTensors(),
            _SelectBranches(),
        ]
        apply_patterns(op, patterns)
        _settle(derived)
