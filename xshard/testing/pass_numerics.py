"""Does a pass over per-device IR preserve what each device computes?

A per-device module (after `shard-partition`, before export) is run as it is and
after the pass under test, both lowered by `convert-shard-to-stablehlo{target=cpu}`
and run on the grid's devices with the same seeded per-device inputs (different on
every device, so a rewrite that is only right for replicated values shows up).
Every device's every result must agree. An exported module (StableHLO, no grids), for
a pass after export, runs as it is: the lowering leaves a module without grids alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser, verify_located
from xshard.sharding.arrays import random_inputs
from xshard.transforms.export.convert_shard_to_stablehlo import ConvertShardToStablehloPass
from xshard.transforms.export.entry import entry_function


@dataclass(frozen=True)
class Comparison:
    before: list[list[np.ndarray]]
    """`before[j][k]`: result j on device k, without the pass."""
    after: list[list[np.ndarray]]
    max_abs_error: float

    @property
    def match(self) -> bool:
        return self.max_abs_error <= 1e-4


def parse(text: str, name: str = "<test>") -> ModuleOp:
    module = LocatingParser(xshard_context(), text, name).parse_module()
    verify_located(module)
    return module


def run_per_device(module: ModuleOp, devices: int, inputs: Sequence[Sequence[np.ndarray]]):
    """Lower a shard-level per-device module for CPU and run it: `outs[j][k]`."""
    import xshard.jax as jax_bridge

    lowered = module.clone()
    ConvertShardToStablehloPass(target="cpu").apply(xshard_context(), lowered)
    return jax_bridge.run_spmd(lowered, inputs, devices)


def compare_pass(
    text: str, passes: Sequence[ModulePass], devices: int, seed: int = 0
) -> Comparison:
    """Run `text`'s entry function on `devices` devices before and after `passes`."""
    before = parse(text)
    after = before.clone()
    ctx = xshard_context()
    for p in passes:
        p.apply(ctx, after)
    verify_located(after)
    rng = np.random.default_rng(seed)
    fn = entry_function(before)
    per_device = [random_inputs(fn, rng) for _ in range(devices)]
    inputs = [[per_device[d][i] for d in range(devices)] for i in range(len(per_device[0]))]
    outs_before = run_per_device(before, devices, inputs)
    outs_after = run_per_device(after, devices, inputs)
    error = 0.0
    for b, a in zip(outs_before, outs_after, strict=True):
        for bd, ad in zip(b, a, strict=True):
            if bd.shape != ad.shape:
                return Comparison(outs_before, outs_after, float("inf"))
            diff = np.abs(bd.astype(np.float64) - ad.astype(np.float64))
            error = max(error, float(diff.max(initial=0.0)))
    return Comparison(outs_before, outs_after, error)
