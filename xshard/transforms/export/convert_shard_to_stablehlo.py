"""`convert-shard-to-stablehlo`: a partitioned (per-device) program to the StableHLO
XLA compiles in partition mode, one partition per device of the grid.

The export phase as a pipeline of its passes, in order:

1. `guard-host-callbacks`: a side-effecting host callback of the global program runs
   on partition 0 alone, and its results are broadcast;
2. `convert-shard-queries-to-stablehlo`: process queries and the scalar arith on
   them to `partition_id` arithmetic;
3. `convert-broadcast-to-all-reduce` (`target=cpu` only): broadcasts and scatters
   as masked all_reduces, since XLA:CPU has no `collective_broadcast`;
4. `convert-shard-collectives-to-stablehlo`: every other collective (on `gpu`,
   broadcasts as `collective_broadcast`);
5. `finalize-partition-mode`: grids and shardings gone, partition counts and
   `{manual}` on the entry function.

The input must be partitioned: a `shard.shard` left is an error, as is any op without
a StableHLO form. Grids are checked first (one static device count), before
anything is lowered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xshard.transforms.export.convert_broadcast_to_all_reduce import (
    ConvertBroadcastToAllReducePass,
)
from xshard.transforms.export.convert_shard_collectives_to_stablehlo import (
    ConvertShardCollectivesToStablehloPass,
)
from xshard.transforms.export.convert_shard_queries_to_stablehlo import (
    ConvertShardQueriesToStablehloPass,
)
from xshard.transforms.export.finalize_partition_mode import FinalizePartitionModePass
from xshard.transforms.export.guard_host_callbacks import GuardHostCallbacksPass
from xshard.transforms.export.lowering import partition_count

Target = Literal["cpu", "gpu"]


@dataclass(frozen=True)
class ConvertShardToStablehloPass(ModulePass):
    """Per-device shard IR to StableHLO for XLA.

    Options: `target` = cpu (default; broadcasts as masked all_reduces, which
    XLA:CPU runs) | gpu (`stablehlo.collective_broadcast`)."""

    name = "convert-shard-to-stablehlo"

    target: Target = "cpu"

    def passes(self) -> tuple[ModulePass, ...]:
        cpu = (ConvertBroadcastToAllReducePass(),) if self.target == "cpu" else ()
        return (
            GuardHostCallbacksPass(),
            ConvertShardQueriesToStablehloPass(),
            *cpu,
            ConvertShardCollectivesToStablehloPass(),
            FinalizePartitionModePass(),
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if partition_count(op) is None:
            return
        for p in self.passes():
            p.apply(ctx, op)
