"""Run upstream-style `shard` tests through `mlir-opt-22` and `xshard-opt` and compare.

    python tools/conformance.py DIR [--list] [--json FILE]

Every `.mlir` file in DIR is read the way lit would read it: its `// RUN:` line
(`mlir-opt ARGS %s [| mlir-opt] [| FileCheck %s --check-prefix=P]`) says which
passes run and how the output is checked. The file is cut into units, each checked
on its own: chunks at `// -----` when the RUN line splits input, and within a chunk
one unit per top-level `func.func` (the chunk's other top-level lines, such as grid
declarations, go with each), unless the functions call each other. A unit counts
when `mlir-opt-22` accepts it: it runs, and its output passes the unit's CHECK
lines (with `--verify-diagnostics`: the expected diagnostics match). For each such
unit the same RUN line runs under `xshard-opt`, in this process, with pass names
mapped by `_XSHARD_PASS` (`builtin.module(func.func(...))` nesting dropped). It
passes when its output passes the CHECK lines, or equals `mlir-opt-22`'s output
once SSA names, aliases and spacing are normalized; the report gives, per file and
in total, units accepted, passing CHECK lines, equal, differing and failing, and
with `--list` the reason for each unit that does not pass.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from tool_env import executable  # noqa: E402

MLIR_OPT = "mlir-opt-22"

# upstream pass name -> xshard-opt pass name, where they differ.
_XSHARD_PASS = {
    # Folds once and drops dead constants upstream; canonicalize folds to a fixed point.
    "test-single-fold": "canonicalize",
}


@dataclass
class RunLine:
    """One `// RUN:` line, parsed."""

    passes: list[tuple[str, str]]
    """(pass name, options text without braces), in order."""
    flags: list[str]
    """mlir-opt flags that are not passes (--split-input-file, --verify-diagnostics)."""
    roundtrip: bool
    """`| mlir-opt` after the first command: print and parse again."""
    check_prefixes: list[str] | None
    """None when the output is not piped to FileCheck."""
    mlir_args: list[str]
    """The first command's arguments, as written (`%s` included)."""

    @property
    def verify(self) -> bool:
        return "--verify-diagnostics" in self.flags

    @property
    def split(self) -> bool:
        return "--split-input-file" in self.flags


@dataclass
class Unit:
    file: str
    name: str
    text: str


@dataclass
class Result:
    file: str
    unit: str
    accepted: bool
    check: bool = False
    equal: bool = False
    failed: bool = False
    reason: str = ""

    @property
    def passed(self) -> bool:
        return self.check or self.equal


@dataclass
class Totals:
    units: int = 0
    accepted: int = 0
    check: int = 0
    equal: int = 0
    passed: int = 0
    differ: int = 0
    failed: int = 0
    not_passing: list[dict[str, str]] = field(default_factory=list)

    def add(self, r: Result) -> None:
        self.units += 1
        if not r.accepted:
            return
        self.accepted += 1
        self.check += r.check
        self.equal += r.equal
        self.passed += r.passed
        if not r.passed:
            self.failed += r.failed
            self.differ += not r.failed
            self.not_passing.append({"unit": f"{r.file}:{r.unit}", "reason": r.reason})


def _pass_list(pipeline: str) -> list[tuple[str, str]]:
    """`builtin.module(func.func(a{x=1},b))` -> [("a", "x=1"), ("b", "")]."""
    text = re.sub(r"\b(builtin\.module|func\.func)\(", "", pipeline).replace(")", "")
    passes = []
    for item in re.findall(r"[\w.-]+(?:\{[^}]*\})?", text):
        name, _, opts = item.partition("{")
        passes.append((name, opts.rstrip("}")))
    return passes


def parse_run(text: str, path: str) -> RunLine:
    lines = [m.group(1) for m in re.finditer(r"^// RUN:(.*)$", text, re.M)]
    if not lines:
        raise ValueError(f"{path}: no RUN line")
    command = re.sub(r"\\\s+", " ", " ".join(lines))
    stages = [shlex.split(stage) for stage in command.split("|")]
    if not stages[0] or stages[0][0] != "mlir-opt":
        raise ValueError(f"{path}: RUN line does not start with mlir-opt")
    passes: list[tuple[str, str]] = []
    flags: list[str] = []
    for arg in stages[0][1:]:
        if arg == "%s":
            continue
        arg = "--" + arg.lstrip("-")
        if arg in ("--split-input-file", "--verify-diagnostics"):
            flags.append(arg)
        elif arg.startswith("--pass-pipeline="):
            passes += _pass_list(arg.partition("=")[2])
        else:
            passes += _pass_list(arg[2:])
    roundtrip = False
    prefixes = None
    for stage in stages[1:]:
        if stage[:1] == ["mlir-opt"]:
            roundtrip = True
        elif stage[:1] == ["FileCheck"]:
            prefixes = [
                a.partition("=")[2] for a in stage if a.startswith("--check-prefix")
            ] or ["CHECK"]
    return RunLine(passes, flags, roundtrip, prefixes, stages[0][1:])


_FUNC = re.compile(r"^func\.func\b")


def _function_spans(lines: list[str]) -> list[tuple[int, int]]:
    """[start, end) of each top-level function with the comment lines right above it."""
    spans = []
    i = 0
    while i < len(lines):
        if _FUNC.match(lines[i]):
            start = i
            while start > 0 and lines[start - 1].lstrip().startswith("//"):
                start -= 1
            end = i
            while end < len(lines) and lines[end].rstrip() != "}":
                end += 1
            spans.append((start, end + 1))
            i = end + 1
        else:
            i += 1
    return spans


def split_units(path: Path, text: str, run: RunLine) -> list[Unit]:
    chunks = re.split(r"^// -----.*\n?", text, flags=re.M) if run.split else [text]
    units = []
    for c, chunk in enumerate(chunks):
        lines = chunk.splitlines()
        spans = _function_spans(lines)
        if len(spans) <= 1 or re.search(r"\bcall @", chunk):
            units.append(Unit(path.name, _unit_name(lines, spans) or f"chunk {c}", chunk))
            continue
        inside = {i for s, e in spans for i in range(s, e)}
        preamble = [line for i, line in enumerate(lines) if i not in inside]
        for s, e in spans:
            body = "\n".join(preamble + lines[s:e]) + "\n"
            units.append(Unit(path.name, _unit_name(lines, [(s, e)]), body))
    return units


def _unit_name(lines: list[str], spans: list[tuple[int, int]]) -> str:
    for s, e in spans:
        for line in lines[s:e]:
            if m := re.match(r"^func\.func\s+(?:private\s+)?(@[\w$.]+)", line):
                return m.group(1)
    return ""


def normalize(output: str) -> str:
    """Output with SSA names numbered by first use, comments, aliases and spacing dropped."""
    text = re.sub(r"^\s*//.*$", "", output, flags=re.M)
    text = re.sub(r"^#\w+ = .*$", "", text, flags=re.M)
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        return names.setdefault(m.group(0), f"%v{len(names)}")

    text = re.sub(r"%[\w$.-]+", rename, text)
    text = re.sub(r"\bbuiltin\.module\b", "module", text)
    text = re.sub(r"\bfunc\.return\b", "return", text)
    return " ".join(text.split())


def _mlir_command(run: RunLine, unit_file: str) -> list[str]:
    return [MLIR_OPT, *(unit_file if a == "%s" else a for a in run.mlir_args)]


def _run_mlir(run: RunLine, unit_file: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        _mlir_command(run, unit_file), capture_output=True, text=True, timeout=60
    )
    out, rc = proc.stdout, proc.returncode
    if rc == 0 and run.roundtrip:
        again = subprocess.run(
            [MLIR_OPT], input=out, capture_output=True, text=True, timeout=60
        )
        out, rc = again.stdout, again.returncode
        return rc, out, proc.stderr + again.stderr
    return rc, out, proc.stderr


def _xshard(argv: list[str]) -> tuple[int, str, str]:
    from xshard.cli.opt import main

    out, err = io.StringIO(), io.StringIO()
    rc = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as exit_:
            rc = exit_.code if isinstance(exit_.code, int) else 1
    return rc, out.getvalue(), err.getvalue()


def _xshard_pass(name: str, options: str) -> tuple[str, str]:
    """Upstream's pass as xshard-opt names it; propagation runs upstream's strategy."""
    if name == "sharding-propagation" and "strategy=" not in options:
        options = " ".join(filter(None, (options, "strategy=upstream")))
    return _XSHARD_PASS.get(name, name), options


def _run_xshard(run: RunLine, unit_file: str, tmp: Path) -> tuple[int, str, str]:
    argv = [unit_file, *run.flags]
    if run.passes:
        names = [_xshard_pass(n, o) for n, o in run.passes]
        argv += ["-p", ",".join(f"{n}{{{o}}}" if o else n for n, o in names)]
    rc, out, err = _xshard(argv)
    if rc == 0 and run.roundtrip:
        again = tmp / "roundtrip.mlir"
        again.write_text(out)
        rc, out, err2 = _xshard([str(again)])
        err += err2
    return rc, out, err


def _filecheck(unit_file: str, output: str, prefixes: list[str]) -> tuple[bool, str]:
    args = [executable("filecheck"), unit_file] + [f"--check-prefix={p}" for p in prefixes]
    proc = subprocess.run(args, input=output, capture_output=True, text=True, timeout=60)
    return proc.returncode == 0, _first_error(proc.stderr or proc.stdout)


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line.lower():
            return re.sub(r"^\S*:\d+:\d+: ", "", line.strip())[:200]
    return text.strip().splitlines()[0][:200] if text.strip() else ""


def check_unit(unit: Unit, run: RunLine, tmp: Path) -> Result:
    unit_file = tmp / f"unit-{abs(hash(unit.text))}.mlir"
    unit_file.write_text(unit.text)
    rc, mlir_out, mlir_err = _run_mlir(run, str(unit_file))
    result = Result(unit.file, unit.name, accepted=rc == 0)
    if result.accepted and run.check_prefixes is not None:
        result.accepted, _ = _filecheck(str(unit_file), mlir_out, run.check_prefixes)
    if not result.accepted:
        result.reason = "mlir-opt-22 rejects it: " + _first_error(mlir_err)
        return result
    rc, xs_out, xs_err = _run_xshard(run, str(unit_file), tmp)
    if rc != 0:
        result.failed = True
        result.reason = "xshard-opt fails: " + _first_error(xs_err or xs_out)
        return result
    result.equal = not run.verify and normalize(xs_out) == normalize(mlir_out)
    if run.check_prefixes is not None:
        result.check, why = _filecheck(str(unit_file), xs_out, run.check_prefixes)
        result.reason = "" if result.check else "CHECK fails: " + why
    else:
        result.check = True  # a verify-diagnostics run that exits 0 matched them all
    return result


def run_directory(directory: Path) -> dict[str, Totals]:
    per_file: dict[str, Totals] = {}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for path in sorted(directory.glob("*.mlir")):
            text = path.read_text()
            run = parse_run(text, str(path))
            totals = per_file.setdefault(path.name, Totals())
            for unit in split_units(path, text, run):
                totals.add(check_unit(unit, run, tmp))
    return per_file


def _table(per_file: dict[str, Totals]) -> str:
    head = f"{'file':44} {'units':>5} {'accepted':>8} {'check':>5} {'equal':>5} "
    head += f"{'pass':>5} {'differ':>6} {'fail':>4}"
    rows = [head]
    total = Totals()
    for name, t in per_file.items():
        rows.append(_row(name, t))
        for key in ("units", "accepted", "check", "equal", "passed", "differ", "failed"):
            setattr(total, key, getattr(total, key) + getattr(t, key))
    rows.append(_row("total", total))
    return "\n".join(rows)


def _row(name: str, t: Totals) -> str:
    return (
        f"{name:44} {t.units:5} {t.accepted:8} {t.check:5} {t.equal:5} {t.passed:5} "
        f"{t.differ:6} {t.failed:4}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--list", action="store_true", help="the reason for each unit "
                        "mlir-opt-22 accepts that does not pass under xshard-opt")
    parser.add_argument("--json", type=Path, help="write the per-file results here")
    args = parser.parse_args(argv)
    if shutil.which(MLIR_OPT) is None:
        print(f"conformance: {MLIR_OPT} is not on PATH", file=sys.stderr)
        return 2
    if not args.directory.is_dir():
        print(f"conformance: {args.directory}: not a directory", file=sys.stderr)
        return 2
    try:
        per_file = run_directory(args.directory)
    except ValueError as err:
        print(f"conformance: {err}", file=sys.stderr)
        return 2
    print(_table(per_file))
    if args.list:
        for t in per_file.values():
            for item in t.not_passing:
                print(f"{item['unit']}: {item['reason']}")
    if args.json:
        args.json.write_text(json.dumps({k: asdict(v) for k, v in per_file.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
