"""The communication cost model: modeled time of collectives and reshards, per-device memory.

A collective over a group of `n` devices whose operand is `B` bytes on each device
costs, with latency `α` per step and `β` seconds per byte (`1 / bandwidth`):

| collective | ring | tree (recursive doubling / halving) |
|---|---|---|
| all_gather (B: input block) | (n-1) α + (n-1) B β | ⌈log2 n⌉ α + (n-1) B β |
| reduce_scatter, all_to_all (B: input) | (n-1) α + (n-1)/n B β | ⌈log2 n⌉ α + (n-1)/n B β |
| all_reduce | 2 (n-1) α + 2 (n-1)/n B β | 2 ⌈log2 n⌉ α + 2 (n-1)/n B β |
| collective_permute, broadcast | α + B β | α + B β |
| update_halo (H: halo bytes fetched) | 2 α per split dim + H β | the same |

all_to_all is pairwise on both (`(n-1)` steps). A group spanning several grid axes
runs at the slowest of their links. The byte terms are `collective_bytes`, the bytes
each device sends, which `xshard.sharding.resharding.step_cost` also uses to plan.

Links are a `LinkConfig` per grid axis (a default plus overrides): `NVLINK` for
GPUs on one NVLink switch, `CPU_SIMULATION` for XLA's simulated CPU devices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil, log2
from typing import Literal

from xshard.sharding.grid import Grid
from xshard.sharding.resharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    MakePartial,
    ReduceScatter,
    Step,
    UpdateHalo,
    nominal_bytes,
    nominal_group,
    plan_reshard,
    step_cost,
)
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding

__all__ = [
    "CPU_SIMULATION",
    "NVLINK",
    "CostModel",
    "LinkConfig",
    "collective_bytes",
    "shard_bytes",
]

Kind = Literal[
    "all_gather",
    "reduce_scatter",
    "all_to_all",
    "all_reduce",
    "collective_permute",
    "collective_broadcast",
]


@dataclass(frozen=True)
class LinkConfig:
    """The links along one grid axis: α (`latency`, seconds per step), `bandwidth`
    (bytes per second each device sends), and the algorithm collectives use."""

    latency: float
    bandwidth: float
    algorithm: Literal["ring", "tree"] = "ring"

    def __post_init__(self) -> None:
        if self.latency < 0 or self.bandwidth <= 0:
            raise ValueError(f"a link needs latency >= 0 and bandwidth > 0, got {self}")


NVLINK = LinkConfig(latency=5e-6, bandwidth=200e9)
"""GPUs on one NVLink switch (H100 class): round figures of what NCCL reaches, a few
microseconds a step and 200 GB/s per device, below NVLink 4's 450 GB/s a direction."""

CPU_SIMULATION = LinkConfig(latency=2e-5, bandwidth=1e9)
"""XLA's simulated CPU devices on a 2-core machine: a rough fit to all_gather on 8
of them (1 MiB a device took 6.7 ms), so that modeled costs rank plans as runs do."""


def _steps(n: int, kind: Kind, algorithm: str) -> int:
    if n <= 1:
        return 0
    if kind in ("collective_permute", "collective_broadcast"):
        return 1
    rounds = n - 1 if algorithm == "ring" or kind == "all_to_all" else ceil(log2(n))
    return 2 * rounds if kind == "all_reduce" else rounds


def _slowest(links: Sequence[LinkConfig]) -> tuple[float, float]:
    """The latency and bandwidth a group over these links runs at: its slowest."""
    return max(link.latency for link in links), min(link.bandwidth for link in links)


def _time(kind: Kind, operand_bytes: float, n: int, links: Sequence[LinkConfig]) -> float:
    """Steps times the slowest link's latency, plus the bytes each device sends over its
    bandwidth."""
    latency, bandwidth = _slowest(links)
    algorithm = "tree" if all(link.algorithm == "tree" for link in links) else "ring"
    steps = _steps(n, kind, algorithm)
    return steps * latency + collective_bytes(kind, operand_bytes, n) / bandwidth


def collective_bytes(kind: Kind, operand_bytes: float, n: int) -> float:
    """Bytes each device sends for a collective of `operand_bytes` over `n` devices."""
    if n <= 1:
        return 0.0
    if kind == "all_gather":
        return operand_bytes * (n - 1)
    if kind == "all_reduce":
        return 2 * operand_bytes * (n - 1) / n
    if kind in ("reduce_scatter", "all_to_all"):
        return operand_bytes * (n - 1) / n
    return float(operand_bytes)


def shard_bytes(
    global_shape: Sequence[int | None], elem_bytes: int, sharding: Sharding | None, grid: Grid
) -> int:
    """Bytes one device holds of a tensor laid out as `sharding` (None: replicated),
    halos included; a dynamic extent counts as NOMINAL_DYNAMIC_EXTENT elements."""
    shape = tuple(global_shape) if sharding is None else shard_shape(global_shape, sharding, grid)
    return nominal_bytes(shape, elem_bytes)


@dataclass(frozen=True)
class CostModel:
    """Modeled seconds of collectives and reshards on a grid; `axes[i]`, when given
    and not None, is grid axis i's link, else `default`."""

    default: LinkConfig = NVLINK
    axes: tuple[LinkConfig | None, ...] = ()

    def link(self, axis: int) -> LinkConfig:
        given = self.axes[axis] if axis < len(self.axes) else None
        return given or self.default

    def collective_time(
        self, kind: Kind, operand_bytes: float, axes: Sequence[int], grid: Grid
    ) -> float:
        """Seconds for a collective over the groups `axes` span, `operand_bytes` on
        each device (the input block; all_gather's too)."""
        n = nominal_group(tuple(axes), grid)
        if n <= 1:
            return 0.0
        return _time(kind, operand_bytes, n, [self.link(a) for a in axes])

    def collective_latency(self, kind: Kind, axes: Sequence[int], grid: Grid) -> float:
        """The part of `collective_time` that does not grow with the bytes: the steps'
        latency, which collectives combined into one pay once."""
        return self.collective_time(kind, 0, axes, grid)

    def group_time(self, kind: Kind, operand_bytes: float, n: int) -> float:
        """Seconds for a collective over a group of `n` devices on the default link: the
        price of a collective read from a compiled program, whose grid axes are gone."""
        return _time(kind, operand_bytes, n, [self.default]) if n > 1 else 0.0

    def step_time(
        self, step: Step, local_shape: Sequence[int | None], elem_bytes: int, grid: Grid
    ) -> float:
        """Seconds for one resharding step applied to a `local_shape` block."""
        if isinstance(step, AllSlice | MakePartial):
            return 0.0
        if isinstance(step, UpdateHalo):  # one exchange with each neighbour per split dim
            moved = float(step_cost(step, tuple(local_shape), elem_bytes, grid))
            if not moved:
                return 0.0
            latency, bandwidth = _slowest([self.link(a) for axes in step.split_axes for a in axes])
            return 2 * len(step.split_dims) * latency + moved / bandwidth
        size = nominal_bytes(local_shape, elem_bytes)
        kinds: dict[type, Kind] = {
            AllGather: "all_gather",
            AllReduce: "all_reduce",
            ReduceScatter: "reduce_scatter",
            AllToAll: "all_to_all",
        }
        return self.collective_time(kinds[type(step)], size, step.axes, grid)

    def reshard_time(
        self,
        src: Sharding,
        dst: Sharding,
        global_shape: Sequence[int | None],
        grid: Grid,
        elem_bytes: int = 4,
    ) -> float:
        """Seconds for the planner's reshard from `src` to `dst` (the plan with fewest
        bytes; `ReshardError` where none exists)."""
        plan = plan_reshard(src, dst, global_shape, grid, elem_bytes)
        return sum(
            self.step_time(step, shape, elem_bytes, grid)
            for step, shape in zip(plan.steps, plan.local_shapes, strict=False)
        )
