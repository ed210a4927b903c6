"""Every input ends in output or a clear error, never a traceback, as with mlir-opt; and
`xshard-opt`'s help.

Each input case holds what xshard-opt does and what mlir-opt-22 does with the same
bytes (that half skips without mlir-opt-22). They agree everywhere but on a NUL byte
outside strings and comments, which MLIR's lexer takes for whitespace and xshard
reports (`xshard/cli/source.py`).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from xshard.cli import pass_list
from xshard.cli.source import printable
from xshard.transforms import get_xshard_passes

FUNCTION = b"func.func @f() {\n  return\n}\n"


@dataclass(frozen=True)
class Case:
    make: Callable[[Path], Path]
    code: int
    xshard: str
    """What xshard-opt prints (stdout when it exits 0, else stderr); `{path}` is the input."""
    mlir_code: int
    mlir: str
    """What mlir-opt-22 prints likewise."""


def _file(data: bytes, name: str = "in.mlir") -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        (tmp / name).write_bytes(data)
        return tmp / name

    return make


def _directory(tmp: Path) -> Path:
    (tmp / "dir.mlir").mkdir()
    return tmp / "dir.mlir"


CASES = {
    # An ELF header: mlir-opt stops at its first byte, 0x7f; xshard too, before the
    # bytes that are not UTF-8.
    "binary": Case(
        _file(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00\xd0a\x00"),
        1, "{path}:1:1: error: Unexpected character: \\x7f",
        1, "{path}:1:1: error: unexpected character",
    ),
    "invalid-utf8": Case(
        _file(FUNCTION + b"\xff\xfe\n"),
        1, "{path}:4:1: error: Unexpected character: \\xff",
        1, "{path}:4:1: error: unexpected character",
    ),
    "invalid-utf8-in-a-comment": Case(
        _file(b"// caf\xe9\n" + FUNCTION),
        0, "func.func @f()",
        0, "func.func @f()",
    ),
    "utf8-cut-short-in-a-comment": Case(
        _file(FUNCTION + b"// \xe2\x82"),
        0, "func.func @f()",
        0, "func.func @f()",
    ),
    "invalid-utf8-in-a-string": Case(  # the same bytes as the escape \FF
        _file(b'func.func @f() attributes {s = "a\xffb"} {\n  return\n}\n'),
        0, '{s = "a\\FFb"}',
        0, '{s = "a\\FFb"}',
    ),
    "invalid-utf8-in-a-string-with-escapes": Case(
        _file(b'func.func @f() attributes {s = "a\\n\xffb"} {\n  return\n}\n'),
        0, '{s = "a\\0A\\FFb"}',
        0, '{s = "a\\0A\\FFb"}',
    ),
    "empty": Case(_file(b""), 0, "builtin.module {\n}", 0, "module {\n}"),
    "only-comments": Case(
        _file(b"// nothing here\n\n"), 0, "builtin.module {\n}", 0, "module {\n}"
    ),
    "byte-order-mark": Case(
        _file(b"\xef\xbb\xbf" + FUNCTION),
        1, "{path}:1:1: error: Unexpected character: \\ufeff",
        1, "{path}:1:1: error: unexpected character",
    ),
    "nul-byte": Case(  # the one difference: whitespace to MLIR's lexer
        _file(b"func.func @f() {\x00\n  return\n}\n"),
        1, "{path}:1:17: error: Unexpected character: \\x00",
        0, "func.func @f()",
    ),
    "any-file-name": Case(_file(FUNCTION, "in.txt"), 0, "func.func @f()", 0, "func.func @f()"),
    "directory": Case(
        _directory,
        1, "xshard-opt: error: cannot open input file '{path}': Is a directory",
        1, "cannot open input file '{path}': Is a directory",
    ),
    "missing-file": Case(
        lambda tmp: tmp / "missing.mlir",
        1, "xshard-opt: error: cannot open input file '{path}': No such file or directory",
        1, "cannot open input file '{path}': No such file or directory",
    ),
}  # fmt: skip


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, errors="replace", timeout=60
    )


@pytest.mark.parametrize("name", CASES)
def test_xshard_opt_handles_every_input(tmp_path: Path, name: str):
    case = CASES[name]
    path = case.make(tmp_path)
    done = _run("xshard-opt", path)
    assert done.returncode == case.code, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    shown = done.stdout if case.code == 0 else done.stderr.strip()
    assert case.xshard.replace("{path}", str(path)) in shown


@pytest.mark.parametrize("name", CASES)
def test_mlir_opt_does_what_the_case_records(tmp_path: Path, name: str, mlir_opt: str):
    case = CASES[name]
    path = case.make(tmp_path)
    done = _run(mlir_opt, path)
    assert done.returncode == case.mlir_code, done.stderr
    shown = done.stdout if case.mlir_code == 0 else done.stderr
    assert case.mlir.replace("{path}", str(path)) in shown


UNEXPECTED = """shard.grid @g(shape = 2)
// expected-error @+1 {{grid axis duplicated}}
%s = shard.sharding @g split_axes = [[0, 0]] : !shard.sharding

// -----

shard.grid @g(shape = 2)
%t = shard.sharding @g split_axes = [[0, 0]] : !shard.sharding
"""


@pytest.mark.parametrize("tool", ["xshard-opt", "mlir-opt-22"])
def test_an_unexpected_error_in_an_unannotated_chunk_fails(tmp_path: Path, tool: str, request):
    """The hole `--verify-diagnostics --split-input-file` had: a chunk without
    annotations in a file with some must report nothing, as mlir-opt checks it."""
    binary = request.getfixturevalue("mlir_opt") if tool == "mlir-opt-22" else tool
    path = tmp_path / "in.mlir"
    path.write_text(UNEXPECTED)
    done = _run(binary, path, "--split-input-file", "--verify-diagnostics")
    assert done.returncode == 1
    assert f"{path}:8:" in done.stderr
    assert "error: unexpected error: grid axis duplicated" in done.stderr


def test_xshard_run_handles_bad_input_before_loading_jax(tmp_path: Path):
    binary = tmp_path / "in.mlir"
    binary.write_bytes(CASES["binary"].make(tmp_path).read_bytes())
    done = _run("xshard-run", binary)
    assert (done.returncode, done.stderr.strip()) == (
        1, f"{binary}:1:1: error: Unexpected character: \\x7f"
    )  # fmt: skip
    done = _run("xshard-run", tmp_path)
    assert (done.returncode, done.stderr.strip()) == (
        1, f"xshard-run: error: cannot open input file '{tmp_path}': Is a directory"
    )  # fmt: skip


def test_printable_escapes_what_a_terminal_hides():
    raw = b"\xff".decode(errors="surrogateescape")
    assert printable(f"a\x00b\ufeff{raw}\x7f é\n") == "a\\x00b\\ufeff\\xff\\x7f é\n"


def test_help_fits_on_one_screen_with_every_xshard_pass():
    done = _run("xshard-opt", "--help")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) <= 64 and max(map(len, lines)) <= pass_list.WIDTH, done.stdout
    assert "exit 1 on a miss" in done.stdout  # --verify-diagnostics, which exited 0 once
    passes = get_xshard_passes()
    listed = [name for line in lines for name in passes if f"  {name}  " in line]
    assert sorted(listed) == sorted(passes)  # each once
    assert "--list-passes" in done.stdout


def test_passes_are_grouped_by_phase_with_a_summary_each():
    lines = pass_list.xshard_lines()
    phases = [line[2:17].strip() for line in lines if line[2:17].strip()]
    assert phases == [p for p in pass_list.PHASES if p in phases]  # each once, in order
    assert set(phases) == set(pass_list.PHASES)
    for name, factory in get_xshard_passes().items():
        assert pass_list.summary(factory()), f"{name} has no docstring to show"


def test_list_passes_adds_xdsls_and_exits_0():
    done = _run("xshard-opt", "--list-passes")
    assert done.returncode == 0
    xshard, xdsl = done.stdout.split("\n\n")
    assert "sharding-propagation" in xshard and "lower-affine" not in xshard
    assert "lower-affine" in xdsl and "sharding-propagation" not in xdsl


def test_only_the_mlir_target_and_bad_flags_exit_1(tmp_path: Path):
    done = _run("xshard-opt", "-t", "wgsl", "-p", "canonicalize")
    assert done.returncode == 1
    assert "invalid choice: 'wgsl' (choose from mlir)" in done.stderr
    done = _run("xshard-opt", "--no-such-flag")
    assert done.returncode == 1
    assert "unrecognized arguments: --no-such-flag" in done.stderr
