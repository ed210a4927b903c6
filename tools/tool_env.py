"""The command-line tools that scripts in tools/ run, found as the running interpreter's
environment has them: a virtualenv's `bin/` need not be on PATH for `filecheck` or
`xshard-opt` installed in it to be found."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def executable(name: str) -> str:
    """The path of `name`: beside this interpreter first (its environment's scripts),
    then on PATH; a missing one ends the script with what to install."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(
            f"{name} is neither beside {sys.executable} nor on PATH: install xshard with "
            "its test extras (python -m pip install -e '.[test]')"
        )
    return found
