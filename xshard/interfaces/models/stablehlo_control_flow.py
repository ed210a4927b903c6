"""Sharding models of the StableHLO ops with regions (while, case, sort) and of
optimization_barrier.

`while` and `case` are modelled whole: no loop indexes any dim of their operands or
results, so `shard-partition` gathers what they read, each device runs the op as it
is (regions cloned on global types) and the results come out replicated. Splitting
the loop state would need the regions themselves partitioned; this first model is
exact and costs the gathers. Values the regions read from above are made whole too
(`captures.clone_with_replicated_captures`).

`sort` sorts each 1-d slice along its dimension independently: every other dim may be
split, the sorted one never.
"""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.captures import clone_with_replicated_captures
from xshard.interfaces.models.common import dims_map, rank
from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import register_model


class WholeModel:
    """No loops: every tensor operand and result is whole on each device."""

    def rule(self, op: Operation) -> ShardingRule:
        def whole(n: int | None):
            return None if n is None else dims_map(0, [None] * n)

        return ShardingRule(
            (),
            tuple(whole(rank(v)) for v in op.operands),
            tuple(dims_map(0, [None] * (rank(r) or 0)) for r in op.results),
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        clone_with_replicated_captures(ctx)


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
    """The identity on each operand: loop d indexes dim d of every operand and its result.
    Sharing loops across operands is exact (no operand reads another) and lets one grid
    axis split them all alike, as a remat barrier's activations want (a loop per operand
    dim would let an axis split only one of them). Partial operands are settled first
    (no rule carries partial state through one operand of several)."""

    def rule(self, op: Operation) -> ShardingRule:
        n = max((rank(v) or 0 for v in op.operands), default=0)
        maps = tuple(dims_map(n, range(rank(v) or 0)) for v in op.operands)
        return ShardingRule(tuple(Loop.parallel() for _ in range(n)), maps, maps)


register_model(hlo.WhileOp, hlo.CaseOp)(WholeModel())
register_model(hlo.SortOp)(SortModel())
register_model(hlo.OptimizationBarrierOp)(OptimizationBarrierModel())
