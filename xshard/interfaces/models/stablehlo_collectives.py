"""Sharding models of StableHLO's collectives and of partition_id / replica_id.

They are met inside a partially manual `sdy.manual_computation`: its body is per-device
code over the manual axes and still global over the free ones, and xshard partitions
it over the free axes. A collective there (JAX's psum, ppermute, all_gather... over
manual axes) acts within groups of devices that agree on every free axis, its
`replica_groups` naming logical device ids of the whole mesh. Splitting a dim it does
not move over free axes therefore only splits each group's data alike, as for an
elementwise op: each device still meets the same peers, now on its slice. The dims a
collective moves (gathers, scatters, exchanges) are never split.

No model here partitions: the op cloned on local types is its per-device form (its ids
and attributes unchanged, its moved dims whole). Outside a manual computation these
ops have no global meaning (their groups and ids name devices), so a global program
that holds one is refused at the op.
"""

from __future__ import annotations

from collections.abc import Collection

from xdsl.ir import Operation

from xshard.dialects import sdy
from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models.common import dims_map, rank, source_rule
from xshard.interfaces.sharding_interface import Loop, ShardingRule
from xshard.interfaces.sharding_model import UnsupportedOp, register_model


def per_device(op: Operation) -> None:
    """Refuse `op` unless a manual computation's body holds it."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, sdy.ManualComputationOp):
            return
        parent = parent.parent_op()
    raise UnsupportedOp(
        "it speaks per device (it names devices), so it belongs in a shard_map body "
        "('sdy.manual_computation'), not in the global program"
    )


def collective_rule(op: Operation, moved: Collection[int] = ()) -> ShardingRule:
    """Loop d indexes dim d of every operand and of every result (the barrier's sharing:
    one grid axis splits all of a variadic collective's values alike); the `moved` dims
    are indexed by no loop. Partial operands are settled first (NO_PARTIAL): a
    collective's reduction runs over its group, not over the free axes."""
    per_device(op)
    n = max((rank(v) or 0 for v in (*op.operands, *op.results)), default=0)
    operand_maps = tuple(_map(n, rank(v) or 0, moved) for v in op.operands)
    result_maps = tuple(_map(n, rank(v) or 0, moved) for v in op.results)
    return ShardingRule(tuple(Loop.parallel() for _ in range(n)), operand_maps, result_maps)


def _map(n: int, r: int, moved: Collection[int]):
    return dims_map(n, [None if d in moved else d for d in range(r)])


class CollectiveModel:
    """all_reduce, collective_permute, collective_broadcast: no dim moves."""

    def rule(self, op: Operation) -> ShardingRule:
        return collective_rule(op)


class AllGatherModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.AllGatherOp)
        return collective_rule(op, {op.all_gather_dim.value.data})


class ReduceScatterModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReduceScatterOp)
        return collective_rule(op, {op.scatter_dimension.value.data})


class AllToAllModel:
    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.AllToAllOp)
        return collective_rule(
            op, {op.split_dimension.value.data, op.concat_dimension.value.data}
        )


class ProcessIdModel:
    """partition_id, replica_id: no operands, a rank-0 result, nothing to split."""

    def rule(self, op: Operation) -> ShardingRule:
        per_device(op)
        return source_rule(op)


register_model(hlo.AllReduceOp, hlo.CollectivePermuteOp, hlo.CollectiveBroadcastOp)(
    CollectiveModel()
)
register_model(hlo.AllGatherOp)(AllGatherModel())
register_model(hlo.ReduceScatterOp)(ReduceScatterModel())
register_model(hlo.AllToAllOp)(AllToAllModel())
register_model(hlo.PartitionIdOp, hlo.ReplicaIdOp)(ProcessIdModel())
