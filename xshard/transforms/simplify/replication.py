"""Is a per-device value provably the same on every device of a group?

The rewrites that drop or move an `all_slice` need it: `all_gather(all_slice(x))`
is `x` only when every device of the group holds the same `x`. The analysis is
syntactic and conservative (False when unsure). A value is replicated over grid
axes A of grid g when it is
- a constant, an iota or a `shard.grid_shape` result;
- the result of an `all_reduce`, `all_gather` or `broadcast` on g over axes
  that include A (every device of a group gets the same value);
- the result of any collective on g over axes disjoint from A whose operand is
  replicated over A (devices that differ only along A sit in groups that are
  translates of each other and see equal inputs);
- the result of a `Pure` op without regions, outside the `shard` dialect, with
  at least one operand, all of them replicated over A (a pure function of equal
  inputs).
Block arguments, process ids and everything else are not.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue
from xdsl.traits import ConstantLike, Pure

from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo

_MAX_DEPTH = 64
"""Deeper chains are not followed (answer False), so the walk stays cheap."""

_SETTLING = (shard.AllReduceOp, shard.AllGatherOp, shard.BroadcastOp)
_GROUPWISE = (*_SETTLING, shard.AllSliceOp, shard.AllToAllOp, shard.ReduceScatterOp)
"""Pure collectives whose result on a device depends only on its group's inputs and
its place in the group."""


def is_replicated(value: SSAValue, grid: str, axes: Sequence[int]) -> bool:
    """Whether `value` is equal on all devices of each group of `grid` over `axes`."""
    return _Walk(grid, frozenset(axes)).replicated(value, _MAX_DEPTH)


class _Walk:
    def __init__(self, grid: str, axes: frozenset[int]):
        self.grid, self.axes = grid, axes
        self.known: dict[SSAValue, bool] = {}

    def replicated(self, value: SSAValue, depth: int) -> bool:
        if value not in self.known:
            self.known[value] = self._replicated(value, depth)
        return self.known[value]

    def _replicated(self, value: SSAValue, depth: int) -> bool:
        op = value.owner
        if not isinstance(op, Operation) or depth == 0:
            return False
        if isinstance(op, hlo.IotaOp | arith.ConstantOp | shard.GridShapeOp) or op.has_trait(
            ConstantLike
        ):
            return True
        if isinstance(op, _GROUPWISE):
            if op.grid.root_reference.data != self.grid:
                return False
            own = set(op.grid_axes_tuple())
            if isinstance(op, _SETTLING) and self.axes <= own:
                return True
            return not (own & self.axes) and self.operands_replicated(op, depth)
        if op.dialect_name() == "shard" or op.regions or not op.operands:
            return False
        return op.has_trait(Pure) and self.operands_replicated(op, depth)

    def operands_replicated(self, op: Operation, depth: int) -> bool:
        return all(self.replicated(v, depth - 1) for v in op.operands)
