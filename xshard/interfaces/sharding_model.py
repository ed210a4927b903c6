"""The sharding model protocol and its registry, keyed by op class.

Models are registered for ops xshard owns and for ops it does not (xDSL's linalg,
tosa, arith, tensor): MLIR's "external models". This module is the end of the
interface chain (`sharding_interface`, `sharding_option`, `partition_context`, then
this), because a model partitions through a `PartitionContext`; the models
themselves live in `xshard.interfaces.models`, which imports them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from xdsl.ir import Operation

from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.sharding_interface import ShardingRule


class ShardingModel(Protocol):
    """What an op must tell xshard to be sharded.

    `partition` is optional: where a model leaves it out, `shard-partition` emits the
    same op on the local operands and local result types (`PartitionContext.clone_local`).
    """

    def rule(self, op: Operation) -> ShardingRule:
        """Loops and indexing maps; `UnsupportedOp` when this op instance cannot be sharded."""
        ...

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        """Optional. Emit the per-device form of `op` through `ctx` and hand its local
        results to `ctx.set_results` (called by `shard-partition`)."""
        ...


class UnsupportedOp(Exception):
    """This op instance has a model, but its form cannot be sharded (the message says why)."""


MODELS: dict[type[Operation], ShardingModel] = {}

def register_model(
    *op_classes: type[Operation],
) -> Callable[[ShardingModel], ShardingModel]:
    """Attach `model` to each op class: `register_model(AddOp, SubOp)(ElementwiseModel())`."""

    def attach(model: ShardingModel) -> ShardingModel:
        for cls in op_classes:
            MODELS[cls] = model
        return model

    return attach
