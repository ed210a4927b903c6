"""`xshard-run` and `xshard.jax.run.run_module`: global annotated programs run end to end on
simulated CPU devices, checked against one device, with the collectives each device
executes held to the analytic minimum written in each program's header comment.

Most cases call the library (or the CLI's `main`) in this process, which has jax
loaded with 8 devices already (conftest.py); one test runs the installed console
script, to prove it sets up XLA's devices by itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

import xshard.jax.run as run_lib
from xshard.cli.run import main
from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.dialects import stablehlo as hlo
from xshard.jax.run import run_module
from xshard.sharding.arrays import random_inputs
from xshard.transforms.analysis.collective_count import Collective, count_collectives
from xshard.transforms.export.entry import entry_function

ROOT = Path(__file__).parents[1]
E2E = ROOT / "tests" / "e2e"
MLP_1D = ROOT / "examples" / "mlp_1d.mlir"


def load(path: Path):
    return LocatingParser(xshard_context(), path.read_text(), str(path)).parse_module()


def replica_groups(report: run_lib.RunReport, op_class: type) -> list[list[int]]:
    (op,) = [op for op in report.stablehlo.walk() if isinstance(op, op_class)]
    groups = op.replica_groups
    assert isinstance(groups, DenseIntOrFPElementsAttr)
    rows, cols = groups.get_shape()
    values = list(groups.get_values())
    return [values[r * cols : (r + 1) * cols] for r in range(rows)]


# (program, devices, the analytic minimum: collectives as (op, count, bytes on one device))
E2E_CASES = [
    # relu(x W1) W2, W1 by columns, W2 by rows: the 16x64 f32 output is partial once.
    ("megatron_mlp_8.mlir", [("all_reduce", 1, 16 * 64 * 4)]),
    # The same on 2x4, batch on axis 0: each device's output block is 8x64.
    ("megatron_mlp_2x4.mlir", [("all_reduce", 1, 8 * 64 * 4)]),
    # Heads split: Q/K/V by heads, output projection by heads (rows): 16x64 f32.
    ("attention_heads_8.mlir", [("all_reduce", 1, 16 * 64 * 4)]),
    # SGD step, batch split: the 32-element f32 weight gradient is partial once.
    ("dp_linear_step_8.mlir", [("all_reduce", 1, 32 * 4)]),
]


@pytest.mark.parametrize(("name", "minimum"), E2E_CASES, ids=[c[0] for c in E2E_CASES])
def test_end_to_end_at_the_analytic_minimum(name: str, minimum: list[tuple]) -> None:
    report = run_module(load(E2E / name), 8, seed=3)
    assert report.match, f"max abs error {report.max_abs_error}"
    assert report.max_abs_error < 1e-2
    assert report.collectives == [Collective(*c) for c in minimum]
    if name == "megatron_mlp_2x4.mlir":  # over axis 1: devices that share their axis-0 row
        assert replica_groups(report, hlo.AllReduceOp) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_rfc_walkthrough_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """The RFC's MLP on 2 devices: gather the split input once, and settle the partial
    output straight into the split layout its users want (a reduce_scatter)."""
    with pytest.raises(SystemExit) as done:
        main([str(MLP_1D), "--devices", "2", "--json"])
    assert done.value.code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["match"] is True
    assert report["devices"] == 2
    # all_gather operand: the 2x4x4 f32 input block; reduce_scatter: the 2x4x8 f32 partial.
    assert report["collectives"] == [
        {"op": "all_gather", "count": 1, "bytes": 2 * 4 * 4 * 4},
        {"op": "reduce_scatter", "count": 1, "bytes": 2 * 4 * 8 * 4},
    ]
    assert report["total_collective_bytes"] == 384
    assert 0 <= report["max_abs_error"] < 1e-3


def test_table_and_emitted_stablehlo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mlp.stablehlo.mlir"
    with pytest.raises(SystemExit) as done:
        main([str(MLP_1D), "--devices", "2", "--emit-stablehlo", str(out)])
    assert done.value.code == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("devices: 2   match: yes")
    assert table[2].split() == ["all_gather", "1", "128"]
    assert table[3].split() == ["reduce_scatter", "1", "256"]
    assert table[4].split() == ["total", "2", "384"]
    text = out.read_text()
    assert "mhlo.num_partitions = 2" in text and '"stablehlo.reduce_scatter"' in text
    assert "shard." not in text


def test_a_wrong_result_is_a_mismatch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hand every device the block of its neighbour: the check must catch it (exit 1)."""
    real = run_lib.distribute

    def shifted(value, sharding, grid, rng=None):
        blocks = real(value, sharding, grid, rng)
        devices = grid.devices()
        return {d: blocks[devices[(i + 1) % len(devices)]] for i, d in enumerate(devices)}

    monkeypatch.setattr(run_lib, "distribute", shifted)
    with pytest.raises(SystemExit) as done:
        main([str(E2E / "megatron_mlp_2x4.mlir"), "--devices", "8", "--json"])
    assert done.value.code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["match"] is False and report["max_abs_error"] > 1.0


def test_replicas_that_disagree_are_a_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The output is replicated: one device returning something else must be caught,
    although assembling from the other devices alone would give the right value."""
    real = run_lib.bridge.run_spmd

    def one_device_off(*args, **kwargs):
        outs = real(*args, **kwargs)
        outs[0][5] = outs[0][5] + 1.0
        return outs

    monkeypatch.setattr(run_lib.bridge, "run_spmd", one_device_off)
    report = run_module(load(E2E / "dp_linear_step_8.mlir"), 8)
    assert not report.match and report.max_abs_error == float("inf")


def test_global_arguments_slice_locally() -> None:
    """With arguments=global every device gets the whole weights and slices its block:
    the same single all_reduce, no collective for the slicing."""
    report = run_module(load(E2E / "megatron_mlp_8.mlir"), 8, arguments="global")
    assert report.match
    assert report.collectives == [Collective("all_reduce", 1, 16 * 64 * 4)]
    assert any(isinstance(op, hlo.DynamicSliceOp) for op in report.stablehlo.walk())


def test_inputs_are_seeded() -> None:
    fn = entry_function(load(E2E / "dp_linear_step_8.mlir"))
    first, again, other = (
        random_inputs(fn, np.random.default_rng(seed)) for seed in (1, 1, 2)
    )
    assert [a.shape for a in first] == [(64, 32), (64,), (32,)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])


def test_random_inputs_by_element_type() -> None:
    module = LocatingParser(
        xshard_context(),
        "func.func @main(%a: tensor<64xi1>, %b: tensor<64xi32>, %c: tensor<64xui8>, "
        "%d: tensor<64xbf16>) {\n  func.return\n}\n",
        "<test>",
    ).parse_module()
    flags, ints, unsigned, halves = random_inputs(
        entry_function(module), np.random.default_rng(0)
    )
    assert flags.dtype == np.bool_ and flags.any() and not flags.all()
    assert ints.dtype == np.int32 and ints.min() >= -4 and ints.max() <= 4 and ints.min() < 0
    assert unsigned.dtype == np.uint8 and unsigned.max() <= 8
    assert halves.dtype.name == "bfloat16"


CALLS = """
func.func @main(%x: tensor<4xf32>) -> tensor<16xf32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64,
         replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
  %1 = func.call @twice(%0) : (tensor<8xf32>) -> tensor<16xf32>
  %2 = func.call @twice(%0) : (tensor<8xf32>) -> tensor<16xf32>
  func.return %2 : tensor<16xf32>
}
func.func @twice(%y: tensor<8xf32>) -> tensor<16xf32> {
  %0 = "stablehlo.all_gather"(%y) <{all_gather_dim = 0 : i64,
         replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8xf32>) -> tensor<16xf32>
  func.return %0 : tensor<16xf32>
}
"""


def test_collectives_in_callees_count_per_call() -> None:
    module = LocatingParser(xshard_context(), CALLS, "<test>").parse_module()
    # main's own gather (16 bytes) and, twice, the callee's (32 bytes each)
    assert count_collectives(module) == [Collective("all_gather", 3, 16 + 2 * 32)]


BAD_INPUTS = {
    "syntax": (
        "shard.grid @g(shape = 2)\n"
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %b = stablehlo.add %a %a : tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n"
        "}\n",
        ":3:22: error: 'stablehlo.add' expects 2 operands",
    ),
    "no-grid": (
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %b = stablehlo.add %a, %a : tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n"
        "}\n",
        ":1:1: error: the module declares no shard.grid",
    ),
    "no-model": (
        "shard.grid @g(shape = 2)\n"
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
        "  %a1 = shard.shard %a to %s : tensor<4xf32>\n"
        "  %b = stablehlo.custom_call @foo(%a1) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n"
        "}\n",
        ":5:3: error: 'stablehlo.custom_call' cannot be sharded: @foo is opaque to xshard",
    ),
    "host-callback": (
        "shard.grid @g(shape = 2)\n"
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
        "  %a1 = shard.shard %a to %s : tensor<4xf32>\n"
        "  %b = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a1) "
        "{mhlo.backend_config = {index = 0 : ui64}} : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n"
        "}\n",
        ":5:3: error: a host callback calls a Python function of the process that lowered",
    ),
    "no-results": (
        "shard.grid @g(shape = 2)\n"
        "func.func @main(%a: tensor<4xf32>) {\n"
        "  func.return\n"
        "}\n",
        ":2:1: error: the function returns nothing, so there is nothing to compare",
    ),
    "shard-map": (
        'sdy.mesh @mesh = <["x"=2]>\n'
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        '  %b = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] '
        'out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {\n'
        "    sdy.return %l : tensor<2xf32>\n"
        "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n"
        "}\n",
        ":3:3: error: 'sdy.manual_computation' (a shard_map body) is per-device code, so the "
        "program has no one-device reference to compare with",
    ),
    "empty-results": (
        "shard.grid @g(shape = 2)\n"
        "func.func @main(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {\n"
        "  func.return %a : tensor<0x4xf32>\n"
        "}\n",
        ":2:1: error: every result of the function is empty, so there is nothing to compare",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_located_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = BAD_INPUTS[case]
    path = tmp_path / f"{case}.mlir"
    path.write_text(text)
    with pytest.raises(SystemExit) as done:
        main([str(path), "--devices", "2", "--json"])
    assert done.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [captured.err.strip()]
    assert captured.err.startswith(f"{path}{expected}")


def test_wrong_device_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([str(MLP_1D), "--devices", "4"])
    assert done.value.code == 1
    assert capsys.readouterr().err == (
        f"{MLP_1D}:4:1: error: grid @grid0 has 2 devices but the run asks for 4\n"
    )


def test_console_script_sets_up_its_devices(tmp_path: Path) -> None:
    """A fresh process without XLA_FLAGS: the CLI must ask XLA for the 8 CPU devices
    itself, before jax loads. Also: a bad file is one line and exit 1 there too."""
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_PLATFORMS")}
    script = [sys.executable, "-c", "from xshard.cli.run import main; main()"]
    ok = subprocess.run(
        [*script, str(E2E / "megatron_mlp_8.mlir"), "--devices", "8", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["collectives"] == [{"op": "all_reduce", "count": 1, "bytes": 4096}]
    missing = subprocess.run(
        [*script, str(tmp_path / "absent.mlir"), "--devices", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 1
    assert missing.stderr.startswith("xshard-run: error: cannot open input file")
    assert "Traceback" not in missing.stderr


WIDENED_SUM = """
shard.grid @g(shape = 8)
func.func @main(%x: tensor<4x64xf32>, %w: tensor<64x4xf32>) -> tensor<4x4xf64> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<4x64xf32>
  %0 = stablehlo.dot_general %x1, %w, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x4xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.convert %0 : (tensor<4x4xf32>) -> tensor<4x4xf64>
  func.return %1 : tensor<4x4xf64>
}
"""


def test_f64_result_of_f32_arithmetic_gets_f32_tolerance() -> None:
    """The split sum rounds differently in f32; widening the result adds no precision."""
    module = LocatingParser(xshard_context(), WIDENED_SUM, "widened").parse_module()
    report = run_module(module, 8)
    assert report.match
    assert 0.0 < report.max_abs_error < 1e-4
