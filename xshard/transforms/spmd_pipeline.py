"""`xshard-spmd`: the default pipeline, from a global annotated program to the StableHLO
each of N devices runs (what `xshard-run` executes).

One pass so that users need one name, and one tuple of passes (`SpmdPipelinePass.passes`)
so that a new phase is one line to add. The module is verified after every phase, so a
phase that leaves invalid IR is named by the located error rather than found by XLA.
TCP programs are partitioned as TCP and lowered by `convert-tcp-to-stablehlo` after
that, so the sizes written in their ops are already local; programs without TCP ops
skip that phase (it would also lower their tensor reshapes, which need static shapes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xshard.diagnostics import verify_located
from xshard.dialects.shard import ShardOp
from xshard.interfaces.annotations import result_annotation, sharding_of
from xshard.sharding.sharding import Sharding
from xshard.transforms.export.convert_shard_to_stablehlo import (
    ConvertShardToStablehloPass,
    Target,
)
from xshard.transforms.export.entry import entry_function
from xshard.transforms.partition.shard_partition import ArgumentMode, ShardPartitionPass
from xshard.transforms.paused_collector import paused_collector
from xshard.transforms.propagation.auto.auto_sharding import AutoShardingPass
from xshard.transforms.propagation.sharding_propagation import (
    ShardingPropagationPass,
    Strategy,
    Traversal,
)
from xshard.transforms.simplify.decompose_all_gather import DecomposeAllGatherPass, Overlap
from xshard.transforms.simplify.shard_simplify import ShardSimplifyPass

_chlo = import_module("xshard.transforms.import.chlo_legalize_to_stablehlo")
_import_sdy = import_module("xshard.transforms.import.import_sdy")
_inline = import_module("xshard.transforms.import.inline")
_tcp_to_stablehlo = import_module("xshard.transforms.import.convert_tcp_to_stablehlo")
# (`import` is a keyword, so the import phase's modules load by name.)


def import_passes() -> tuple[ModulePass, ...]:
    """The import phase: JAX's shardings into shard annotations, its helper functions
    inlined, CHLO decomposed. They change no number the program computes, so
    `xshard-run` takes its one-device reference after them."""
    return (
        _import_sdy.ImportSdyPass(),
        _inline.InlinePass(),
        _chlo.ChloLegalizeToStablehloPass(),
    )


@dataclass(frozen=True)
class LowerTcpIfPresentPass(ModulePass):
    """`convert-tcp-to-stablehlo`, only on modules that hold TCP ops (XLA runs StableHLO)."""

    name = "convert-tcp-to-stablehlo-if-present"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(inner.dialect_name() == "tcp" for inner in op.walk()):
            _tcp_to_stablehlo.ConvertTcpToStablehloPass().apply(ctx, op)


BUCKET_SHARE = 32
"""Under auto-sharding's memory limit, each of shard-simplify's buckets carries at most
this share of it (`SpmdPipelinePass.bucket_bytes`)."""


@dataclass(frozen=True)
class SpmdPipelinePass(ModulePass):
    """Every phase: global program to StableHLO.

    Options: `target` = cpu (default) | gpu, `traversal` as `sharding-propagation`,
    `arguments` = partitioned (default) | global, as `shard-partition`, `simplify` =
    true (default) | false: false skips shard-simplify, to measure what it saves,
    `propagate` = true (default) | false: false partitions only what the program
    annotates (shard-partition treats the rest as it finds it), `auto-sharding` = false
    (default) | true: true chooses every value's layout with `auto-sharding` (under
    `memory-limit`, bytes per device, each solve within `time-limit` seconds if given)
    instead of propagating the annotations (shard-simplify's buckets then hold at
    most 1/32 of the limit each), `report` = false (default) | true: auto-sharding's
    report of each plan it makes (its modeled cost and memory, decisions and solve
    time) to stderr,
    `overlap` = none (default) | broadcast | ring | auto: shard-decompose-all-gather's
    strategy, after shard-simplify, to overlap an all_gather with the matmul consuming
    it; `verify-each` = false (default) | true: verify the module after every phase,
    not only where the driver does (before and after the pipeline)."""

    name = "xshard-spmd"

    target: Target = "cpu"
    traversal: Traversal = "backward-forward"
    arguments: ArgumentMode = "partitioned"
    simplify: bool = True
    propagate: bool = True
    strategy: Strategy = "aggressive"
    auto_sharding: bool = False
    memory_limit: int | None = None
    time_limit: int | float | None = None
    report: bool = False
    overlap: Overlap = "none"
    verify_each: bool = False

    def passes(self) -> tuple[ModulePass, ...]:
        """The phases in order: import, propagation (or auto-sharding), partition, collective
        optimisation (shard-simplify), export."""
        return (
            *import_passes(),
            *self.layout_passes(),
            ShardPartitionPass(self.arguments),
            *((ShardSimplifyPass(self.bucket_bytes()),) if self.simplify else ()),
            *(
                (DecomposeAllGatherPass(self.overlap, self.target),)
                if self.overlap != "none"
                else ()
            ),
            LowerTcpIfPresentPass(),
            ConvertShardToStablehloPass(self.target),
        )

    def bucket_bytes(self) -> int:
        """shard-simplify's largest bucket: under auto-sharding's memory limit, 1 /
        `BUCKET_SHARE` of it. A bucket is live whole at one point (its pieces
        concatenated, and an all_gather's gathered whole), which the plan's memory
        model does not see: on the 4-layer GPT train step at 1/4 of replication, XLA
        held the plan in 423172 bytes with 32 MiB buckets, 309700 with these."""
        if self.auto_sharding and self.memory_limit is not None:
            return max(1, self.memory_limit // BUCKET_SHARE)
        return ShardSimplifyPass.bucket_bytes

    def layout_passes(self) -> tuple[ModulePass, ...]:
        if self.auto_sharding:
            return (AutoShardingPass(self.memory_limit, self.report, time_limit=self.time_limit),)
        if self.propagate:
            return (ShardingPropagationPass(self.traversal, self.strategy),)
        return ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with paused_collector():
            for phase in self.passes():
                phase.apply(ctx, op)
                if self.verify_each:
                    verify_located(op)


def boundary_shardings(fn: func.FuncOp) -> tuple[list[Sharding | None], list[Sharding | None]]:
    """The layouts `shard-partition` gives the boundary of `fn`: each argument's first
    result annotation and each returned annotation; `None` (none) is replicated."""
    args: list[Sharding | None] = []
    for arg in fn.body.block.args:
        shard = result_annotation(arg)
        args.append(None if shard is None else sharding_of(shard.sharding, shard))
    ret = fn.body.block.last_op
    assert ret is not None
    results: list[Sharding | None] = []
    for value in ret.operands:
        owner = value.owner
        results.append(sharding_of(owner.sharding, owner) if isinstance(owner, ShardOp) else None)
    return args, results


def partition_recording_boundary(
    phases: Sequence[ModulePass], ctx: Context, module: ModuleOp
) -> tuple[list[Sharding | None], list[Sharding | None]]:
    """Apply `phases` (the pipeline after import) to `module` and verify the result;
    with them, the layouts `shard-partition` gives the entry function's boundary,
    read just before it runs (the annotations go with it)."""
    layouts: tuple[list[Sharding | None], list[Sharding | None]] = ([], [])
    for phase in phases:
        if isinstance(phase, ShardPartitionPass):
            layouts = boundary_shardings(entry_function(module))
        phase.apply(ctx, module)
    verify_located(module)
    return layouts
