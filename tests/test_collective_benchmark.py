"""Issue 6's benchmark (tools/collective_benchmark.py): on every program, xshard with
shard-simplify runs exactly the analytic minimum's collectives, no more bytes or ring
cost than jax.jit on the same shardings, and computes the right thing on 8 devices."""

import importlib.util
import json
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from xshard.cli.run import _parser

_TOOL = Path(__file__).parent.parent / "tools" / "collective_benchmark.py"
_spec = importlib.util.spec_from_file_location("collective_benchmark", _TOOL)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = tool  # its dataclasses look their module up
_spec.loader.exec_module(tool)

NO_SIMPLIFY, SIMPLIFY, XLA = tool.VARIANTS


@cache
def rows(name: str) -> dict[str, "tool.Row"]:
    return {r.variant: r for r in tool.benchmark(name)}


@pytest.mark.parametrize("name", list(tool.PROGRAMS))
def test_simplified_is_the_minimum_and_no_worse_than_jax(name: str):
    by = rows(name)
    simplified, xla = by[SIMPLIFY], by[XLA]
    assert simplified.collectives == tool.PROGRAMS[name].minimum
    assert simplified.bytes <= xla.bytes
    assert simplified.ring_cost <= xla.ring_cost
    assert tool.problems(list(by.values())) == []


@pytest.mark.parametrize("name", list(tool.PROGRAMS))
def test_both_xshard_variants_compute_the_program(name: str):
    assert rows(name)[NO_SIMPLIFY].match is True
    assert rows(name)[SIMPLIFY].match is True


def test_without_simplify_keeps_what_the_rewrites_remove():
    """`simplify=false` really skips shard-simplify: the masked psum stays the
    all_reduce that detect-collective-broadcast turns into a broadcast."""
    assert rows("masked_psum_broadcast")[NO_SIMPLIFY].collectives == (("all_reduce", 1, 32),)


def test_problems_flags_a_row_above_the_minimum_or_above_jax():
    by = dict(rows("sequence_parallel_mlp"))
    unfused = (("all_gather", 1, 256), ("all_reduce", 1, 2048))
    above_minimum = {**by, SIMPLIFY: replace(by[SIMPLIFY], collectives=unfused)}
    assert [p for p in tool.problems(list(above_minimum.values())) if "not the minimum" in p]
    cheaper_xla = replace(by[XLA], collectives=(("all_reduce", 1, 64),), ring_cost=112.0)
    above_jax = {**by, XLA: cheaper_xla}
    assert tool.problems(list(above_jax.values())) == [
        "sequence_parallel_mlp: more traffic than jax.jit"
    ]


def test_run_cli_no_simplify_flag():
    assert _parser().parse_args(["f.mlir", "--devices", "8", "--no-simplify"]).simplify is False
    assert _parser().parse_args(["f.mlir", "--devices", "8"]).simplify is True


@pytest.mark.parametrize("name", ["weight_stationary_mlp", "sequence_parallel_mlp"])
def test_xshard_run_gives_all_gather_and_reduce_scatter_from_the_users_annotations(
    name: str, capsys
):
    """Issue 14's two programs, annotated on arguments and result only: `xshard-run`
    (the default pipeline) keeps the weights in place, so all_gather + reduce_scatter,
    and the run matches one device."""
    from xshard.cli.run import main

    with pytest.raises(SystemExit) as done:
        main([str(tool.BENCHMARKS / f"{name}.mlir"), "--devices", "8", "--json"])
    assert done.value.code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["match"] is True
    assert [(c["op"], c["count"]) for c in report["collectives"]] == [
        ("all_gather", 1),
        ("reduce_scatter", 1),
    ]


@pytest.mark.parametrize("name", [n for n, p in tool.PROGRAMS.items() if p.level == "global"])
def test_auto_sharding_from_the_inputs_alone_is_right_and_no_worse_than_jax(name: str):
    """The auto-sharding row (arguments annotated, a memory limit below holding them
    whole): right on 8 devices, and no more collectives or bytes per device than
    jax.jit with every annotation."""
    by = rows(name)
    auto, xla = by[tool.AUTO], by[XLA]
    assert auto.match is True
    assert sum(n for _, n, _ in auto.collectives) <= sum(n for _, n, _ in xla.collectives)
    assert auto.bytes <= xla.bytes


def test_inputs_only_drops_every_annotation_for_users():
    text = (tool.BENCHMARKS / "sequence_parallel_mlp.mlir").read_text()
    stripped = tool._inputs_only(text)
    assert "annotate_for_users" in text and "annotate_for_users" not in stripped
    assert "func.return %y :" in stripped
