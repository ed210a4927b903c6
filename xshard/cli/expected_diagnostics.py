"""`expected-error` annotations, as `mlir-opt --verify-diagnostics` checks them.

An input line `// expected-error {{text}}` says that a diagnostic whose message
contains `text` is reported at that line; `@+N`, `@-N`, `@above` and `@below` move
the line, as in MLIR. `xshard-opt --verify-diagnostics` checks every chunk of a file
that carries such annotations this way (every expected diagnostic reported, nothing
else: a chunk without annotations must report nothing) and fails on a miss; a file
without any keeps xshard's own mode, which prints the diagnostics for FileCheck.
xshard reports only errors, so an expected warning, remark or note is never produced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ANNOTATION = re.compile(
    r"expected-(error|warning|remark|note)\s*(?:@(above|below|[+-]?\d+))?\s*\{\{(.*?)\}\}"
)
_REPORTED = re.compile(r"^(?:.*?):(\d+):(\d+): error: (.*)$")
_UNLOCATED = re.compile(r"^(?:.*?): error: (.*)$")


@dataclass(frozen=True)
class Expected:
    kind: str
    line: int
    """1-based, in the whole input file."""
    text: str


@dataclass(frozen=True)
class Reported:
    line: int
    """0 for a diagnostic that names no place."""
    column: int
    message: str


def expectations(chunk: str, line_offset: int) -> list[Expected]:
    """The annotations of a chunk whose first line is line `line_offset + 1`."""
    found = []
    for number, line in enumerate(chunk.splitlines(), start=line_offset + 1):
        for kind, where, text in _ANNOTATION.findall(line):
            shift = {"above": -1, "below": 1, "": 0}.get(where)
            found.append(Expected(kind, number + (int(where) if shift is None else shift), text))
    return found


def reported(lines: str) -> list[Reported]:
    """The diagnostics in xshard's `file:line:col: error: message` lines, and in its
    `file: error: message` lines (line 0), which no annotation expects."""
    found = []
    for line in lines.splitlines():
        if m := _REPORTED.match(line):
            found.append(Reported(int(m[1]), int(m[2]), m[3]))
        elif m := _UNLOCATED.match(line):
            found.append(Reported(0, 0, m[1]))
    return found


def mismatches(expected: list[Expected], got: list[Reported], file: str) -> list[str]:
    """One `file:line: error: ...` line per expected diagnostic not reported and per
    diagnostic reported but not expected (empty: the check passes)."""
    unmatched = list(got)
    problems = []
    for e in expected:
        hit = next(
            (
                r
                for r in unmatched
                if e.kind == "error" and r.line == e.line and e.text in r.message
            ),
            None,
        )
        if hit is None:
            problems.append(
                f'{file}:{e.line}: error: expected {e.kind} "{e.text}" was not produced'
            )
        else:
            unmatched.remove(hit)
    problems += [
        f"{file}{f':{r.line}:{r.column}' if r.line else ''}: error: unexpected error: {r.message}"
        for r in unmatched
    ]
    return problems
