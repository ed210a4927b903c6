"""Which reshards' all_reduces XLA's all-reduce combiner makes one, and what a reshard
costs once it does: how `auto-sharding` prices what follows it.

XLA combines independent all_reduces over the same groups (the same reduction and
element type), up to `ALL_REDUCE_BUCKET` bytes, into one: the bucket pays one
all_reduce's latency for all of them, and each its own bytes. So a data-parallel
gradient's all_reduce costs its bytes where the other gradients' come with it, not
an all_reduce's latency each: the one-layer GPT train step's hand plan runs 16
all_reduces as 5, 130.2 µs (priced from XLA's program), which the model priced at
640.5 µs, alone, and now at 130.5 µs.

The edges (a value read by an op) of one block that may run an all_reduce of one
kind are the links of one `ilp.Bucket`, each following the edges whose reader leads
to its value whatever the plan (`follows`). The all_reduces a plan runs need as many
combined ones as the longest chain among them (no two of a chain can be combined,
and the links of one length are independent): the bucket pays its latency that many
times. An all_reduce adds its bytes and `size / ALL_REDUCE_BUCKET` of its latency (a
bucket fills at the limit). Fixed classes of independent edges, made before the
solve from every edge that may run one, priced the hand plan of the one-layer GPT at
250.3 µs in the program given only its batch (its all_reduces fell in 15 classes where
they alone fall in 4); by its chains, 140.3.

All_gathers and reduce_scatters are priced alone, though shard-simplify buckets
them too: under a memory limit its buckets hold 1/32 of it, and priced as buckets (by
fixed classes, as all_reduces once were) the plans for the one-layer GPT at 1/4 of
replication were modeled at 241 µs and ran 375 µs of collectives in XLA; priced
alone, 245 and 205.
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


def _made_in(value: SSAValue, block: Block) -> Operation | None:
    """The op of `block` that makes `value` (None: an argument, or made above)."""
    if isinstance(value, BlockArgument):
        return None
    return block.find_ancestor_op_in_block(value.owner)  # type: ignore[arg-type]


def follows(block: Block, edges: Sequence[tuple[Operation, SSAValue]]) -> list[list[int]]:
    """Per edge (its reader in `block`, its value), in an order of their readers, the
    edges it follows, whatever the plan: those whose reader leads to its value. Only
    the nearest are given: an edge followed through another is left out."""
    reading: dict[Operation, int] = {}
    for k, (reader, _) in enumerate(edges):
        reading[reader] = reading.get(reader, 0) | 1 << k
    behind: dict[Operation, int] = {}
    """Per op, the edges whose reader is the op or leads to it, as bits."""
    for op in block.ops:
        found = reading.get(op, 0)
        for inner in op.walk():
            for v in inner.operands:
                if (made := _made_in(v, block)) is not None and made is not op:
                    found |= behind[made]
        behind[op] = found
    before = [behind.get(made, 0) if (made := _made_in(v, block)) else 0 for _, v in edges]
    nearest = []
    for k, left in enumerate(before):
        assert left >> k == 0, "edges out of their readers' order"
        found = []
        while left:
            f = left.bit_length() - 1  # the last left: none left follows it
            found.append(f)
            left &= ~(before[f] | 1 << f)
        nearest.append(found)
    return nearest
