"""The command-line tools that scripts in tools/ run, found as the running interpreter's
environment has them: a virtualenv's `bin/` need not be on PATH for `filecheck` or
`xshard-opt` installed in it to be found."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path


def executable(name: str) -> str:
    """The path of `name`: among this interpreter's environment's scripts first (a
    virtualenv's, then those of the Python it was made from, whose packages it may
    see), then on PATH; a missing one ends the script with what to install."""
    folders = (
        Path(sys.executable).parent,
        Path(sysconfig.get_path("scripts")),
        Path(sysconfig.get_path("scripts", vars={"base": sys.base_prefix})),
    )
    for folder in folders:
        if (path := folder / name).is_file() and os.access(path, os.X_OK):
            return str(path)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(
            f"{name} is neither beside {sys.executable} nor on PATH: install xshard with "
            "its test extras (python -m pip install -e '.[test]')"
        )
    return found
