"""Each `// numerics` case of the shard-combine-collectives and
stablehlo-combine-collectives lit tests computes, on 8 devices, the same before and
after the pass; a variadic collective is counted once, with all its operands' bytes,
by xshard's counters and by the reader of XLA's HLO; XLA refuses what keeps
stablehlo-combine-collectives out of the default pipeline; and a data-parallel
gradient's all_reduces reach XLA apart, which runs them as one tuple all-reduce."""

from __future__ import annotations

from pathlib import Path

import pytest

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax import BridgeError
from xshard.jax.hlo_collectives import hlo_rows
from xshard.jax.run import run_module
from xshard.jax.runtime import compile_spmd
from xshard.testing.lit_cases import numerics_cases
from xshard.testing.pass_numerics import compare_pass, parse
from xshard.transforms.analysis.collective_count import Collective, count_collectives
from xshard.transforms.analysis.comm_report import collective_rows
from xshard.transforms.export.combine_stablehlo_collectives import (
    CombineStablehloCollectivesPass,
)
from xshard.transforms.export.entry import entry_function
from xshard.transforms.simplify.combine_collectives import CombineCollectivesPass

LIT = Path(__file__).parent / "filecheck/transforms"
SHARD_CASES = numerics_cases(LIT / "shard-combine-collectives/combine-collectives.mlir")
STABLEHLO_CASES = numerics_cases(LIT / "stablehlo-combine-collectives/combine-collectives.mlir")


def test_cases_found():
    assert (len(SHARD_CASES), len(STABLEHLO_CASES)) == (6, 3)


@pytest.mark.parametrize("case", SHARD_CASES, ids=[c.id for c in SHARD_CASES])
def test_shard_pass_keeps_results(case):
    assert compare_pass(case.text, [CombineCollectivesPass()], devices=case.devices).match


@pytest.mark.parametrize("case", STABLEHLO_CASES, ids=[c.id for c in STABLEHLO_CASES])
def test_stablehlo_pass_keeps_results(case):
    passes = [CombineStablehloCollectivesPass()]
    assert compare_pass(case.text, passes, devices=case.devices).match


_GROUPS = (
    "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
    "replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids"
)
_MANUAL = '{mhlo.sharding = "{manual}"}'

GATHERS = f"""
module attributes {{mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func @main(%a: tensor<4x8xf32> {_MANUAL}, %b: tensor<2xf64> {_MANUAL}) -> (tensor<16x8xf32> {_MANUAL}, tensor<8xf64> {_MANUAL}) {{
    %0 = "stablehlo.all_gather"(%a) <{{all_gather_dim = 0 : i64, {_GROUPS}}}> : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %1 = "stablehlo.all_gather"(%b) <{{all_gather_dim = 0 : i64, {_GROUPS}}}> : (tensor<2xf64>) -> tensor<8xf64>
    func.return %0, %1 : tensor<16x8xf32>, tensor<8xf64>
  }}
}}
"""


def test_a_variadic_collective_counts_once_with_all_its_bytes():
    module = parse(GATHERS)
    CombineStablehloCollectivesPass().apply(xshard_context(), module)
    size = 4 * 8 * 4 + 2 * 8
    assert count_collectives(module) == [Collective("all_gather", 1, size)]
    assert [(r.kind, r.bytes) for r in collective_rows(entry_function(module))] == [
        ("all_gather", size)
    ]
    compiled = hlo_rows(compile_spmd(module, 8).hlo_text(), 8)
    assert [(r.kind, r.bytes, r.group_size) for r in compiled] == [("all_gather", size, 4)]


_REDUCER = """({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    })"""

ALL_REDUCES = f"""
module attributes {{mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func @main(%a: tensor<4x8xf32> {_MANUAL}, %b: tensor<2xf32> {_MANUAL}) -> (tensor<4x8xf32> {_MANUAL}, tensor<2xf32> {_MANUAL}) {{
    %0 = "stablehlo.all_reduce"(%a) <{{{_GROUPS}}}> {_REDUCER} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = "stablehlo.all_reduce"(%b) <{{{_GROUPS}}}> {_REDUCER} : (tensor<2xf32>) -> tensor<2xf32>
    func.return %0, %1 : tensor<4x8xf32>, tensor<2xf32>
  }}
}}
"""


def test_xla_refuses_a_variadic_all_reduce_in_partition_mode():
    """Why `stablehlo-combine-collectives` leaves all_reduces alone by default: when
    this fails, XLA runs them, and `all-reduce=true` can become the default."""
    module = parse(ALL_REDUCES)
    compile_spmd(module, 8)  # the single all_reduces compile
    CombineStablehloCollectivesPass(all_reduce=True).apply(xshard_context(), module)
    assert count_collectives(module) == [Collective("all_reduce", 1, (32 + 2) * 4)]
    with pytest.raises(BridgeError, match="single-operand allreduce"):
        compile_spmd(module, 8)


SHARD_MAP_GATHERS = """
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  func.func public @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %0:2 = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={"x"} (%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) {
      %1:2 = "stablehlo.all_gather"(%x, %y) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1x4xf32>, tensor<1x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
      sdy.return %1#0, %1#1 : tensor<8x4xf32>, tensor<8x4xf32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}
"""


def test_xla_refuses_a_variadic_all_gather_in_a_shard_map_under_shardy():
    """Why `stablehlo-combine-collectives` is not in `xshard-spmd`: `xshard.jit` runs
    xshard's program inside `jit(shard_map)`, which XLA partitions with Shardy."""
    with pytest.raises(BridgeError, match="Sharding is tuple-shaped"):
        compile_spmd(SHARD_MAP_GATHERS, 8)


GRADIENT = """
shard.grid @g(shape = 8)
func.func @main(%x: tensor<32x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>, %w3: tensor<16x4xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x4xf32>) {
  %b = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %b : tensor<32x16xf32>
  %h1 = stablehlo.dot_general %xs, %w1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %h2 = stablehlo.dot_general %h1, %w2, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %y = stablehlo.dot_general %h2, %w3, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x4xf32>) -> tensor<32x4xf32>
  %g3 = stablehlo.dot_general %h2, %y, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x4xf32>) -> tensor<16x4xf32>
  %d2 = stablehlo.dot_general %y, %w3, contracting_dims = [1] x [1] : (tensor<32x4xf32>, tensor<16x4xf32>) -> tensor<32x16xf32>
  %g2 = stablehlo.dot_general %h1, %d2, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
  %d1 = stablehlo.dot_general %d2, %w2, contracting_dims = [1] x [1] : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %g1 = stablehlo.dot_general %xs, %d1, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
  return %g1, %g2, %g3 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x4xf32>
}
"""


def test_gradient_all_reduces_reach_xla_apart_and_run_as_one():
    """No bucket to copy: XLA's all-reduce combiner makes the tuple all-reduce."""
    module = LocatingParser(xshard_context(), GRADIENT, "<gradient>").parse_module()
    report = run_module(module, 8)
    assert report.match
    assert report.collectives == [Collective("all_reduce", 3, (2 * 16 * 16 + 16 * 4) * 4)]
    assert not any(op.name == "stablehlo.concatenate" for op in report.stablehlo.walk())
    compiled = hlo_rows(compile_spmd(report.stablehlo, 8).hlo_text(), 8)
    assert [(r.kind, r.bytes) for r in compiled] == [("all_reduce", (2 * 16 * 16 + 16 * 4) * 4)]
