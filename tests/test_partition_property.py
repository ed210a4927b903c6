"""Partitioning is right on every valid program: random sharded programs, and every
program a random search has failed on, run on N simulated devices and match one device.

The property: for a program drawn by `xshard.testing.random_programs.programs` (a DAG
of StableHLO ops with random split and partial annotations on arguments,
intermediates and results, on a 1-D or 2-D grid; some with `while` loops and `case`
ops whose regions hold ops and annotations too), `run_module` under either argument
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
from xshard.testing.program_builder import Program
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
    for feature in sorted(program.features):
        event(feature)
    report = run(
        program.text,
        program.devices,
        arguments=mode,
        traversal=traversal,
        strategy=strategy,
        propagate=propagate,
        inputs=program.inputs(),
    )
    assert report.match, f"max |error| {report.max_abs_error}\n{program.text}"


def _drawn(n: int = 300) -> list[Program]:
    """The first `n` programs of the reproducible draw."""
    seen: list[Program] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None)
    @given(programs())
    def draw(program):
        seen.append(program)

    draw()
    return seen


def test_generator_covers_partial_axes():
    """At least 30% of the drawn programs carry partial axes somewhere."""
    seen = _drawn()
    assert sum(p.has_partial for p in seen) / len(seen) >= 0.3


def test_generator_covers_regions():
    """Loops and branches are a good share of the drawn programs, with what JAX lowers
    into them (scan's stacked operands, fori_loop's dynamic bound, accumulators, a case
    in a loop body) and annotations, partial ones included, inside their regions."""
    seen = _drawn()

    def share(feature: str) -> float:
        return sum(feature in p.features for p in seen) / len(seen)

    regions = sum(bool({"while", "case"} & p.features) for p in seen) / len(seen)
    assert regions >= 0.3
    assert share("while") >= 0.2 and share("case") >= 0.1
    assert share("dynamic bound") >= 0.05 and share("stacked operand") >= 0.1
    assert share("gradient accumulator") >= 0.03 and share("stacked output") >= 0.05
    assert share("nested region") >= 0.02
    assert share("annotation in region") >= 0.2
    assert share("partial annotation in region") >= 0.1
    for p in seen:  # every loop bound and branch index runs with a small value
        assert all(0 <= v <= 4 for v in p.integers.values())


# Programs xshard once got wrong: the two patterns, then what the random
# search found (shortened), then one written to pin the max/sum distinction, then what
# the search found in regions.
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
    # Found (a refusal): one value yielded for two case results of different layouts;
    # each branch must yield it resharded once per result.
    "case_yields_one_value_twice": """
shard.grid @g(shape = 4)
func.func @main(%x: tensor<4x2xf32>, %k: tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %s = shard.sharding @g split_axes = [[0], []] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<4x2xf32>
  %r:2 = "stablehlo.case"(%k) ({
    stablehlo.return %xs, %xs : tensor<4x2xf32>, tensor<4x2xf32>
  }, {
    %t = stablehlo.tanh %xs : tensor<4x2xf32>
    stablehlo.return %t, %t : tensor<4x2xf32>, tensor<4x2xf32>
  }) : (tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  %rep = shard.sharding @g split_axes = [[], []] : !shard.sharding
  %r1 = shard.shard %r#1 to %rep : tensor<4x2xf32>
  func.return %r#0, %r1 : tensor<4x2xf32>, tensor<4x2xf32>
}""",
    # Found (a refusal): the same for two loop carries of different layouts.
    "while_yields_one_value_twice": """
shard.grid @g(shape = 4)
func.func @main(%x: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %s = shard.sharding @g split_axes = [[0], []] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<4x2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:3 = stablehlo.while(%i = %c0, %a = %xs, %b = %x) : tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %t = stablehlo.tanh %a : tensor<4x2xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %t, %t : tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>
  }
  %rep = shard.sharding @g split_axes = [[], []] : !shard.sharding
  %r1 = shard.shard %w#2 to %rep : tensor<4x2xf32>
  func.return %w#1, %r1 : tensor<4x2xf32>, tensor<4x2xf32>
}""",
    # Found (a crash of the upstream strategy): an argument annotated inside a region.
    "argument_annotated_in_a_branch": """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<4xf32>, %y: tensor<8xf32>, %k: tensor<i32>) -> tensor<4xf32> {
  %r = "stablehlo.case"(%k) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
    %y1 = shard.shard %y to %s annotate_for_users : tensor<8xf32>
    %t = stablehlo.slice %y1 [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    stablehlo.return %t : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}""",
    # Found (a crash of the upstream strategy): one value annotated twice, its later
    # annotation must not become the operand of the earlier one.
    "two_result_annotations_of_one_value": """
shard.grid @g(shape = 4)
func.func @main(%x: tensor<8xf32>) -> (tensor<f32>, tensor<f32>) {
  %s = shard.sharding @g split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<8xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%xs init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %m = shard.sharding @g split_axes = [] partial = max [0] : !shard.sharding
  %r1 = shard.shard %r to %m : tensor<f32>
  %rep = shard.sharding @g split_axes = [] : !shard.sharding
  %r2 = shard.shard %r to %rep : tensor<f32>
  func.return %r1, %r2 : tensor<f32>, tensor<f32>
}""",
    # Found (a crash in shard-simplify): a loop state annotated for the body's users and
    # written, as it enters, into a stacked output carried partial.
    "loop_state_into_partial_stacked_output": """
shard.grid @g(shape = 2x2)
func.func @main(%x: tensor<2x4xf32>, %b: tensor<4x2x4xf32>) -> tensor<4x2x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:3 = stablehlo.while(%i = %c0, %h = %x, %buf = %b) : tensor<i32>, tensor<2x4xf32>, tensor<4x2x4xf32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
    %h1 = shard.shard %h to %s annotate_for_users : tensor<2x4xf32>
    %y = stablehlo.reshape %h : (tensor<2x4xf32>) -> tensor<1x2x4xf32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %buf, %y, %i, %z, %z : (tensor<4x2x4xf32>, tensor<1x2x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x4xf32>
    %p = shard.sharding @g split_axes = [[], [], []] partial = sum [0] : !shard.sharding
    %u1 = shard.shard %u to %p : tensor<4x2x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %h1, %u1 : tensor<i32>, tensor<2x4xf32>, tensor<4x2x4xf32>
  }
  func.return %w#2 : tensor<4x2x4xf32>
}""",
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
@pytest.mark.parametrize("mode", ["partitioned", "global"])
@pytest.mark.parametrize(
    ("propagate", "strategy"),
    [(True, "aggressive"), (True, "upstream"), (False, "aggressive")],
    ids=["propagated", "upstream", "partition-only"],
)
def test_regression(name, mode, propagate, strategy):
    text = REGRESSIONS[name]
    grid = text.split("shape = ")[1].split(")")[0]
    devices = eval(grid.replace("x", "*"))  # noqa: S307 (a literal like 2x4)
    report = run(text, devices, arguments=mode, propagate=propagate, strategy=strategy)
    assert report.match, report.max_abs_error


def test_unannotated_lit_cases_run():
    """Every function of shard-partition's unannotated.mlir matches one device when
    partitioned alone, without propagation."""
    text = (FILECHECK / "transforms" / "shard-partition" / "unannotated.mlir").read_text()
    for chunk in text.split("// -----"):
        grid = chunk.split("shape = ")[1].split(")")[0]
        report = run(chunk, eval(grid.replace("x", "*")), propagate=False)  # noqa: S307
        assert report.match, chunk
