"""Sharding models of the StableHLO ops with regions (while, case, sort) and of
optimization_barrier.

`while` and `case` run their regions in their place: their flows (`region_flow`) say
which values share a layout, and `sharding-propagation{strategy=aggressive}` and
`shard-partition` partition the regions themselves. Their `WholeModel` is what
propagation's upstream strategy and auto-sharding see, as mlir-opt, which has no
model for them: every operand and result whole.

`sort` sorts each 1-d slice along its dimension independently: every other dim may be
split, the sorted one never.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.captures import clone_with_replicated_captures
from xshard.interfaces.models.common import dims_map, rank
from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.region_flow import Carry, RegionFlow, register_flow
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import register_model
from xshard.xdsl_compat.dense_splat import splat_element


class WholeModel:
    """No loops: every tensor operand and result is whole on each device (`shard-partition`
    partitions the regions by their flow, whatever propagation wrote around them)."""

    def rule(self, op: Operation) -> ShardingRule:
        def whole(n: int | None):
            return None if n is None else dims_map(0, [None] * n)

        return ShardingRule(
            (),
            tuple(whole(rank(v)) for v in op.operands),
            tuple(dims_map(0, [None] * (rank(r) or 0)) for r in op.results),
        )


class SortModel:
    """Loops: the inputs' dims; the sorted dim is not indexed."""

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.SortOp)
        n = rank(op.inputs[0]) or 0
        sorted_dim = op.sort_dimension()
        m = dims_map(n, [None if d == sorted_dim else d for d in range(n)])
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (m,) * len(op.inputs),
            (m,) * len(op.results),
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        clone_with_replicated_captures(ctx)


class OptimizationBarrierModel:
    """The identity on each operand: loop d indexes dim d of every operand and its result,
    for propagation's upstream strategy and auto-sharding. Sharing loops across operands
    is exact (no operand reads another); `shard-partition` and aggressive propagation
    follow the barrier's flow instead, one layout per operand. Partial operands are
    settled first (no rule carries partial state through one operand of several)."""

    def rule(self, op: Operation) -> ShardingRule:
        n = max((rank(v) or 0 for v in op.operands), default=0)
        maps = tuple(dims_map(n, range(rank(v) or 0)) for v in op.operands)
        return ShardingRule(tuple(Loop.parallel() for _ in range(n)), maps, maps)


register_model(hlo.WhileOp, hlo.CaseOp)(WholeModel())
register_model(hlo.RngBitGeneratorOp)(WholeModel())  # the same bits on every device: whole


@register_flow(hlo.WhileOp)
def _while_flow(op: Operation) -> RegionFlow:
    """Carry i: operand i, argument i of `cond` and `body`, yield i of `body`, result i;
    `cond`'s predicate is whole, so that every device runs the same trips."""
    assert isinstance(op, hlo.WhileOp)
    cond, body = op.cond.block, op.body.block
    cond_yield, body_yield = cond.last_op, body.last_op
    assert cond_yield is not None and body_yield is not None
    return RegionFlow(
        tuple(
            Carry(i, (cond.args[i], body.args[i]), ((body_yield, i),), i)
            for i in range(len(op.results))
        ),
        whole_yields=((cond_yield, 0),),
    )


def trip_count(op: Operation) -> int | None:
    """How many trips a `while` makes, where it counts as `fori_loop` and `scan` lower:
    a carry starts at a constant, `cond` compares it `LT` a constant and `body` adds a
    constant step to it. None where that is not what it does (a dynamic bound)."""
    if not isinstance(op, hlo.WhileOp):
        return None
    predicate = op.cond.block.last_op
    assert predicate is not None
    compare = predicate.operands[0].owner
    if not isinstance(compare, hlo.CompareOp) or compare.comparison_direction.data != "LT":
        return None
    counter, bound = compare.lhs, compare.rhs
    if not isinstance(counter, BlockArgument) or counter.block is not op.cond.block:
        return None
    k = counter.index
    step = op.body.block.last_op.operands[k].owner  # type: ignore[union-attr]
    if not isinstance(step, hlo.AddOp) or step.lhs is not op.body.block.args[k]:
        return None
    start, stop, by = (_integer(v) for v in (op.operands[k], bound, step.rhs))
    if start is None or stop is None or by is None or by <= 0:
        return None
    return max(0, -(-(stop - start) // by))


def _integer(value: SSAValue) -> int | None:
    """The value of a rank-0 integer constant."""
    owner = value.owner
    if not isinstance(owner, hlo.ConstantOp) or not isinstance(
        owner.value.get_element_type(), IntegerType
    ):
        return None
    found = splat_element(owner.value)
    return None if found is None or owner.value.get_shape() else int(found[0])


@register_flow(hlo.OptimizationBarrierOp)
def _barrier_flow(op: Operation) -> RegionFlow:
    """Operand i is result i (Shardy's data-flow edge): each keeps its own layout, which
    the model's shared loops could not give operands split on different axes alike."""
    return RegionFlow(tuple(Carry(i, (), (), i) for i in range(len(op.results))))


@register_flow(hlo.CaseOp)
def _case_flow(op: Operation) -> RegionFlow:
    """Result i: what every branch yields at i; the index is whole, so that every device
    takes the same branch (and meets the same collectives)."""
    assert isinstance(op, hlo.CaseOp)
    yields = [branch.block.last_op for branch in op.branches]
    return RegionFlow(
        tuple(
            Carry(None, (), tuple((t, i) for t in yields if t is not None), i)
            for i in range(len(op.results))
        ),
        whole_operands=(0,),
    )
register_model(hlo.SortOp)(SortModel())
register_model(hlo.OptimizationBarrierOp)(OptimizationBarrierModel())
