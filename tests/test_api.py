"""The Python API of docs/api.md: every name where the page says it is, each pass class
under its documented name, and the calls giving what `xshard-opt` gives."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import xshard
import xshard.transforms
from xshard.diagnostics import BAD_INPUT, error_line
from xshard.transforms import get_xshard_passes

ROOT = Path(__file__).resolve().parents[1]
MLP = ROOT / "examples" / "mlp_1d.mlir"


def test_importing_xshard_loads_no_pass_and_no_jax():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, xshard; print(sorted(sys.modules))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "'jax'" not in loaded
    assert "xshard.transforms" not in loaded and "xshard.api" not in loaded


@pytest.mark.parametrize("name", xshard.__all__)
def test_every_top_level_name_loads(name: str):
    assert callable(getattr(xshard, name))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'parse_module'"):
        xshard.parse_module  # noqa: B018


@pytest.mark.parametrize("name", sorted(get_xshard_passes()))
def test_each_pass_class_is_exported_under_its_documented_name(name: str):
    cls = get_xshard_passes()[name]()
    assert cls.name == name
    assert getattr(xshard.transforms, cls.__name__) is cls
    assert cls.__name__ in xshard.transforms.__all__
    assert f"| `{cls.__name__}` |" in _passes_table_row(name)


def _passes_table_row(name: str) -> str:
    for line in (ROOT / "docs" / "passes.md").read_text().splitlines():
        if re.match(rf"^\| \[`{re.escape(name)}`\]", line):
            return line
    raise AssertionError(f"docs/passes.md has no row for {name}")


def _xshard_opt(*args: str) -> str:
    return subprocess.run(["xshard-opt", *args], check=True, capture_output=True, text=True).stdout


def _printed(module, **options) -> str:
    out = io.StringIO()
    xshard.print_module(module, stream=out, **options)
    return out.getvalue()


def test_apply_and_print_give_what_xshard_opt_gives():
    pipeline = "sharding-propagation{traversal=forward},shard-partition,canonicalize"
    module = xshard.parse(MLP.read_text(), str(MLP))
    assert xshard.apply(module, pipeline) is module
    assert _printed(module).strip() == _xshard_opt(str(MLP), "-p", pipeline).strip()
    assert str(module) == _printed(module).strip()
    generic = _xshard_opt(str(MLP), "--print-op-generic")
    assert _printed(xshard.parse(MLP.read_text()), generic=True).strip() == generic.strip()


def test_pass_objects_are_the_same_pipeline_as_its_text():
    from xshard.transforms import ShardingPropagationPass, ShardPartitionPass

    by_text = xshard.apply(xshard.parse(MLP.read_text()), "sharding-propagation,shard-partition")
    by_objects = xshard.apply(
        xshard.parse(MLP.read_text()), [ShardingPropagationPass(), ShardPartitionPass()]
    )
    assert str(by_text) == str(by_objects)


@pytest.mark.parametrize(
    "pipeline, reason",
    [
        ("sharding-propagaton", "Unrecognized passes"),
        ("shard-partition{arguments=both}", "Incompatible types"),
        ("sharding-propagation{", "Expected argument name here"),  # not an Exception in xDSL
    ],
)
def test_a_bad_pipeline_is_a_value_error(pipeline: str, reason: str):
    with pytest.raises(ValueError, match=re.escape(f"bad pass pipeline '{pipeline}'")) as err:
        xshard.apply(xshard.parse(MLP.read_text()), pipeline)
    assert reason in str(err.value)


def test_errors_name_the_line_after_parsing_too():
    with pytest.raises(BAD_INPUT) as err:
        xshard.parse("shard.grid @g(shape = 2x4\n", "in.mlir")
    assert error_line(err.value, "in.mlir") == "in.mlir:2:1: error: Expected ')'"

    # a pass's refusal names the op's line in the text it was parsed from
    module = xshard.parse(
        "shard.grid @g(shape = 4)\n"
        "func.func @f(%x: tensor<6xf32>) -> tensor<6xf32> {\n"
        "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
        "  %0 = shard.shard %x to %s : tensor<6xf32>\n"
        "  func.return %0 : tensor<6xf32>\n"
        "}\n",
        "odd.mlir",
    )
    with pytest.raises(BAD_INPUT) as err:
        xshard.apply(module, "shard-partition")
    assert error_line(err.value, "odd.mlir").startswith("odd.mlir:4:3: error: ")
