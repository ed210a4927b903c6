"""Docs that run: every shell and Python block of README.md and docs/ runs, and what it
prints is compared with the output its page shows (tools/doctest_docs.py, the
convention in docs/testing.md); every example runs through a command its page gives;
no page cites a file outside the repository."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import doctest_docs  # noqa: E402

PAGES = {page.relative_to(ROOT).as_posix(): page for page in doctest_docs.pages(ROOT)}
RUN = [name for name, page in PAGES.items() if any(
    not block.skip and block.kind != "file" for block in doctest_docs.page_blocks(page, ROOT)
)]


@pytest.mark.parametrize("name", RUN)
def test_page_runs_as_shown(name: str):
    result = doctest_docs.run_page(PAGES[name], ROOT)
    assert result.ran, f"{name}: no block ran"
    assert not result.failures, "\n\n".join(result.failures)


def test_every_skip_says_why():
    for page in PAGES.values():
        for block in doctest_docs.page_blocks(page, ROOT):
            assert not block.skip or len(block.skip.split()) >= 3, block.where


EXAMPLES = sorted(
    path.relative_to(ROOT).as_posix()
    for path in (ROOT / "examples").iterdir()
    if path.is_file() and path.suffix in (".mlir", ".py")
)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_runs_through_a_command_its_page_gives(example: str):
    commands = [
        block
        for page in PAGES.values()
        for block in doctest_docs.page_blocks(page, ROOT)
        if block.kind in ("sh", "console") and not block.skip and example in block.code
    ]
    assert commands, f"no doc block that runs names {example}"


_OUTSIDE = re.compile(r"(?<![\w.-])(?:\.\./)+shared/|(?<![\w/.-])shared/(?:notes|seeds)/|/work/")


@pytest.mark.parametrize("name", list(PAGES))
def test_no_page_cites_a_file_outside_the_repository(name: str):
    text = PAGES[name].read_text()
    cited = [m.group(0) for m in _OUTSIDE.finditer(text)]
    assert not cited, f"{name} cites {cited}"
    for link in re.findall(r"\]\(([^)#\s]+)", text):
        if "://" in link or link.startswith("mailto:"):
            continue
        target = (PAGES[name].parent / link).resolve()
        assert target.is_relative_to(ROOT) and target.exists(), f"{name}: broken link {link}"


def test_no_source_cites_a_file_outside_the_repository():
    cited = [
        f"{path.relative_to(ROOT)}: {m.group(0)}"
        for folder in ("xshard", "tools", "tests", "examples")
        for path in (ROOT / folder).rglob("*.py")
        if path != Path(__file__).resolve()  # the pattern itself
        for m in _OUTSIDE.finditer(path.read_text())
    ]
    assert not cited, cited
