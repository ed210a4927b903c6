"""`shard-decompose-all-gather`: each `// numerics` case of its lit test computes the
same on every device before and after either strategy; the column-parallel linear
layer, partitioned with `overlap=broadcast|ring`, matches one device on a 1-D grid
of 8 and on one axis of a 2x4 grid with no all_gather left; a gather with another
user stays; `overlap=auto` picks differently at two sizes and says why."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from xshard.cli.run import main
from xshard.context import xshard_context
from xshard.dialects.shard import AllGatherOp, BroadcastOp, ShiftOp, index_list_attr
from xshard.jax.run import run_module
from xshard.sharding.arrays import random_inputs
from xshard.testing.column_parallel import column_parallel_linear
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass, parse, run_per_device
from xshard.transforms.export.entry import entry_function
from xshard.transforms.partition.shard_partition import ShardPartitionPass
from xshard.transforms.propagation.sharding_propagation import ShardingPropagationPass
from xshard.transforms.simplify.decompose_all_gather import DecomposeAllGatherPass

LIT = (
    Path(__file__).parent
    / "filecheck/transforms/shard-decompose-all-gather/decompose-all-gather.mlir"
)
CASES = numerics_cases(LIT)
STRATEGIES = ("broadcast", "ring")


def ops(module, op_type) -> list:
    return [op for op in module.walk() if isinstance(op, op_type)]


def test_cases_found():
    assert len(CASES) == 8


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pass_keeps_results(case, strategy):
    assert compare_pass(case.text, [DecomposeAllGatherPass(strategy)], devices=case.devices).match


def test_wrong_root_is_caught():
    """The check can fail: step 1 broadcasting device 2's shard puts wrong rows 2..3."""
    case = CASES[0]
    before, after = parse(case.text), parse(case.text)
    DecomposeAllGatherPass("broadcast").apply(xshard_context(), after)
    ops(after, BroadcastOp)[1].properties["root"] = index_list_attr([2])
    rng = np.random.default_rng(0)
    per_device = [random_inputs(entry_function(before), rng) for _ in range(case.devices)]
    inputs = [[per_device[d][i] for d in range(case.devices)] for i in range(2)]
    (b,) = run_per_device(before, case.devices, inputs)
    (a,) = run_per_device(after, case.devices, inputs)
    assert max(float(np.abs(x - y).max()) for x, y in zip(b, a, strict=True)) > 0.1


# (grid, the collectives each device runs: on CPU a broadcast is a masked all_reduce)
GRIDS = [
    ((8,), {"broadcast": ("all_reduce", 8), "ring": ("collective_permute", 7)}),
    ((2, 4), {"broadcast": ("all_reduce", 4), "ring": ("collective_permute", 3)}),
]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(("grid", "expected"), GRIDS, ids=["8", "2x4"])
def test_column_parallel_linear_matches_one_device(grid, expected, strategy):
    module = parse(column_parallel_linear(64, 32, grid))
    report = run_module(module, 8, overlap=strategy)
    assert report.match, report.max_abs_error
    op, count = expected[strategy]
    assert [(c.op, c.count) for c in report.collectives] == [(op, count)]
    assert report.count("all_gather") == 0


def test_plain_pipeline_keeps_the_all_gather():
    report = run_module(parse(column_parallel_linear(64, 32)), 8)
    assert report.match
    assert [(c.op, c.count) for c in report.collectives] == [("all_gather", 1)]


OTHER_USER = """
shard.grid @g(shape = 8)
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> (tensor<16x5xf32>, tensor<16x3xf32>) {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<16x3xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<16x3xf32>, tensor<3x5xf32>) -> tensor<16x5xf32>
  %2 = stablehlo.tanh %0 : tensor<16x3xf32>
  func.return %1, %2 : tensor<16x5xf32>, tensor<16x3xf32>
}
"""


@pytest.mark.parametrize("strategy", [*STRATEGIES, "auto"])
def test_gather_with_another_user_stays(strategy):
    module = parse(OTHER_USER)
    DecomposeAllGatherPass(strategy).apply(xshard_context(), module)
    assert len(ops(module, AllGatherOp)) == 1
    assert not ops(module, BroadcastOp) and not ops(module, ShiftOp)


# (sequence, hidden, auto's choice on target=cpu): gathering 1 KiB shards takes less
# than the 7 extra matmul launches of a decomposed form; gathering 64 KiB shards takes
# more, and the ring hides all but one step of it behind the matmuls.
AUTO = [(64, 32, "none"), (512, 256, "ring")]


@pytest.mark.parametrize(("seq", "hidden", "choice"), AUTO)
def test_auto_chooses_and_says_why(tmp_path, seq, hidden, choice):
    module = parse(column_parallel_linear(seq, hidden))
    report_file = tmp_path / "choice.txt"
    ctx = xshard_context()
    ShardingPropagationPass().apply(ctx, module)
    ShardPartitionPass().apply(ctx, module)
    DecomposeAllGatherPass("auto", report=True, file=str(report_file)).apply(ctx, module)
    header, columns, row = report_file.read_text().splitlines()
    assert "modeled times" in header
    assert columns.split()[1:] == [
        "all_gather",
        "input",
        "steps",
        "none",
        "µs",
        "broadcast",
        "µs",
        "ring",
        "µs",
        "choice",
    ]
    cells = row.split()
    none, broadcast, ring = (float(cells[i]) for i in (-4, -3, -2))
    assert cells[-1] == choice
    assert min(none, broadcast, ring) == {"none": none, "ring": ring}[choice]
    assert len(ops(module, AllGatherOp)) == (choice == "none")
    assert len(ops(module, ShiftOp)) == (7 if choice == "ring" else 0)


@pytest.mark.parametrize(("seq", "hidden", "choice"), AUTO)
def test_auto_in_the_pipeline_matches_one_device(seq, hidden, choice):
    report = run_module(parse(column_parallel_linear(seq, hidden)), 8, overlap="auto")
    assert report.match
    op = "all_gather" if choice == "none" else "collective_permute"
    assert [c.op for c in report.collectives] == [op]


@pytest.mark.parametrize(
    ("overlap", "op"), [("none", "all_gather"), ("ring", "collective_permute")]
)
def test_xshard_run_overlap_flag(tmp_path, capsys, overlap, op):
    program = tmp_path / "column_parallel.mlir"
    program.write_text(column_parallel_linear(64, 32))
    with pytest.raises(SystemExit) as done:
        main([str(program), "--devices", "8", "--overlap", overlap, "--json"])
    assert done.value.code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["match"]
    assert [c["op"] for c in report["collectives"]] == [op]
