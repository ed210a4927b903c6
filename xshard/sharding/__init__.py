"""The dialect-free core: grids, shardings, shard shapes, device groups, resharding."""

from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.groups import device_groups, group_of, in_group_index
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.resharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    MakePartial,
    ReduceScatter,
    ReshardError,
    ReshardPlan,
    Step,
    UpdateHalo,
    plan_reshard,
    step_cost,
)
from xshard.sharding.shapes import shard_offset, shard_shape
from xshard.sharding.sharding import Sharding

__all__ = [
    "AllGather",
    "AllReduce",
    "AllSlice",
    "AllToAll",
    "Grid",
    "MakePartial",
    "ReduceScatter",
    "ReductionKind",
    "ReshardError",
    "ReshardPlan",
    "Sharding",
    "ShardingError",
    "Step",
    "UpdateHalo",
    "device_groups",
    "group_of",
    "in_group_index",
    "plan_reshard",
    "shard_offset",
    "shard_shape",
    "step_cost",
]
