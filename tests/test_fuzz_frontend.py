"""The front-end fuzz harness (`tools/fuzz_frontend.py`, docs/fuzzing.md).

1000 seeded mutants of the test corpus, token-level and again byte-level (invalid UTF-8,
NUL bytes, truncation, flipped and inserted bytes), go through parse, verify and
`xshard-spmd`: none
may end in an internal error, an unlocated diagnostic or a hang while parsing or
verifying. Crashes inside the passes are the harness's findings for the passes' owners,
not this test's (the tool lists them). The harness itself is checked too: mutants
depend only on the seed and their index, outcomes are classified as xshard-opt reports
them, and a hang or a dying worker is counted, not fatal.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException

from xshard.dialects.shard import GridOp

_TOOL = Path(__file__).parents[1] / "tools" / "fuzz_frontend.py"
_spec = importlib.util.spec_from_file_location("fuzz_frontend", _TOOL)
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = tool  # outcomes come back from the workers pickled
_spec.loader.exec_module(tool)

MUTANTS = 1000

VALID = """shard.grid @g(shape = 2)
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %x to %s : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  %2 = shard.shard %1 to %s : tensor<8xf32>
  func.return %2 : tensor<8xf32>
}
"""


def _fuzz(tmp_path: Path, *flags: str) -> tuple[int, dict]:
    """The tool in a fresh interpreter (its workers are forked; this one may run jax)."""
    out = tmp_path / "findings"
    done = subprocess.run(
        [sys.executable, str(_TOOL), "--jobs", "2", "--out", str(out), "--json",
         str(tmp_path / "report.json"), *flags],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    print(done.stdout, done.stderr)
    return done.returncode, json.loads((tmp_path / "report.json").read_text())


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _fuzz(tmp_path_factory.mktemp("fuzz"), "--mutants", str(MUTANTS), "--seed", "0")[1]


@pytest.fixture(scope="module")
def byte_report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _fuzz(
        tmp_path_factory.mktemp("fuzz-bytes"),
        *("--mutants", str(MUTANTS), "--seed", "0", "--mutations", "bytes"),
    )[1]


@pytest.mark.parametrize("level", ["report", "byte_report"])
def test_the_front_end_never_crashes_nor_leaves_an_error_unlocated(
    level: str, request: pytest.FixtureRequest
):
    report = request.getfixturevalue(level)
    bad = [finding for finding in report["bad"] if finding["stage"] in tool.FRONT_END]
    assert not bad, json.dumps(bad, indent=1)
    total = sum(n for counts in report["counts"].values() for n in counts.values())
    assert total == report["mutants"] == MUTANTS


def test_mutants_reach_every_stage(report: dict):
    """The mutations are not all fatal to the parser: some reach the verifier, the
    pipeline and the printer."""
    counts = report["counts"]
    assert counts["parse"]["located"] > 0
    assert counts["verify"]["located"] > 0
    assert sum(counts[phase]["located"] for phase in ("sharding-propagation", "shard-partition"))
    assert counts["print"]["ok"] > 0


def test_a_mutant_depends_only_on_the_seed_and_its_index():
    chunks = tool.load_corpus()
    pools = tool.corpus_pools(chunks, lambda name: name in {"stablehlo.add", "shard.grid"})
    again = [tool.make_mutant(i, 3, chunks, pools) for i in (7, 7, 8)]
    assert again[0] == again[1] != again[2]
    assert tool.make_mutant(7, 4, chunks, pools) != again[0]


def test_tokens_join_back_to_the_text():
    text = _TOOL.parents[1].joinpath("examples", "mlp_1d.mlir").read_text()
    assert tool.untokenize(tool.tokenize(text)) == text


@pytest.mark.parametrize(
    ("text", "kind", "code"),
    [
        (VALID, "ok", 0),
        (VALID.replace("split_axes = [[0]]", "split_axes = [[0]"), "located", 1),
        (VALID.replace("split_axes = [[0]]", "split_axes = [[5]]"), "located", 1),
        (VALID.replace("shape = 2", "shape = 3"), "located", 1),  # 8 does not split in 3
    ],
    ids=["ok", "parse-error", "verify-error", "pass-error"],
)
def test_outcomes_are_what_xshard_opt_reports(tmp_path: Path, text: str, kind: str, code: int):
    assert tool.run_one(text.encode()).kind == kind
    path = tmp_path / "in.mlir"
    path.write_text(text)
    done = subprocess.run(
        ["xshard-opt", str(path), "-p", "xshard-spmd"], capture_output=True, text=True
    )
    assert done.returncode == code, done.stderr
    if code:
        assert done.stderr.startswith(f"{path}:")


def test_a_bug_is_internal_and_an_unplaced_error_unlocated(monkeypatch):
    def crash(self):
        raise KeyError("bug")

    monkeypatch.setattr(GridOp, "verify_", crash)
    outcome = tool.run_one(VALID.encode())
    assert (outcome.kind, outcome.stage, outcome.error) == ("internal", "verify", "KeyError")
    assert outcome.frame.startswith("xshard/diagnostics.py")  # the innermost xshard frame
    assert "test_fuzz_frontend.py" in outcome.frame  # and where it was raised
    monkeypatch.undo()

    def unplaced(self):
        raise VerifyException("somewhere")

    monkeypatch.setattr(ModuleOp, "verify_", unplaced)
    assert tool.run_one(VALID.encode()).kind == "unlocated"


def test_a_hang_or_a_dying_worker_is_counted_not_fatal(tmp_path: Path):
    """A worker that overruns the timeout or dies is replaced; its input is counted as a
    timeout (in the stage it hung in) or an internal error. In a fresh interpreter: the
    workers are forked, and this one may be running jax's threads."""
    script = tmp_path / "pool.py"
    script.write_text(
        "import os, sys, time\n"
        f"sys.path.insert(0, {str(_TOOL.parent)!r})\n"
        "import fuzz_frontend as tool\n"
        "def fake(text, on_stage):\n"
        "    on_stage('verify')\n"
        "    if text == 'hang':\n"
        "        time.sleep(60)\n"
        "    if text == 'die':\n"
        "        os._exit(3)\n"
        "    return tool.Outcome('ok', 'print')\n"
        "tool.run_one = fake  # before the workers fork\n"
        "with tool.WorkerPool(1, timeout=0.5) as pool:\n"
        "    for text in ('hang', 'die', 'fine'):\n"
        "        o = pool.check(text)\n"
        "        print(o.kind, o.stage, o.error, o.message, sep='|')\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "timeout|verify||no answer in 0.5 s",
        "internal|verify|WorkerDied|worker died with exit code 3",
        "ok|print||",
    ]
