"""Sharding models for xDSL's linalg ops (MLIR's `linalg` external model).

A structured op already states its loops and one indexing map per operand, so
the rule is read off the op: results take the map of their DPS init, and the
inits get that map too, as upstream does. Reduction loops take their kind from
the combiner in the body (`yield(addf(%in, %out))` is a sum).

A loop is never split when splitting it would change what a device computes
from its local block, rather than just which block it holds: a reduction whose
combiner names no kind, a loop read through `linalg.index`, and a loop used in
a compound index (`d0 + d1` in a convolution). Such loops drop out of every map.

Ops that read their init (matmul, reduce, a reducing generic) combine it once
into the result. When the result is partial, by a split reduction loop or a
partial input, partition must therefore hand the init to one device of the
partial axes and the kind's neutral element to the others.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from xshard.interfaces.models.common import (
    LINEAR_SUM,
    MAX_JOIN,
    MIN_JOIN,
    MONOTONE,
    MOVE,
    SCALE_SUM,
    SELECT_BRANCHES,
    dims_map,
)
from xshard.interfaces.models.linalg_partition import partition_with_init
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.interfaces.sharding_model import UnsupportedOp, register_model
from xshard.sharding.reduction import ReductionKind

_COMBINERS: dict[type[Operation], ReductionKind] = {
    arith.AddfOp: ReductionKind.SUM,
    arith.AddiOp: ReductionKind.SUM,
    arith.MulfOp: ReductionKind.PRODUCT,
    arith.MuliOp: ReductionKind.PRODUCT,
    arith.MaximumfOp: ReductionKind.MAX,
    arith.MaxSIOp: ReductionKind.MAX,
    arith.MinimumfOp: ReductionKind.MIN,
    arith.MinSIOp: ReductionKind.MIN,
    arith.AndIOp: ReductionKind.BITWISE_AND,
    arith.OrIOp: ReductionKind.BITWISE_OR,
    arith.XOrIOp: ReductionKind.BITWISE_XOR,
}
"""Upstream also maps maxui/minui to max/min; xshard does not, since a `max`
collective on signless integers compares them as signed."""

_PARTIAL_RULES: dict[type[Operation], PartialRule] = {
    linalg.AddOp: LINEAR_SUM,
    linalg.SubOp: LINEAR_SUM,
    linalg.MulOp: SCALE_SUM,
    linalg.MaxOp: MAX_JOIN,
    linalg.MinOp: MIN_JOIN,
    linalg.ExpOp: MONOTONE,
    linalg.SelectOp: SELECT_BRANCHES,
    linalg.CopyOp: MOVE,
    linalg.TransposeOp: MOVE,
    linalg.MatmulOp: SCALE_SUM,
}


def combiner_kind(block: Block, num_inputs: int) -> ReductionKind:
    """The kind every init of the body is combined with, else `generic`."""
    yielded = block.last_op
    assert yielded is not None
    kinds: set[ReductionKind] = set()
    for out_arg, value in zip(block.args[num_inputs:], yielded.operands, strict=True):
        kinds.add(_combiner(out_arg, value))
    return kinds.pop() if len(kinds) == 1 else ReductionKind.GENERIC


def _combiner(out_arg: BlockArgument, value: SSAValue) -> ReductionKind:
    op = value.owner
    if not isinstance(op, Operation) or len(op.operands) != 2 or out_arg not in op.operands:
        return ReductionKind.GENERIC
    if out_arg.uses.get_length() != 1:
        return ReductionKind.GENERIC
    return _COMBINERS.get(type(op), ReductionKind.GENERIC)


def structured_rule(
    maps: list[AffineMap],
    loops: list[Loop],
    operands: list[SSAValue],
    num_inputs: int,
    num_results: int,
    fixed: set[int],
    partial: PartialRule,
) -> ShardingRule:
    """The rule of a structured op; loops in `fixed` (and in compound indices) are never split."""
    inits = maps[num_inputs:]
    for m in inits[:num_results]:
        if any(not isinstance(e, AffineDimExpr | AffineConstantExpr) for e in m.results):
            raise UnsupportedOp(f"init indexing map {m} is not a projected permutation")
    fixed = set(fixed)
    for m in maps:
        for expr in m.results:
            if not isinstance(expr, AffineDimExpr | AffineConstantExpr):
                fixed |= expr.used_dims()
    n = len(loops)

    def keep(m: AffineMap) -> AffineMap:
        return dims_map(
            n,
            [
                e.position if isinstance(e, AffineDimExpr) and e.position not in fixed else None
                for e in m.results
            ],
        )

    if partial.operands is None and partial.flow is not PartialFlow.NONE:
        partial = replace(partial, operands=tuple(range(num_inputs)))
    return ShardingRule(
        tuple(loops),
        tuple(
            keep(m) if isinstance(v.type, TensorType) else None
            for v, m in zip(operands, maps, strict=True)
        ),
        tuple(keep(m) for m in inits[:num_results]),
        partial,
    )


def _require_tensors(op: Operation) -> None:
    if not op.results:
        raise UnsupportedOp("an op on buffers has no results to shard")


class StructuredModel:
    """linalg.generic and the named structured ops (matmul, fill, add, transpose...)."""

    partition = staticmethod(partition_with_init)

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, LinalgStructuredOperation)
        _require_tensors(op)
        num_inputs = len(op.inputs)
        kind = ReductionKind.SUM
        if any(it.data == IteratorType.REDUCTION for it in op.get_iterator_types()):
            kind = combiner_kind(op.body.block, num_inputs)
        fixed: set[int] = set()
        loops: list[Loop] = []
        for i, it in enumerate(op.get_iterator_types()):
            if it.data == IteratorType.REDUCTION:
                loops.append(Loop.reduction(kind))
                if kind is ReductionKind.GENERIC:
                    fixed.add(i)
            else:
                loops.append(Loop.parallel())
        fixed |= {
            index.dim.value.data for index in op.body.walk() if isinstance(index, linalg.IndexOp)
        }
        return structured_rule(
            [m.data for m in op.get_indexing_maps()],
            loops,
            list(op.operands),
            num_inputs,
            len(op.results),
            fixed,
            _PARTIAL_RULES.get(type(op), NO_PARTIAL),
        )


class ReduceModel:
    """Loops are the input's dims; `dimensions` are reductions of the body's kind."""

    partition = staticmethod(partition_with_init)

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, linalg.ReduceOp)
        _require_tensors(op)
        n = op.input.type.get_num_dims()
        reduced = set(op.dimensions.get_values())
        kind = combiner_kind(op.region.block, 1)
        loops = [Loop.reduction(kind) if d in reduced else Loop.parallel() for d in range(n)]
        maps = [dims_map(n, range(n)), dims_map(n, [d for d in range(n) if d not in reduced])]
        partial = NO_PARTIAL
        if kind in (ReductionKind.SUM, ReductionKind.MAX, ReductionKind.MIN):
            partial = PartialRule(PartialFlow.PASS_THROUGH, frozenset({kind}), operands=(0,))
        fixed = reduced if kind is ReductionKind.GENERIC else set()
        return structured_rule(maps, loops, list(op.operands), 1, 1, fixed, partial)


class BroadcastModel:
    """Loops are the init's dims; `dimensions` are the ones the input lacks."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, linalg.BroadcastOp)
        _require_tensors(op)
        n = op.init.type.get_num_dims()
        added = set(op.dimensions.get_values())
        maps = [dims_map(n, [d for d in range(n) if d not in added]), dims_map(n, range(n))]
        loops = [Loop.parallel() for _ in range(n)]
        return structured_rule(maps, loops, list(op.operands), 1, 1, set(), MOVE)


register_model(*(cls for cls in Linalg.operations if issubclass(cls, LinalgStructuredOperation)))(
    StructuredModel()
)
register_model(linalg.ReduceOp)(ReduceModel())
register_model(linalg.BroadcastOp)(BroadcastModel())
