"""Sharding model of `stablehlo.triangular_solve`: the batch dims, and the dim of `b`
whose rows (or columns) are solved apart (`b`'s columns where `a` is on the left, its
rows where it is on the right), are parallel loops; `a`'s matrix dims and the solved
dim of `b` are not indexed (each unknown depends on every earlier one), so
`shard-partition` gathers them. Partial sums settle first (no partial rule)."""

from __future__ import annotations

from xdsl.ir import Operation

from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.common import dims_map
from xshard.interfaces.sharding_interface import NO_PARTIAL, Loop, ShardingRule
from xshard.interfaces.sharding_model import register_model


class TriangularSolveModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.TriangularSolveOp)
        batch = op.a.type.get_num_dims() - 2  # type: ignore[union-attr]
        apart = batch  # the loop over b's independent rows or columns
        loops = list(range(batch))
        a = dims_map(batch + 1, [*loops, None, None])
        if op.left_side.value.data:
            b = dims_map(batch + 1, [*loops, None, apart])
        else:
            b = dims_map(batch + 1, [*loops, apart, None])
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(batch + 1)), (a, b), (b,), NO_PARTIAL
        )


register_model(hlo.TriangularSolveOp)(TriangularSolveModel())
