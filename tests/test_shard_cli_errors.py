"""`xshard-opt` on malformed shard IR and pipelines: one error line, exit code 1, no
traceback; an unknown pass or option names the closest one (difflib's)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

GRID = "shard.grid @g(shape = 2x4)\n"


def _function(body: str) -> str:
    return (
        GRID
        + "func.func @f(%x : tensor<4xf32>) -> tensor<4xf32> {\n"
        + f"  {body}\n"
        + "  return %0 : tensor<4xf32>\n"
        + "}\n"
    )


CASES = [
    pytest.param(
        _function(
            "%0 = shard.all_reduce %x on @g grid_axes = [0 reduction = max "
            ": tensor<4xf32> -> tensor<4xf32>"
        ),
        "3:49",
        "']' expected",
        id="syntax-error",
    ),
    pytest.param(
        _function("%0 = shard.all_reduce %x on @nowhere : tensor<4xf32> -> tensor<4xf32>"),
        "3:3",
        'Undefined required grid symbol "nowhere".',
        id="unknown-grid",
    ),
    pytest.param(
        _function(
            "%0 = shard.all_reduce %x on @g grid_axes = [2] : tensor<4xf32> -> tensor<4xf32>"
        ),
        "3:3",
        '0-based grid axis index 2 is out of bounds. The referenced grid "g" is of rank 2.',
        id="grid-axis-out-of-range",
    ),
    pytest.param(
        GRID + "%s = shard.sharding @g split_axes = [[0], [5]] : !shard.sharding\n",
        "2:1",
        '0-based grid axis index 5 is out of bounds. The referenced grid "g" is of rank 2.',
        id="split-axis-out-of-range",
    ),
]


@pytest.mark.parametrize(("text", "where", "message"), CASES)
def test_malformed_file_gives_one_located_error(
    tmp_path: Path, text: str, where: str, message: str
):
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    done = subprocess.run(["xshard-opt", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert done.stderr.strip() == f"{path}:{where}: error: {message}"


@pytest.mark.parametrize(
    ("pipeline", "reason"),
    [
        (
            "sharding-propagaton",
            "unknown pass 'sharding-propagaton'; did you mean 'sharding-propagation'?",
        ),
        ("no-such-pass", "unknown pass 'no-such-pass' (see xshard-opt --list-passes)"),
        (
            "shard-partition,sharding-propagation{traversl=forward}",
            "pass 'sharding-propagation' has no option 'traversl'; did you mean 'traversal'?",
        ),
        ("xshard-spmd{memory_limt=1}", "has no option 'memory_limt'; did you mean 'memory-limit'?"),
        ("shard-partition{bogus=1}", "pass 'shard-partition' has no option 'bogus' (its options: "),
        ("inline{depth=1}", "pass 'inline' has no option 'depth' (none)"),
        ("sharding-propagation{traversal=sideways}", "Incompatible types"),
        ("sharding-propagation{traversal", "Expected equals, space or end of arguments"),
    ],
    ids=[
        "misspelt-pass",
        "unknown-pass",
        "misspelt-option",
        "misspelt-option-underscored",
        "unknown-option",
        "option-of-a-pass-without",
        "bad-option-value",
        "unclosed-options",
    ],
)
def test_bad_pipeline_is_a_usage_error(tmp_path: Path, pipeline: str, reason: str):
    path = tmp_path / "ok.mlir"
    path.write_text(GRID)
    done = subprocess.run(
        ["xshard-opt", "-p", pipeline, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert done.stderr.startswith(f"xshard-opt: error: bad pass pipeline '{pipeline}': ")
    assert reason in done.stderr


def test_an_internal_error_is_one_line_with_exit_code_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    from xshard.cli.internal_error import report_internal_error

    monkeypatch.delenv("XSHARD_TRACEBACK", raising=False)
    try:
        raise ValueError("a bug")
    except ValueError as err:
        assert report_internal_error("xshard-opt", err) == 2
    assert capsys.readouterr().err == (
        "xshard-opt: internal error: ValueError: a bug (set XSHARD_TRACEBACK=1 for the traceback)\n"
    )
    monkeypatch.setenv("XSHARD_TRACEBACK", "1")
    with pytest.raises(ValueError, match="a bug"):
        try:
            raise ValueError("a bug")
        except ValueError as err:
            report_internal_error("xshard-opt", err)
