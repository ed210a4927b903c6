"""The `shard` dialect: device grids, tensor shardings and collectives.

Every op, attribute and type of MLIR's `shard` dialect as `mlir-opt` 22.1.8 has
it, with the same textual syntax, the same properties (so the generic forms
match) and the same verifier rules and messages. One extension: `shard.sharding`
may carry partial axes (`partial = sum [1]`, upstream's pre-2025 syntax), stored
in two optional properties that are printed only when present, so a module
without partial axes stays readable by `mlir-opt`.

Upstream checks grid symbols in `verifySymbolUses`, after every op's own
verifier; here each op looks its grid up in the nearest symbol table from its
own `verify_`, after the op-local checks, which gives the same message for a
module with one error.

See https://mlir.llvm.org/docs/Dialects/Shard/ and `docs/dialects/shard.md`.

Modules: `attributes`, `checks` (what the verifiers share), `grid_ops` (the grid,
the process queries, grid lookup), `sharding_ops`, `collectives`,
`rooted_collectives`, and `canonicalization` with its `traits`. The package exports
the ops, attributes and helpers other code uses; the verifiers' own checks stay in
their modules.
"""

from xdsl.ir import Dialect

from xshard.dialects.shard import canonicalization  # noqa: F401  (fills the traits in)
from xshard.dialects.shard.attributes import (
    GridAxesArrayAttr,
    GridAxesAttr,
    IndexListAttr,
    ReductionKindAttr,
    ShardingType,
    grid_axes_attr,
    index_list_attr,
)
from xshard.dialects.shard.checks import (
    OptionalDynamicIndexList,
    group_size,
    join_mixed,
    split_mixed,
)
from xshard.dialects.shard.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    ReduceScatterOp,
    ShiftOp,
    UpdateHaloOp,
)
from xshard.dialects.shard.grid_ops import (
    GridOp,
    GridRef,
    GridShapeOp,
    NeighborsLinearIndicesOp,
    ProcessLinearIndexOp,
    ProcessMultiIndexOp,
    lookup_grid,
)
from xshard.dialects.shard.rooted_collectives import (
    BroadcastOp,
    GatherOp,
    RecvOp,
    ReduceOp,
    ScatterOp,
    SendOp,
)
from xshard.dialects.shard.sharding_ops import (
    GetShardingOp,
    ShardingOp,
    ShardOp,
    ShardShapeOp,
)

Shard = Dialect(
    "shard",
    [
        GridOp,
        GridShapeOp,
        ProcessMultiIndexOp,
        ProcessLinearIndexOp,
        NeighborsLinearIndicesOp,
        ShardingOp,
        GetShardingOp,
        ShardShapeOp,
        ShardOp,
        AllGatherOp,
        AllReduceOp,
        AllSliceOp,
        AllToAllOp,
        BroadcastOp,
        GatherOp,
        RecvOp,
        ReduceOp,
        ReduceScatterOp,
        ScatterOp,
        SendOp,
        ShiftOp,
        UpdateHaloOp,
    ],
    [GridAxesArrayAttr, ReductionKindAttr, ShardingType],
)

__all__ = [
    "GridAxesAttr",
    "IndexListAttr",
    "grid_axes_attr",
    "index_list_attr",
    "GridAxesArrayAttr",
    "ReductionKindAttr",
    "ShardingType",
    "group_size",
    "split_mixed",
    "join_mixed",
    "OptionalDynamicIndexList",
    "GridOp",
    "GridShapeOp",
    "ProcessMultiIndexOp",
    "ProcessLinearIndexOp",
    "NeighborsLinearIndicesOp",
    "GridRef",
    "lookup_grid",
    "ShardingOp",
    "GetShardingOp",
    "ShardShapeOp",
    "ShardOp",
    "AllGatherOp",
    "AllReduceOp",
    "AllSliceOp",
    "AllToAllOp",
    "ReduceScatterOp",
    "ShiftOp",
    "UpdateHaloOp",
    "BroadcastOp",
    "GatherOp",
    "RecvOp",
    "ReduceOp",
    "ScatterOp",
    "SendOp",
    "Shard",
]
