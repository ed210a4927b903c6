"""detect-collective-broadcast keeps what every device computes.

Shard level: each `// numerics` chunk of the lit file runs on 8 devices before
and after the pass. StableHLO level (target=gpu): XLA:CPU cannot run
`collective_broadcast`, so the rewritten module runs with each broadcast
lowered by `convert-broadcast-to-all-reduce` (its CPU stand-in), and must equal the
original masked all_reduce on every device.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr

from xshard.context import xshard_context
from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.testing.lit_cases import NumericsCase, numerics_cases
from xshard.testing.pass_numerics import compare_pass, parse
from xshard.transforms.export.convert_broadcast_to_all_reduce import (
    ConvertBroadcastToAllReducePass,
)
from xshard.transforms.simplify.detect_collective_broadcast import DetectCollectiveBroadcastPass

LIT = Path(__file__).parent / "filecheck/transforms/detect-collective-broadcast"


def _chunks(name: str) -> list[str]:
    return (LIT / name).read_text().split("// -----")


def _name(chunk: str) -> str:
    return re.search(r"func.func (?:public )?@(\w+)", chunk)[1]


SHARD_NUMERICS = numerics_cases(LIT / "shard.mlir")


def test_every_shard_level_positive_chunk_runs():
    assert len(SHARD_NUMERICS) == 7


@pytest.mark.parametrize("case", SHARD_NUMERICS, ids=lambda c: c.id)
def test_shard_level_numerics(case: NumericsCase):
    after = parse(case.text)
    DetectCollectiveBroadcastPass().apply(xshard_context(), after)
    assert any(isinstance(op, shard.BroadcastOp) for op in after.walk())
    assert compare_pass(case.text, [DetectCollectiveBroadcastPass()], case.devices).match


_MANUAL = DictionaryAttr({"mhlo.sharding": StringAttr("{manual}")})


def _runnable(module) -> None:
    """Name the function `main` and mark its arguments and results `{manual}`."""
    (fn,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    fn.sym_name = StringAttr("main")
    fn.arg_attrs = ArrayAttr([_MANUAL] * len(fn.function_type.inputs))
    fn.res_attrs = ArrayAttr([_MANUAL] * len(fn.function_type.outputs))


HLO_POSITIVE = [c for c in _chunks("stablehlo.mlir") if 'collective_broadcast"(' in c]


@pytest.mark.parametrize("chunk", HLO_POSITIVE, ids=_name)
def test_stablehlo_level_equals_original_on_cpu(chunk: str):
    from xshard.jax import module_text, run_spmd

    before = parse(chunk)
    _runnable(before)
    after = before.clone()
    DetectCollectiveBroadcastPass(target="gpu").apply(xshard_context(), after)
    assert not any(isinstance(op, hlo.AllReduceOp) for op in after.walk())
    rng = np.random.default_rng(0)
    (fn,) = [op for op in before.walk() if isinstance(op, func.FuncOp)]
    shape = fn.args[0].type.get_shape()
    per_device = [rng.standard_normal(shape).astype(np.float32) for _ in range(8)]
    (want,) = run_spmd(module_text(before), [per_device], 8)
    ConvertBroadcastToAllReducePass().apply(xshard_context(), after)
    (got,) = run_spmd(after, [per_device], 8)
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(w, g)
