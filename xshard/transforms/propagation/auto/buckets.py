"""Which reshards' collectives are combined into one, and what a reshard costs once
they are: how `auto-sharding` prices what follows it.

XLA combines independent all_reduces over the same groups (the same reduction and
element type), up to `ALL_REDUCE_BUCKET` bytes, into one; shard-simplify does the same
for all_gathers and reduce_scatters, up to its bucket (`gather_bucket_bytes`). A
bucket pays one collective's latency for all of them, and each its own bytes. So a
data-parallel gradient's all_reduce costs its bytes where the other gradients' come
with it, not an all_reduce's latency each: the one-layer GPT train step's hand plan
runs 16 all_reduces as 5, 130.2 µs (priced from XLA's program), which the model
priced at 640.5 µs, alone, and now at 130.5 µs. Likewise the carries a scanned model
reshards before its loop are gathered in a few flattened all_gathers (13 gathers of
the scanned 4-layer GPT's plan at 1/4, priced 15 µs each alone).

The edges (a value read by an op) of one block that may run a collective of one key
are the links of one `ilp.Bucket`, each following the edges whose reader leads to its
value whatever the plan (`follows`). The collectives a plan runs need as many
combined ones as the longest chain among them (no two of a chain can be combined,
and the links of one length are independent): the bucket pays its latency that many
times. A collective adds its bytes and `size / bucket` of its latency (a bucket
fills at the limit); one as large as a bucket is never combined and pays its own.
Fixed classes of independent edges, made before the solve from every edge that may
run one, priced the hand plan of the one-layer GPT at 250.3 µs in the program given
only its batch (its all_reduces fell in 15 classes where they alone fall in 4); by
its chains, 140.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import isfinite

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xshard.sharding.cost_model import CostModel
from xshard.sharding.grid import Grid
from xshard.sharding.resharding import (
    AllGather,
    AllReduce,
    ReduceScatter,
    nominal_bytes,
    plan_reshard,
)
from xshard.sharding.sharding import Sharding
from xshard.sharding.tensor_bytes import element_bytes
from xshard.transforms.propagation.auto.strategies import shape_of
from xshard.transforms.propagation.option_cost import reshard_time
from xshard.transforms.simplify.combine_collectives import CombineCollectivesPass

ALL_REDUCE_BUCKET = CombineCollectivesPass.max_bytes
"""The largest all_reduce bucket: XLA's combiner's order of magnitude."""

BUCKET_SHARE = 32
"""Under auto-sharding's memory limit, each of shard-simplify's buckets carries at most
this share of it (`gather_bucket_bytes`)."""

Key = tuple[str, tuple[int, ...], object, object]
"""What collectives in one bucket share: kind, grid axes, reduction and element type."""

_KINDS = {AllReduce: "all_reduce", AllGather: "all_gather", ReduceScatter: "reduce_scatter"}


def gather_bucket_bytes(limit: int | None) -> int:
    """shard-simplify's largest all_gather and reduce_scatter bucket, per device: under
    a memory limit, 1 / `BUCKET_SHARE` of it. A bucket is live whole at one point (its
    pieces concatenated, and an all_gather's gathered whole), which the plan's memory
    model does not see: on the 4-layer GPT train step at 1/4 of replication, XLA held
    the plan in 423172 bytes with 32 MiB buckets, 309700 with these."""
    if limit is None:
        return CombineCollectivesPass.max_bytes
    return max(1, limit // BUCKET_SHARE)


@dataclass(frozen=True)
class Priced:
    """A reshard: the seconds it costs on its own account, and the bucket keys of its
    collectives, whose latency their bucket pays (`inf` seconds: no reshard exists)."""

    seconds: float
    shared: frozenset[Key] = frozenset()


def price(
    model: CostModel, src: Sharding, dst: Sharding, value: SSAValue, grid: Grid, bucket: int
) -> Priced:
    """The reshard of `value` from `src` to `dst` (`reshard_time`), its collectives
    sharing buckets: all_reduces XLA's, up to `ALL_REDUCE_BUCKET`, all_gathers and
    reduce_scatters shard-simplify's, up to `bucket` bytes."""
    seconds = reshard_time(model, src, dst, value, grid)
    if not seconds or not isfinite(seconds):  # nothing to do, or no reshard exists
        return Priced(seconds)
    elem = element_bytes(value.type)  # type: ignore[arg-type]
    plan = plan_reshard(src, dst, shape_of(value), grid, elem)  # the one timed (cached)
    shared = set()
    shapes = plan.local_shapes
    for step, local, made in zip(plan.steps, shapes, shapes[1:], strict=False):
        kind = _KINDS.get(type(step))
        if kind is None:
            continue
        held = ALL_REDUCE_BUCKET if kind == "all_reduce" else bucket
        size = max(nominal_bytes(local, elem), nominal_bytes(made, elem))
        if size >= held:  # alone in its bucket
            continue
        latency = model.collective_latency(kind, step.axes, grid)  # type: ignore[attr-defined]
        seconds += latency * (size / held - 1)
        reduction = getattr(step, "kind", None)
        shared.add((kind, step.axes, reduction, value.type.element_type))  # type: ignore[attr-defined]
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
