"""`stablehlo.collective_broadcast` as a masked all_reduce, for XLA:CPU.

XLA:CPU cannot run `collective_broadcast` (jax-xla.md §5). Its CPU equivalent,
the idiom the collective_broadcast RFC names: every partition that is the
source (first id) of its group keeps its operand, every other partition
contributes zeros, and an all_reduce over the same groups sums them, so each
group member receives its source's value. Partitions in no group reduce alone
over zeros and get zeros, as the spec asks.

Whether a partition is a source is read from a constant table indexed by
`partition_id`, which is right for any group order (e.g. `[[3, 1], [0, 2]]`),
where remainder arithmetic on the id is right only for contiguous groups.
This module needs neither jax nor a StableHLO dialect: it writes StableHLO
text in generic form, which XLA and xDSL both read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_ELEMENT_TYPE = re.compile(r"^tensor<(?:\d+x)*([a-z0-9]+)>$")


def source_table(replica_groups: Sequence[Sequence[int]], num_partitions: int) -> list[bool]:
    """Entry p is True when partition p is the source (first id) of its group."""
    seen: set[int] = set()
    for group in replica_groups:
        if not group:
            raise ValueError("replica_groups holds an empty group")
        for p in group:
            if not 0 <= p < num_partitions:
                raise ValueError(f"partition {p} is outside 0..{num_partitions - 1}")
            if p in seen:
                raise ValueError(f"partition {p} is in two replica groups")
            seen.add(p)
    sources = {group[0] for group in replica_groups}
    return [p in sources for p in range(num_partitions)]


def reduction_groups(
    replica_groups: Sequence[Sequence[int]], num_partitions: int
) -> list[list[int]]:
    """The broadcast's groups, then one group of the partitions in none, padded with -1.

    The all_reduce must cover every partition; partitions outside all groups
    only ever contribute and receive zeros. -1 pads ragged groups to a dense
    tensor, as MHLO does.
    """
    groups = [list(g) for g in replica_groups]
    covered = {p for g in groups for p in g}
    rest = [p for p in range(num_partitions) if p not in covered]
    if rest:
        groups.append(rest)
    width = max(len(g) for g in groups)
    return [g + [-1] * (width - len(g)) for g in groups]


def _dense_groups(groups: list[list[int]]) -> str:
    rows = ", ".join("[" + ", ".join(str(p) for p in g) + "]" for g in groups)
    return f"dense<[{rows}]> : tensor<{len(groups)}x{len(groups[0])}xi64>"


def masked_broadcast_text(
    operand: str,
    tensor_type: str,
    replica_groups: Sequence[Sequence[int]],
    num_partitions: int,
    prefix: str = "bcast",
) -> tuple[list[str], str]:
    """StableHLO lines computing `collective_broadcast(operand)` on XLA:CPU.

    `operand` is an SSA name such as `%x` of type `tensor_type` (a ranked
    tensor type such as `tensor<4x2xf32>`); the new SSA names start with
    `%prefix`. Returns the lines and the name of the result.
    """
    match = _ELEMENT_TYPE.match(tensor_type)
    if not match:
        raise ValueError(f"expected a static ranked tensor type, got {tensor_type!r}")
    element = match.group(1)
    scalar = f"tensor<{element}>"
    zero = "false" if element == "i1" else "0.0" if element.startswith(("f", "bf")) else "0"
    combine = "stablehlo.or" if element == "i1" else "stablehlo.add"
    sources = source_table(replica_groups, num_partitions)
    table = ", ".join("true" if s else "false" for s in sources)
    groups = _dense_groups(reduction_groups(replica_groups, num_partitions))
    channel = "#stablehlo.channel_handle<handle = 1, type = 1>"
    p, n, t = f"%{prefix}", num_partitions, tensor_type
    lines = [
        f'{p}_pid = "stablehlo.partition_id"() {{mhlo.sharding = "{{manual}}"}} '
        ": () -> tensor<ui32>",
        f'{p}_index = "stablehlo.convert"({p}_pid) : (tensor<ui32>) -> tensor<i32>',
        f'{p}_sources = "stablehlo.constant"() <{{value = dense<[{table}]> : tensor<{n}xi1>}}> '
        f": () -> tensor<{n}xi1>",
        f'{p}_slot = "stablehlo.dynamic_slice"({p}_sources, {p}_index) '
        f"<{{slice_sizes = array<i64: 1>}}> : (tensor<{n}xi1>, tensor<i32>) -> tensor<1xi1>",
        f'{p}_is_source = "stablehlo.reshape"({p}_slot) : (tensor<1xi1>) -> tensor<i1>',
        f'{p}_zeros = "stablehlo.constant"() <{{value = dense<{zero}> : {t}}}> : () -> {t}',
        f'{p}_masked = "stablehlo.select"({p}_is_source, {operand}, {p}_zeros) '
        f": (tensor<i1>, {t}, {t}) -> {t}",
        f'{p} = "stablehlo.all_reduce"({p}_masked) <{{channel_handle = {channel}, '
        f"replica_groups = {groups}, use_global_device_ids}}> ({{",
        f"^bb0({p}_lhs: {scalar}, {p}_rhs: {scalar}):",
        f'  {p}_sum = "{combine}"({p}_lhs, {p}_rhs) : ({scalar}, {scalar}) -> {scalar}',
        f'  "stablehlo.return"({p}_sum) : ({scalar}) -> ()',
        f"}}) : ({t}) -> {t}",
    ]
    return lines, p
