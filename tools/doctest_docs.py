"""Run the shell and Python blocks of README.md and docs/, and compare what they print
with the output the page shows (the convention: docs/testing.md, "Docs that run").

    python tools/doctest_docs.py                 # every page; exit 1 on any failure
    python tools/doctest_docs.py docs/api.md     # some pages
    python tools/doctest_docs.py --list          # every block, and each skip's reason

Each page runs in its own temporary copy of the repository (the files git tracks or
would track), so its blocks see `examples/` and `tools/` where the page says they are,
a block sees the files earlier blocks of its page wrote, and nothing is written into
the checkout. Blocks run with 8 simulated CPU devices, as the tests do.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNNABLE = {"sh": "sh", "shell": "sh", "bash": "sh", "console": "console", "python": "python"}
"""Info string -> how the block runs."""
OUTPUT = {"text", "output"}
"""Info strings of a block that shows the output of the runnable block just before it."""
TIMEOUT = 600
"""Seconds a block may take."""

_FENCE = re.compile(r"^(\s*)(`{3,})\s*([\w+-]*)")
_DIRECTIVE = re.compile(r"<!--\s*doctest:\s*(.*?)\s*-->")
_SKIP = re.compile(r"skip \((.+)\)")
_FILE = re.compile(r"file ([\w./-]+)")


class DocError(Exception):
    """A page breaks the convention (a directive it cannot read, a runnable block
    followed by an untagged one, a transcript in an untagged block)."""


@dataclass(frozen=True)
class Block:
    page: str
    """Relative to the repository's root."""
    line: int
    """Of the opening fence, 1-based."""
    kind: str
    """`sh`, `console` or `python`, or `file`: a block written to a file, not run."""
    code: str
    expected: str | None = None
    """The output block after an `sh` or `python` block; a `console` block holds its own."""
    skip: str | None = None
    """Why the block cannot run here, from `<!-- doctest: skip (reason) -->`."""
    file: str | None = None
    """What a `file` block is written to, from `<!-- doctest: file NAME -->`."""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def compared(self) -> bool:
        return self.kind == "console" or self.expected is not None


@dataclass(frozen=True)
class _Fence:
    line: int
    info: str
    body: list[str]
    before: str
    """The last non-blank line before the fence, after the previous fence."""
    follows: bool
    """Whether only blank lines separate it from the previous fence."""


def _fences(text: str, page: str) -> Iterator[_Fence]:
    lines = text.splitlines()
    i, last_close, before = 0, None, ""
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            if lines[i].strip():
                before = lines[i].strip()
            i += 1
            continue
        indent, ticks = match.group(1), match.group(2)
        end = i + 1
        while end < len(lines) and lines[end].strip() != ticks:
            end += 1
        if end == len(lines):
            raise DocError(f"{page}:{i + 1}: a code block that is never closed")
        body = [line.removeprefix(indent) for line in lines[i + 1 : end]]
        follows = last_close is not None and not any(s.strip() for s in lines[last_close + 1 : i])
        yield _Fence(i + 1, match.group(3), body, before, follows)
        last_close, before, i = end, "", end + 1


def page_blocks(page: Path, root: Path = ROOT) -> list[Block]:
    """The blocks of `page` that run or are written to files, in order, each with its
    expected output, skip and file."""
    name = page.resolve().relative_to(root).as_posix()
    blocks: list[Block] = []
    previous: _Fence | None = None
    for fence in _fences(page.read_text(), name):
        where = f"{name}:{fence.line}"
        kind = RUNNABLE.get(fence.info)
        skip = file = None
        if fence.before.startswith("<!--") and "doctest" in fence.before:
            directive = _DIRECTIVE.fullmatch(fence.before)
            text = directive.group(1) if directive else ""
            skip, file = _SKIP.fullmatch(text), _FILE.fullmatch(text)
            if not (skip or file):
                raise DocError(
                    f"{where}: write <!-- doctest: skip (why) --> or "
                    "<!-- doctest: file NAME --> before a block"
                )
            if skip and kind is None:
                raise DocError(f"{where}: a skip before a block that does not run")
        after_runnable = previous is not None and RUNNABLE.get(previous.info) in ("sh", "python")
        if fence.follows and after_runnable and kind is None and not file:
            if fence.info in OUTPUT:
                blocks[-1] = replace(blocks[-1], expected="\n".join(fence.body))
            elif fence.info != "mlir":
                raise DocError(
                    f"{where}: say what a block right after a {previous.info} "
                    "block is: `text` for its output"
                )
        elif fence.info in OUTPUT and fence.follows:
            raise DocError(f"{where}: an output block after a block that does not run")
        if kind is None and fence.info == "" and fence.body and fence.body[0].startswith("$ "):
            raise DocError(f"{where}: a `$ ` transcript: tag it `console`")
        code = "\n".join(fence.body) + "\n"
        if file:
            blocks.append(Block(name, fence.line, "file", code, file=file.group(1)))
        elif kind is not None:
            blocks.append(Block(name, fence.line, kind, code, skip=skip and skip.group(1)))
        previous = fence
    return blocks


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


# ------------------------------------------------------------------ comparing output


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(expected: str, actual: str) -> bool:
    """Whether `actual` is what `expected` shows, line by line (trailing spaces and
    blank lines aside): a line `...` stands for any lines, none included, and `...`
    within a line for any text in it."""
    pattern = "".join(
        r"(?:.*\n)*?"
        if line.strip() == "..."
        else ".*?".join(map(re.escape, line.split("..."))) + r"\n"
        for line in _lines(expected)
    )
    text = "".join(line + "\n" for line in _lines(actual))
    return re.fullmatch(pattern, text) is not None


# ------------------------------------------------------------------ running


def environment() -> dict[str, str]:
    """The tests' setting (8 simulated CPU devices; tools of this interpreter's
    environment first on PATH)."""
    env = dict(os.environ)
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)  # set by jax when the caller imported it (pytest)
    flags = env.get("XLA_FLAGS", "")
    if "--xla_force_host_platform_device_count" not in flags:
        env["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count=8".strip()
    env.setdefault("JAX_PLATFORMS", "cpu")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def copy_repository(root: Path, into: Path) -> None:
    """The files git tracks, or would (untracked and not ignored), as the page sees them."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = root / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _transcript(block: Block) -> tuple[list[str], list[str]]:
    """A console block's commands and the output each shows."""
    commands: list[str] = []
    shown: list[str] = []
    lines = block.code.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            if not commands:
                raise DocError(f"{block.where}: a console block starts with a `$ ` command")
            shown[-1] += lines[i] + "\n"
            i += 1
            continue
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        commands.append(command)
        shown.append("")
        i += 1
    return commands, shown


_MARK = "<<<doctest command {}>>>"


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def run_block(block: Block, cwd: Path, env: dict[str, str]) -> str | None:
    """Run `block` in `cwd` (or write it, for a `file` block): None when it passes,
    else what went wrong."""
    if block.kind == "file":
        assert block.file is not None
        (cwd / block.file).write_text(block.code)
        return None
    if block.kind == "console":
        # one shell for the whole session, so `$?` and `cd` carry over, and stderr goes
        # where a terminal shows it; a mark before each command splits the output
        commands, shown = _transcript(block)
        script = "exec 2>&1\n__rc=0\n" + "".join(
            f"printf '%s\\n' '{_MARK.format(i)}'\n(exit $__rc)\n{command}\n__rc=$?\n"
            for i, command in enumerate(commands)
        )
        out = _run(["bash", "-c", script], cwd, env).stdout
        got = re.split(r"^<<<doctest command \d+>>>\n", out, flags=re.M)[1:]
        got += [""] * (len(commands) - len(got))  # the shell died early
        for command, want, have in zip(commands, shown, got, strict=True):
            if not matches(want, have):
                return _diff(f"$ {command}", want, have)
        return None
    if block.kind == "sh":
        done = _run(["bash", "-e", "-o", "pipefail", "-c", block.code], cwd, env)
    else:
        script = cwd / f"doctest_{Path(block.page).stem}_{block.line}.py"
        script.write_text(block.code)
        done = _run([sys.executable, script.name], cwd, env)
    if done.returncode != 0:
        return f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    if block.expected is not None and not matches(block.expected, done.stdout):
        return _diff("stdout", block.expected, done.stdout)
    return None


def _diff(what: str, want: str, have: str) -> str:
    return f"{what}\n--- the page shows\n{want.rstrip()}\n--- the run printed\n{have.rstrip()}"


@dataclass
class PageResult:
    page: str
    ran: list[Block]
    skipped: list[Block]
    failures: list[str]
    seconds: float = 0.0


def run_page(page: Path, root: Path = ROOT) -> PageResult:
    """Run the blocks of `page` that are not skipped, in order, in one temporary copy
    of the repository."""
    start = time.perf_counter()
    blocks = page_blocks(page, root)
    result = PageResult(
        page.resolve().relative_to(root).as_posix(),
        [b for b in blocks if b.kind != "file" and not b.skip],
        [b for b in blocks if b.skip],
        [],
    )
    if result.ran:
        env = environment()
        with tempfile.TemporaryDirectory(prefix="xshard-doctest-") as tmp:
            copy_repository(root, Path(tmp))
            for block in blocks:
                if block.skip:
                    continue
                try:
                    failure = run_block(block, Path(tmp), env)
                except subprocess.TimeoutExpired:
                    failure = f"ran past {TIMEOUT} s"
                if failure:
                    result.failures.append(f"{block.where} ({block.kind}): {failure}")
    result.seconds = time.perf_counter() - start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="default: README.md and docs/")
    parser.add_argument("--list", action="store_true", help="list the blocks; run nothing")
    args = parser.parse_args(argv)
    chosen = [p.resolve() for p in args.pages] or pages()
    if args.list:
        for block in (b for page in chosen for b in page_blocks(page)):
            what = (
                f"skip: {block.skip}"
                if block.skip
                else f"writes {block.file}"
                if block.file
                else "compared"
                if block.compared
                else "runs"
            )
            print(f"{block.where:<48} {block.kind:<8} {what}")
        return 0
    start = time.perf_counter()
    results = []
    for page in chosen:
        result = run_page(page)
        results.append(result)
        if result.ran or result.skipped:
            print(
                f"{'FAIL' if result.failures else 'ok':<5}{result.page}: "
                f"{len(result.ran)} run ({sum(b.compared for b in result.ran)} compared), "
                f"{len(result.skipped)} skipped, {result.seconds:.1f} s",
                flush=True,
            )
        for failure in result.failures:
            print(f"\n{failure}\n", flush=True)
    ran = [b for r in results for b in r.ran]
    skipped = [b for r in results for b in r.skipped]
    for block in skipped:
        print(f"skipped {block.where}: {block.skip}")
    failed = sum(len(r.failures) for r in results)
    print(
        f"{len(ran)} blocks run ({sum(b.compared for b in ran)} compared with the page), "
        f"{len(skipped)} skipped, {failed} failed, {time.perf_counter() - start:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
