"""Which reshards' all_reduces XLA's all-reduce combiner makes one, and what a reshard
costs once it does: how `auto-sharding` prices what follows it.

XLA combines independent all_reduces over the same groups (the same reduction and
element type), up to `ALL_REDUCE_BUCKET` bytes, into one: the bucket pays one
all_reduce's latency for all of them, and each its own bytes. So a data-parallel
gradient's all_reduce costs its bytes where the other gradients' come with it, not
an all_reduce's latency each: the one-layer GPT train step's hand plan runs 16
all_reduces as 5, 130.2 µs (priced from XLA's program), which the model priced at
640.5 µs, alone, and now at 150.5 µs.

The edges (a value read by an op) of one block that may run an all_reduce of one
kind are put in classes whose collectives are independent whatever the plan: no
edge's reader leads to another's value (`independent_classes`). So the gradients'
settling, where the optimizer reads them, and the returned values' are one class, and
partial sums added up are one. An all_reduce of a class adds its bytes and
`size / ALL_REDUCE_BUCKET` of its latency (a bucket fills at the limit); the class's
latency is paid once where any of its edges runs one (`ilp.Bucket`).

All_gathers and reduce_scatters are priced alone, though shard-simplify buckets
them too: under a memory limit its buckets hold 1/32 of it, and priced as buckets
(as here, by class) the plans for the one-layer GPT at 1/4 of replication were
modeled at 241 µs and ran 375 µs of collectives in XLA; priced alone, 245 and 205.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import isfinite

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xshard.sharding.cost_model import CostModel
from xshard.sharding.grid import Grid
from xshard.sharding.resharding import AllReduce, nominal_bytes, plan_reshard
from xshard.sharding.sharding import Sharding
from xshard.sharding.tensor_bytes import element_bytes
from xshard.transforms.propagation.auto.strategies import shape_of
from xshard.transforms.propagation.option_cost import reshard_time
from xshard.transforms.simplify.combine_collectives import CombineCollectivesPass

ALL_REDUCE_BUCKET = CombineCollectivesPass.max_bytes
"""The largest all_reduce bucket: XLA's combiner's order of magnitude."""

Key = tuple[tuple[int, ...], object, object]
"""What all_reduces in one bucket share: grid axes, reduction and element type."""


@dataclass(frozen=True)
class Priced:
    """A reshard: the seconds it costs on its own account, and the bucket keys of its
    all_reduces, whose latency their bucket pays (`inf` seconds: no reshard exists)."""

    seconds: float
    shared: frozenset[Key] = frozenset()


def price(model: CostModel, src: Sharding, dst: Sharding, value: SSAValue, grid: Grid) -> Priced:
    """The reshard of `value` from `src` to `dst` (`reshard_time`), its all_reduces
    sharing buckets."""
    seconds = reshard_time(model, src, dst, value, grid)
    if not seconds or not isfinite(seconds):  # nothing to do, or no reshard exists
        return Priced(seconds)
    elem = element_bytes(value.type)  # type: ignore[arg-type]
    plan = plan_reshard(src, dst, shape_of(value), grid, elem)  # the one timed (cached)
    shared = set()
    for step, local in zip(plan.steps, plan.local_shapes, strict=False):
        if isinstance(step, AllReduce):
            latency = model.collective_latency("all_reduce", step.axes, grid)
            seconds += latency * (nominal_bytes(local, elem) / ALL_REDUCE_BUCKET - 1)
            shared.add((step.axes, step.kind, value.type.element_type))  # type: ignore[attr-defined]
    return Priced(seconds, frozenset(shared))


def _ancestors(block: Block) -> tuple[dict[Operation, int], dict[Operation, int]]:
    """Each op of `block`'s bit, and the bits of the ops it reads through (itself
    included), as ints."""
    bit: dict[Operation, int] = {}
    ancestors: dict[Operation, int] = {}
    for i, op in enumerate(block.ops):
        bit[op] = 1 << i
        reach = bit[op]
        for inner in op.walk():
            for v in inner.operands:
                if (p := _made_in(v, block)) is not None and p is not op:
                    reach |= ancestors[p]
        ancestors[op] = reach
    return bit, ancestors


def _made_in(value: SSAValue, block: Block) -> Operation | None:
    """The op of `block` that makes `value` (None: an argument, or made above)."""
    if isinstance(value, BlockArgument):
        return None
    return block.find_ancestor_op_in_block(value.owner)  # type: ignore[arg-type]


def independent_classes(block: Block, edges: Sequence[tuple[Operation, SSAValue]]) -> list[int]:
    """A class for each edge (its reader in `block`, its value) such that no two edges
    of a class depend on each other, whatever the plan: one's reader never leads to
    the other's value. Each edge takes the first class it is independent of, in
    order, as the combiners fill buckets in program order."""
    bit, ancestors = _ancestors(block)
    readers: list[int] = []
    """Per class, its readers' bits: an edge whose value leads from one depends on it."""
    inputs: list[int] = []
    """Per class, what its values lead from: an edge whose reader is there is needed by it."""
    found = []
    for reader, value in edges:
        made = _made_in(value, block)
        before = 0 if made is None else ancestors[made]
        for c, (r, i) in enumerate(zip(readers, inputs, strict=True)):
            if not (before & r) and not (bit[reader] & i):
                readers[c] |= bit[reader]
                inputs[c] |= before
                break
        else:
            c = len(readers)
            readers.append(bit[reader])
            inputs.append(before)
        found.append(c)
    return found
