"""The sharding rules of StableHLO's collectives and process-id ops: one parallel loop
per dim, shared by every operand and result; the dims a collective moves are indexed by
no loop; partial operands are settled first; and `shard-partition`'s clone on local
types is each op's per-device form."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Block, Region
from xdsl.utils.test_value import create_ssa_value

from xshard.dialects import sdy
from xshard.dialects import stablehlo as hlo
from xshard.interfaces.models import model_for
from xshard.interfaces.sharding_interface import NO_PARTIAL, IteratorType
from xshard.interfaces.sharding_model import MODELS, UnsupportedOp

GROUPS = [[0, 1, 2, 3], [4, 5, 6, 7]]


def tensor(*shape: int):
    return create_ssa_value(TensorType(f32, list(shape)))


def in_shard_map(op):
    """`op` in a shard_map body, where collectives and process ids belong (the rule reads
    only where the op is)."""
    sdy.ManualComputationOp.create(regions=[Region(Block([op]))])
    return op


def indexing(op):
    """The loop kinds, then each operand's and each result's loop per dim, of `op` in a
    shard_map body."""
    in_shard_map(op)
    rule = model_for(op).rule(op)
    operands, results = rule.indexing
    assert rule.partial == NO_PARTIAL
    return [loop.type for loop in rule.loops], list(operands), list(results)


P = IteratorType.PARALLEL


def test_all_reduce_shares_loop_d_across_its_values():
    """Variadic: loop d indexes dim d of every operand and result; a lower rank stops early."""
    op = hlo.AllReduceOp([tensor(8, 4), tensor(8)], replica_groups=GROUPS)
    op.verify()
    assert indexing(op) == ([P, P], [(0, 1), (0,)], [(0, 1), (0,)])


@pytest.mark.parametrize(
    "op",
    [
        hlo.CollectivePermuteOp(tensor(8, 4, 2), source_target_pairs=[(0, 1), (1, 0)]),
        hlo.CollectiveBroadcastOp(tensor(8, 4, 2), replica_groups=[[0, 1]]),
    ],
    ids=["collective_permute", "collective_broadcast"],
)
def test_unary_collectives_split_every_dim(op):
    op.verify()
    assert indexing(op) == ([P, P, P], [(0, 1, 2)], [(0, 1, 2)])


def test_all_gather_never_splits_the_gathered_dim():
    op = hlo.AllGatherOp([tensor(8, 4), tensor(2, 4)], all_gather_dim=1, replica_groups=GROUPS)
    op.verify()
    assert op.results[0].type == TensorType(f32, [8, 16])
    assert indexing(op) == ([P, P], [(0, None), (0, None)], [(0, None), (0, None)])


def test_reduce_scatter_never_splits_the_scattered_dim():
    op = hlo.ReduceScatterOp(tensor(8, 16), scatter_dimension=0, replica_groups=GROUPS)
    op.verify()
    assert indexing(op) == ([P, P], [(None, 1)], [(None, 1)])


def test_all_to_all_never_splits_the_split_or_concat_dim():
    op = hlo.AllToAllOp(
        tensor(8, 16, 2), split_dimension=1, concat_dimension=0, split_count=4,
        replica_groups=GROUPS,
    )
    op.verify()
    assert op.results[0].type == TensorType(f32, [32, 4, 2])
    assert indexing(op) == ([P, P, P], [(None, None, 2)], [(None, None, 2)])


@pytest.mark.parametrize("cls", [hlo.PartitionIdOp, hlo.ReplicaIdOp])
def test_process_ids_are_rank_0_sources(cls):
    op = cls()
    assert indexing(op) == ([], [], [()])


@pytest.mark.parametrize(
    "cls", [hlo.AllReduceOp, hlo.AllGatherOp, hlo.ReduceScatterOp, hlo.AllToAllOp,
            hlo.CollectivePermuteOp, hlo.CollectiveBroadcastOp, hlo.PartitionIdOp,
            hlo.ReplicaIdOp],
)
def test_no_model_partitions(cls):
    """The op cloned on local types is its per-device form (`clone_local`; the lit test
    `sharding-propagation/stablehlo-collectives.mlir` partitions some)."""
    assert not hasattr(MODELS[cls], "partition")


@pytest.mark.parametrize(
    "op",
    [
        hlo.AllReduceOp(tensor(8, 4), replica_groups=GROUPS),
        hlo.CollectivePermuteOp(tensor(8, 4), source_target_pairs=[(0, 1), (1, 0)]),
        hlo.PartitionIdOp(),
    ],
    ids=["all_reduce", "collective_permute", "partition_id"],
)
def test_outside_a_shard_map_body_they_are_refused(op):
    """Their groups and ids name devices: a global program has no meaning for them."""
    with pytest.raises(UnsupportedOp, match="belongs in a shard_map body"):
        model_for(op).rule(op)
