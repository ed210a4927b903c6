"""`tools/conformance.py` on xshard's own upstream-style inputs (`tests/conformance/`):
every unit mlir-opt-22 accepts must pass under xshard-opt too.

Upstream's own test files are not in the repository; `docs/conformance.md` gives
the harness's numbers on them. Without `mlir-opt-22` on PATH these tests skip.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import conformance  # noqa: E402

needs_mlir_opt = pytest.mark.skipif(
    shutil.which(conformance.MLIR_OPT) is None,
    reason=f"{conformance.MLIR_OPT} is not on PATH (CI installs it)",
)


@needs_mlir_opt
def test_every_accepted_unit_passes_under_xshard() -> None:
    per_file = conformance.run_directory(ROOT / "tests" / "conformance")
    assert set(per_file) >= {"ops.mlir", "canonicalization.mlir", "invalid.mlir",
                             "partition.mlir", "propagation.mlir", "resharding.mlir",
                             "test-passes.mlir", "all-slice-op-lowering.mlir"}
    for name, totals in per_file.items():
        assert totals.accepted == totals.units, f"{name}: mlir-opt-22 rejects a unit"
        assert totals.not_passing == [], name


@needs_mlir_opt
def test_a_wrong_check_line_is_reported(tmp_path: Path) -> None:
    (tmp_path / "wrong.mlir").write_text(
        "// RUN: mlir-opt %s | FileCheck %s\n"
        "shard.grid @g(shape = 2)\n"
        "// CHECK: shard.grid @g(shape = 3)\n"
    )
    totals = conformance.run_directory(tmp_path)["wrong.mlir"]
    assert (totals.units, totals.accepted) == (1, 0)


def test_units_split_per_function_and_chunk() -> None:
    text = (
        "// RUN: mlir-opt --split-input-file %s | FileCheck %s\n"
        "shard.grid @g(shape = 2)\n"
        "// CHECK-LABEL: @a\n"
        "func.func @a() {\n  return\n}\n"
        "// CHECK-LABEL: @b\n"
        "func.func @b() {\n  return\n}\n"
        "// -----\n"
        "shard.grid @h(shape = 2)\n"
    )
    run = conformance.parse_run(text, "t.mlir")
    units = conformance.split_units(Path("t.mlir"), text, run)
    assert [u.name for u in units] == ["@a", "@b", "chunk 1"]
    assert "shard.grid @g" in units[1].text and "@a" not in units[1].text


def test_run_line_parsing() -> None:
    run = conformance.parse_run(
        '// RUN: mlir-opt --pass-pipeline="builtin.module(func.func(sharding-propagation'
        '{traversal=backward},cse))" -verify-diagnostics %s | FileCheck %s '
        "--check-prefix=X\n",
        "t.mlir",
    )
    assert run.passes == [("sharding-propagation", "traversal=backward"), ("cse", "")]
    assert run.verify and not run.split and run.check_prefixes == ["X"]


def test_normalize_ignores_names_and_spelling() -> None:
    a = "builtin.module {\n  %0 = arith.addf %x, %x : f32\n  func.return %0 : f32\n}"
    b = "module {\n  %sum = arith.addf %arg0, %arg0 : f32\n  return %sum : f32\n}"
    assert conformance.normalize(a) == conformance.normalize(b)
    assert conformance.normalize(a) != conformance.normalize(b.replace("addf", "mulf"))


@needs_mlir_opt
def test_runs_with_only_the_system_on_path() -> None:
    """filecheck is found beside the interpreter (a virtualenv not on PATH)."""
    import os
    import subprocess

    mlir_opt = Path(shutil.which(conformance.MLIR_OPT) or "").parent
    env = dict(os.environ, PATH=os.pathsep.join([str(mlir_opt), "/usr/bin", "/bin"]))
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "conformance.py"), str(ROOT / "tests" / "conformance")],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("total")
