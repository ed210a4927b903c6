"""Modeled time of an all_gather feeding the matmul that consumes it, done whole or
decomposed into steps whose communication overlaps the previous step's matmul.

With `N` steps, `t_m` = one step's matmul (a chunk's flops / `flops` + `overhead`)
and `t_c` one step's communication of a chunk (`CostModel.collective_time`):

| form | modeled time |
|---|---|
| none | all_gather(chunk) + (full matmul's flops / `flops` + `overhead`) |
| broadcast | t_c + (N-1) max(t_m, t_c) + t_m |
| ring | (N-1) max(t_m, t_c) + t_m |

That is the first step's communication, then each step's matmul alongside the next
step's communication, then the last matmul; the ring's first step multiplies the
chunk the device already holds, so it waits for nothing. A broadcast is a
`collective_broadcast` on `target=gpu` and the masked all_reduce it lowers to on
`target=cpu` (`convert-shard-to-stablehlo`), and is costed as such. `overhead` is
what each launched matmul costs beyond its flops (a kernel launch, an XLA thunk):
decomposing pays it N times, which is why small matmuls stay whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from xshard.sharding.cost_model import CPU_SIMULATION, NVLINK, CostModel, Kind
from xshard.sharding.grid import Grid

Form = Literal["none", "broadcast", "ring"]


@dataclass(frozen=True)
class ComputeConfig:
    """What a device's matmuls run at: `flops` per second, `overhead` seconds each."""

    flops: float
    overhead: float


H100_COMPUTE = ComputeConfig(flops=50e12, overhead=5e-6)
"""An H100 on f32 matmuls: a round figure well below its TF32 tensor cores' ~495
TFLOP/s dense peak, for the mid-size matmuls a decomposed layer runs, and a few
microseconds a launch. Not measured: no GPU was at hand."""

CPU_SIMULATION_COMPUTE = ComputeConfig(flops=1.5e10, overhead=7e-5)
"""One of 8 simulated XLA:CPU devices sharing a 2-core machine, fitted to
tools/overlap_benchmark.py there: the 8 devices' 4096x1024 by 1024x512 matmuls
(34 GFLOP in all) took 0.25 to 0.32 s, and each of the 7 extra steps of the
decomposed 64x32 layer added about 70 µs."""


@dataclass(frozen=True)
class OverlapCosts:
    """Modeled seconds of each form; `ring` is None where a ring does not apply."""

    none: float
    broadcast: float
    ring: float | None

    def times(self) -> dict[Form, float]:
        times: dict[Form, float] = {"none": self.none, "broadcast": self.broadcast}
        if self.ring is not None:
            times["ring"] = self.ring
        return times

    def best(self) -> Form:
        """The fastest form; on a tie the simpler one (none, then broadcast)."""
        times = self.times()
        return min(times, key=lambda form: times[form])


@dataclass(frozen=True)
class OverlapModel:
    links: CostModel
    compute: ComputeConfig
    broadcast_kind: Kind
    """What a broadcast lowers to on the target."""

    @staticmethod
    def for_target(target: str) -> OverlapModel:
        if target == "gpu":
            return OverlapModel(CostModel(NVLINK), H100_COMPUTE, "collective_broadcast")
        return OverlapModel(CostModel(CPU_SIMULATION), CPU_SIMULATION_COMPUTE, "all_reduce")

    def costs(
        self,
        chunk_bytes: int,
        flops: float,
        steps: int,
        axes: Sequence[int],
        grid: Grid,
        ring: bool,
    ) -> OverlapCosts:
        """`chunk_bytes`: the gather's input on one device; `flops`: the whole matmul's;
        `ring`: whether a ring applies (a group along one grid axis)."""
        step_mm = flops / steps / self.compute.flops + self.compute.overhead
        whole = self.links.collective_time("all_gather", chunk_bytes, axes, grid)
        whole += flops / self.compute.flops + self.compute.overhead
        cast = self.links.collective_time(self.broadcast_kind, chunk_bytes, axes, grid)
        permute = self.links.collective_time("collective_permute", chunk_bytes, axes, grid)
        pipelined = (steps - 1) * max(step_mm, cast) + step_mm
        ring_time = (steps - 1) * max(step_mm, permute) + step_mm
        return OverlapCosts(whole, cast + pipelined, ring_time if ring else None)
