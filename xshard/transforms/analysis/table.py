"""Tables printed as `//` comment lines, so that the output stays parseable IR."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def comment_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Left-aligned columns two spaces apart, each line starting with `// `."""
    widths = [max(len(r[i]) for r in (columns, *rows)) for i in range(len(columns))]
    return [
        "// " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in (columns, *rows)
    ]


def write_report(text: str, file: str | None) -> None:
    """To stdout, or appended to `file`, so that every chunk of a `--split-input-file`
    run, and every report pass of one pipeline, keeps its report."""
    if file is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        with open(file, "a") as f:
            f.write(text)
