"""xshard's passes, registered lazily by name.

Passes are grouped by phase, as in Shardy: `import` (what JAX and TCP emit, brought
to sharded StableHLO), `propagation` (with `auto-sharding`), `partition`, `simplify`
(collective rewrites on the partitioned program) and `export` (lowering to StableHLO);
`analysis` holds the reports. Each pass lives in its own module; the registry key is
the pass's `name`. Each class is importable from here too, loaded on first use
(`from xshard.transforms import ShardPartitionPass`).
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

# pass name -> (module under xshard.transforms, class name)
_PASSES: dict[str, tuple[str, str]] = {
    "import-sdy": ("import.import_sdy", "ImportSdyPass"),
    "inline": ("import.inline", "InlinePass"),
    "chlo-legalize-to-stablehlo": (
        "import.chlo_legalize_to_stablehlo",
        "ChloLegalizeToStablehloPass",
    ),
    "convert-stablehlo-to-tcp": ("import.convert_stablehlo_to_tcp", "ConvertStablehloToTcpPass"),
    "convert-tcp-to-stablehlo": ("import.convert_tcp_to_stablehlo", "ConvertTcpToStablehloPass"),
    "sharding-propagation": ("propagation.sharding_propagation", "ShardingPropagationPass"),
    "auto-sharding": ("propagation.auto.auto_sharding", "AutoShardingPass"),
    "sharding-report": ("propagation.sharding_report", "ShardingReportPass"),
    "shard-partition": ("partition.shard_partition", "ShardPartitionPass"),
    "test-grid-resharding-partition": (
        "partition.test_grid_resharding_partition",
        "TestGridReshardingPartitionPass",
    ),
    "convert-shard-to-stablehlo": (
        "export.convert_shard_to_stablehlo",
        "ConvertShardToStablehloPass",
    ),
    "guard-host-callbacks": ("export.guard_host_callbacks", "GuardHostCallbacksPass"),
    "convert-shard-queries-to-stablehlo": (
        "export.convert_shard_queries_to_stablehlo",
        "ConvertShardQueriesToStablehloPass",
    ),
    "convert-broadcast-to-all-reduce": (
        "export.convert_broadcast_to_all_reduce",
        "ConvertBroadcastToAllReducePass",
    ),
    "convert-shard-collectives-to-stablehlo": (
        "export.convert_shard_collectives_to_stablehlo",
        "ConvertShardCollectivesToStablehloPass",
    ),
    "finalize-partition-mode": ("export.finalize_partition_mode", "FinalizePartitionModePass"),
    "stablehlo-combine-collectives": (
        "export.combine_stablehlo_collectives",
        "CombineStablehloCollectivesPass",
    ),
    "shard-fold-all-reduce": ("simplify.fold_all_reduce", "FoldAllReducePass"),
    "shard-reassociate-all-reduce": (
        "simplify.reassociate_all_reduce",
        "ReassociateAllReducePass",
    ),
    "shard-reassociate-reduce-scatter": (
        "simplify.reassociate_reduce_scatter",
        "ReassociateReduceScatterPass",
    ),
    "shard-move-all-gather-down": ("simplify.move_all_gather_down", "MoveAllGatherDownPass"),
    "shard-fuse-reduce-scatter": ("simplify.fuse_reduce_scatter", "FuseReduceScatterPass"),
    "shard-cancel-inverse-pairs": ("simplify.cancel_inverse_pairs", "CancelInversePairsPass"),
    "shard-split-all-reduce": ("simplify.split_all_reduce", "SplitAllReducePass"),
    "shard-combine-collectives": ("simplify.combine_collectives", "CombineCollectivesPass"),
    "shard-decompose-all-gather": ("simplify.decompose_all_gather", "DecomposeAllGatherPass"),
    "shard-simplify": ("simplify.shard_simplify", "ShardSimplifyPass"),
    "test-grid-simplifications": (
        "simplify.test_grid_simplifications",
        "TestGridSimplificationsPass",
    ),
    "detect-collective-broadcast": (
        "simplify.detect_collective_broadcast",
        "DetectCollectiveBroadcastPass",
    ),
    "test-grid-process-multi-index-op-lowering": (
        "export.test_grid_process_multi_index_op_lowering",
        "TestGridProcessMultiIndexOpLoweringPass",
    ),
    "test-grid-all-slice-op-lowering": (
        "export.test_grid_all_slice_op_lowering",
        "TestGridAllSliceOpLoweringPass",
    ),
    "comm-report": ("analysis.comm_report", "CommReportPass"),
    "canonicalize": ("canonicalize", "CanonicalizePass"),
    "xshard-spmd": ("spmd_pipeline", "SpmdPipelinePass"),
}


def _factory(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(import_module(f"xshard.transforms.{module}"), cls)

    return load


def get_xshard_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports the pass class on first use."""
    return {name: _factory(module, cls) for name, (module, cls) in _PASSES.items()}


_CLASSES = {cls: module for module, cls in _PASSES.values()}

__all__ = ["get_xshard_passes", *sorted(_CLASSES)]


def __getattr__(name: str) -> type[ModulePass]:
    if name not in _CLASSES:
        raise AttributeError(f"module 'xshard.transforms' has no attribute {name!r}")
    return getattr(import_module(f"xshard.transforms.{_CLASSES[name]}"), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_CLASSES})
