"""Tables printed as `//` comment lines, so that the output stays parseable IR."""

from __future__ import annotations

from collections.abc import Sequence


def comment_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Left-aligned columns two spaces apart, each line starting with `// `."""
    widths = [max(len(r[i]) for r in (columns, *rows)) for i in range(len(columns))]
    return [
        "// " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in (columns, *rows)
    ]
