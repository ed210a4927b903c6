"""What the export passes share: located refusals, static tensor types, a collective's
grid, and inserting StableHLO before the op a pattern rewrites.

A scalar derived from a process query (`convert-shard-queries-to-stablehlo`) is a
rank-0 tensor wrapped in `builtin.unrealized_conversion_cast` back to its scalar type,
so that the shard ops still taking it (dynamic roots) stay valid until the pass
lowering them reads the tensor through the cast.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from xshard.diagnostics import DiagnosticError
from xshard.dialects import shard
from xshard.transforms.export.device_index import Emit, PartitionIndex
from xshard.transforms.export.index_arith import constant as scalar_constant


def apply_patterns(module: ModuleOp, patterns: Sequence[RewritePattern]) -> None:
    """`patterns` in one forward walk, which visits every op after the ops defining its
    operands (all the export's patterns need), and without the walker's dead-code
    elimination: the input's unused ops are not the export's to remove."""
    applier = GreedyRewritePatternApplier(list(patterns), dce_enabled=False)
    PatternRewriteWalker(applier, apply_recursively=False).rewrite_module(module)


def fail(op: Operation, why: str) -> DiagnosticError:
    return DiagnosticError(op, f"cannot convert '{op.name}' to StableHLO: {why}")


def static_tensor(op: Operation, value: SSAValue) -> TensorType:
    """The type of `value`, refused at `op` unless it is a statically shaped tensor."""
    if not isinstance(value.type, TensorType):
        raise fail(op, f"{value.type} is not a tensor")
    if any(d < 0 for d in value.type.get_shape()):
        raise fail(op, f"{value.type} has a dynamic shape; XLA needs static shapes")
    return value.type


def grid_shape(op: Operation) -> tuple[int, ...]:
    """The shape of the grid a shard op names (its verifier resolved it)."""
    grid = shard.lookup_grid(op, op.grid)  # type: ignore[attr-defined]
    assert grid is not None, "the op's verifier resolves its grid"
    return grid.shape.get_values()


def emitter(rewriter: PatternRewriter) -> Emit:
    """An `Emit` inserting at the rewriter's insertion point (before the matched op)."""

    def emit(new: Operation) -> SSAValue:
        rewriter.insert(new)
        return new.results[0]

    return emit


def replace(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    """`op`'s results replaced by `values`, then `op` erased. Unlike `replace_op`, the
    new values keep no name hints, so the printed StableHLO numbers them."""
    for old, new in zip(op.results, values, strict=True):
        rewriter.replace_all_uses_with(old, new)
    rewriter.erase(op)


def linear_index(op: Operation) -> SSAValue:
    """This device's linear index, read once at the top of `op`'s function."""
    fn = op.parent_op()
    while not isinstance(fn, func.FuncOp):
        assert fn is not None, "shard ops live in functions"
        fn = fn.parent_op()
    return PartitionIndex(fn.body.blocks.first).linear()  # type: ignore[arg-type]


def derived_cast(tensor: SSAValue, scalar: SSAValue) -> UnrealizedConversionCastOp:
    """`tensor` as a stand-in for `scalar`, located where `scalar` was defined."""
    cast = UnrealizedConversionCastOp.get([tensor], [scalar.type])
    owner = scalar.owner
    if isinstance(owner, Operation):
        cast.location = owner.location
    return cast


def derived_tensor(value: SSAValue) -> SSAValue | None:
    """The rank-0 tensor a derived scalar stands for, or None."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and isinstance(
        owner.inputs[0].type, TensorType
    ):
        return owner.inputs[0]
    return None


def index_tensor(emit: Emit, op: Operation, value: SSAValue) -> SSAValue:
    """The rank-0 tensor form of an `index` or integer operand of `op`."""
    derived = derived_tensor(value)
    if derived is not None:
        return derived
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return scalar_constant(emit, owner.value.value.data, value.type)
    raise fail(
        op,
        "an index operand must be an arith.constant, a shard process query or scalar "
        "arith on them, got the result of "
        f"'{owner.name if isinstance(owner, Operation) else 'a block'}'",
    )


def erase_dead_casts(module: Operation) -> None:
    """The derived scalars nothing reads any more."""
    for op in list(module.walk(reverse=True)):
        if isinstance(op, UnrealizedConversionCastOp) and not op.results[0].uses:
            if derived_tensor(op.results[0]) is not None:
                op.detach()
                op.erase()


_MAX_PARTITIONS = (1 << 31) - 1


def partition_count(module: ModuleOp) -> int | None:
    """The module's partition count: the device count every grid must share; None
    without grids."""
    count = None
    for grid in module.ops:
        if not isinstance(grid, shard.GridOp):
            continue
        shape = grid.shape.get_values()
        if any(d < 0 for d in shape):
            raise fail(grid, "a dynamic grid has no fixed number of partitions")
        if prod(shape) > _MAX_PARTITIONS:
            raise fail(
                grid, f"its {prod(shape)} devices exceed what mhlo.num_partitions (i32) counts"
            )
        if count is not None and prod(shape) != count:
            raise fail(
                grid,
                f"its {prod(shape)} devices differ from the {count} of an "
                "earlier grid; one program runs on one set of partitions",
            )
        count = prod(shape)
    return count
