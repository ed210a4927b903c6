"""`stablehlo-combine-collectives`: independent StableHLO all_gathers (and, on request,
all_reduces) of the same groups become one variadic collective.

StableHLO's all_gather and all_reduce take any number of operands, so a bucket needs no
buffer: the operands go in as they are and each result replaces one op's result, where
a shard-level bucket (`shard-combine-collectives`: one tensor) is a copy in and out on
every device. It is the tuple all-gather (all-reduce) that XLA's combiners make after
its SPMD partitioner.

Not in `xshard-spmd`, because XLA (jax 0.10.2) does not take these before partitioning:
- a variadic all_reduce with a channel, which every partition-mode collective has, is
  refused ("SPMD partitioner supports only single-operand allreduce in manual
  partitioning mode"); hence all_reduces only with `all-reduce=true`. XLA combines the
  single ones itself, with no copy;
- a variadic all_gather compiles under GSPMD in a module whose arguments are `{manual}`
  (what `finalize-partition-mode` writes; `xshard-run` compiles so), but under Shardy,
  inside `jit(shard_map)` as `xshard.jit` compiles, it is refused ("Sharding is
  tuple-shaped but validation shape is not") or crashes the process, and without
  `{manual}` it crashes XLA:CPU.
`tests/test_combine_collectives.py` holds XLA to these, so the pass can join the
pipeline when they change.

Ops share a bucket when their groups, channel, `use_global_device_ids` and
`all_gather_dim` agree (all_reduce: the same single-op reducer and element type), they
have static shapes and no discardable attributes, and none depends on another; the
bucketing and the new order of the block are `xshard.transforms.collective_buckets`',
which `shard-combine-collectives` shares. Every block is treated on its own (while
bodies, case branches).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.reduction import single_reducer
from xshard.sharding.tensor_bytes import tensor_bytes
from xshard.transforms.collective_buckets import combine_module


@dataclass(frozen=True)
class _Variadic:
    """The `collective_buckets.Combiner` of StableHLO's variadic collectives."""

    all_reduce: bool

    def key(self, op: Operation) -> Hashable | None:
        if op.attributes or any(tensor_bytes(v.type) is None for v in op.operands):
            return None
        if isinstance(op, hlo.AllGatherOp):
            return (hlo.AllGatherOp, op.all_gather_dim, *self._common(op))
        if self.all_reduce and isinstance(op, hlo.AllReduceOp):
            reducer = single_reducer(op.computation)
            if reducer is None:
                return None
            scalar = op.computation.block.args[0].type
            return (hlo.AllReduceOp, reducer, scalar, *self._common(op))
        return None

    @staticmethod
    def _common(op: hlo.AllGatherOp | hlo.AllReduceOp) -> tuple[Hashable, ...]:
        return (op.replica_groups, op.channel_handle, op.use_global_device_ids)

    def size(self, op: Operation) -> int:
        return sum(tensor_bytes(v.type) or 0 for v in op.operands)

    def combine(self, b: Builder, ops: Sequence[Operation]) -> list[SSAValue]:
        first = ops[0]
        inputs = [v for op in ops for v in op.operands]
        result_types = [r.type for op in ops for r in op.results]
        regions = [r.clone() for r in first.regions]
        combined = type(first).create(
            operands=inputs,
            result_types=result_types,
            properties=dict(first.properties),
            regions=regions,
        )
        return list(b.insert(combined).results)


@dataclass(frozen=True)
class CombineStablehloCollectivesPass(ModulePass):
    """Combine StableHLO all-gathers into one.

    Options: `max-bytes`, the largest bucket per device (default 32 MiB, as
    `shard-combine-collectives`); `all-reduce` = false (default) | true: also combine
    all_reduces, which XLA refuses (module docstring)."""

    name = "stablehlo-combine-collectives"

    max_bytes: int = 32 * 1024 * 1024
    all_reduce: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        combine_module(op, _Variadic(self.all_reduce), self.max_bytes)
