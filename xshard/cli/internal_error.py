"""How xshard's command-line tools report their own bugs: one line, exit code 2."""

from __future__ import annotations

import os
import sys


def report_internal_error(prog: str, err: Exception) -> int:
    """Print `prog: internal error: ...` and return exit code 2; with XSHARD_TRACEBACK set,
    re-raise instead, for the full traceback. Call it from inside the `except` block."""
    if os.environ.get("XSHARD_TRACEBACK"):
        raise err
    print(
        f"{prog}: internal error: {type(err).__name__}: {err} "
        "(set XSHARD_TRACEBACK=1 for the traceback)",
        file=sys.stderr,
    )
    return 2
