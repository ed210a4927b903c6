"""Partitioning is right on every valid program: random sharded programs, and every
program a random search has failed on, run on N simulated devices and match one device.

The property: for a program drawn by `xshard.testing.random_programs.programs` (a DAG
of StableHLO ops with random split and partial annotations on arguments,
intermediates and results, on a 1-D or 2-D grid), `run_module` under either argument
mode, either propagation strategy and any traversal, or without propagation,
partitions it (no refusal, no crash) and its results equal the one-device program's. The default run draws 100
programs, reproducibly; `pytest tests/test_partition_property.py
--hypothesis-profile=long` draws 1000 fresh ones (docs/testing.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax.run import run_module
from xshard.testing.random_programs import programs

FILECHECK = Path(__file__).parent / "filecheck"

modes = st.sampled_from(["partitioned", "global"])
traversals = st.sampled_from(["backward-forward", "forward", "backward", "forward-backward"])
strategies = st.sampled_from(["aggressive", "upstream"])


def run(text: str, devices: int, **options):
    module = LocatingParser(xshard_context(), text, "<program>").parse_module()
    return run_module(module, devices, **options)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(), modes, traversals, strategies, st.booleans())
def test_random_programs_match_one_device(program, mode, traversal, strategy, propagate):
    event(f"grid {'x'.join(map(str, program.grid))}")
    event(f"partial axes: {program.has_partial}")
    report = run(
        program.text,
        program.devices,
        arguments=mode,
        traversal=traversal,
        strategy=strategy,
        propagate=propagate,
    )
    assert report.match, f"max |error| {report.max_abs_error}\n{program.text}"


def test_generator_covers_partial_axes():
    """At least 30% of the drawn programs carry partial axes somewhere."""
    seen: list[bool] = []

    @settings(max_examples=300, derandomize=True, database=None, deadline=None)
    @given(programs())
    def draw(program):
        seen.append(program.has_partial)

    draw()
    assert sum(seen) / len(seen) >= 0.3


# Programs xshard once got wrong: the two patterns, then what the random
# search found (shortened), then one written to pin the max/sum distinction.
REGRESSIONS = {
    # A partial argument multiplied by itself: reduced once, then squared.
    "square_of_partial": """
shard.grid @g(shape = 4)
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %p = shard.sharding @g split_axes = [[]] partial = sum [0] : !shard.sharding
  %xs = shard.shard %x to %p : tensor<8x8xf32>
  %y = stablehlo.multiply %xs, %xs : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}""",
    # A replicated value annotated partial for its users, one of them non-linear.
    "replicated_made_partial": """
shard.grid @g(shape = 2x2)
func.func @main(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %p = shard.sharding @g split_axes = [[]] partial = sum [0, 1] : !shard.sharding
  %y = shard.shard %x to %p annotate_for_users : tensor<8x8xf32>
  %a = stablehlo.add %y, %y : tensor<8x8xf32>
  %e = stablehlo.exponential %y : tensor<8x8xf32>
  return %a, %e : tensor<8x8xf32>, tensor<8x8xf32>
}""",
    # Found: a split reduction whose init is not its identity folds the init in once.
    "reduce_init_not_identity": """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<8x8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<8x8xf32>
  %c = stablehlo.constant dense<1.5> : tensor<f32>
  %r = stablehlo.reduce(%xs init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}""",
    # Found: propagating the 8-way split of an 8-vector through a reshape to 2x4 would split
    # a dim of 2 eight ways: propagation must not write it.
    "reshape_split_does_not_divide": """
shard.grid @g(shape = 8)
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %v = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %vs = shard.shard %v to %s annotate_for_users : tensor<8xf32>
  %r = stablehlo.reshape %vs : (tensor<8xf32>) -> tensor<2x4xf32>
  %p = shard.sharding @g split_axes = [[], []] partial = sum [0] : !shard.sharding
  %rs = shard.shard %r to %p : tensor<2x4xf32>
  return %rs : tensor<2x4xf32>
}""",
    # Found (a crash): an argument whose only annotation is for its users arrives whole.
    "argument_annotated_for_users_only": """
shard.grid @g(shape = 4)
func.func @main(%a: tensor<8xf32>, %w: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  %s = shard.sharding @g split_axes = [[], [0], []] : !shard.sharding
  %ws = shard.shard %w to %s annotate_for_users : tensor<8x8x8xf32>
  %r = stablehlo.dot_general %a, %ws, batching_dims = [0] x [1], contracting_dims = [] x [] : (tensor<8xf32>, tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  return %r : tensor<8x8x8xf32>
}""",
    # Written: a max-partial operand of a sum-linear op is settled with max first.
    "max_partial_into_multiply": """
shard.grid @g(shape = 2x2)
func.func @main(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %p = shard.sharding @g split_axes = [[0]] partial = max [1] : !shard.sharding
  %xs = shard.shard %x to %p : tensor<4x4xf32>
  %m = stablehlo.multiply %xs, %y : tensor<4x4xf32>
  %t = stablehlo.tanh %xs : tensor<4x4xf32>
  %r = stablehlo.add %m, %t : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}""",
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
@pytest.mark.parametrize("mode", ["partitioned", "global"])
@pytest.mark.parametrize("propagate", [True, False], ids=["propagated", "partition-only"])
def test_regression(name, mode, propagate):
    text = REGRESSIONS[name]
    grid = text.split("shape = ")[1].split(")")[0]
    devices = eval(grid.replace("x", "*"))  # noqa: S307 (a literal like 2x4)
    report = run(text, devices, arguments=mode, propagate=propagate)
    assert report.match, report.max_abs_error


def test_unannotated_lit_cases_run():
    """Every function of shard-partition's unannotated.mlir matches one device when
    partitioned alone, without propagation."""
    text = (FILECHECK / "transforms" / "shard-partition" / "unannotated.mlir").read_text()
    for chunk in text.split("// -----"):
        grid = chunk.split("shape = ")[1].split(")")[0]
        report = run(chunk, eval(grid.replace("x", "*")), propagate=False)  # noqa: S307
        assert report.match, chunk
