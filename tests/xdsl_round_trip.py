"""xDSL's own round-trip of MLIR programs, in a process with or without xshard.

    python tests/xdsl_round_trip.py [--with-xshard] < programs.json

Reads `{name: text}` and prints `{"round_trips": {name: output}, "replaced": [...]}` as
JSON. Each program is parsed by xDSL's `Parser` in a context of every dialect xDSL ships
(as `xdsl-opt` loads them), verified, and printed by xDSL's `Printer`, custom then
generic form; or the output is the exception xDSL raised. `replaced` maps each function
of an xDSL module or class whose code is xshard's (what xshard patched in xDSL) to the
file of that code.
`--with-xshard` first imports every module of xshard, so that a change any of them makes
to xDSL for the whole process shows (tests/test_xdsl_compat.py).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from io import StringIO
from pathlib import Path
from typing import Any


def _import_all_of_xshard() -> None:
    import xshard

    for module in pkgutil.walk_packages(xshard.__path__, "xshard."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


def _round_trip(text: str) -> str:
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.printer import Printer
    from xdsl.universe import Universe

    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    try:
        module = Parser(ctx, text).parse_module()
        module.verify()
        out = StringIO()
        Printer(stream=out).print_op(module)
        out.write("\n")
        Printer(stream=out, print_generic_format=True).print_op(module)
        return out.getvalue()
    except Exception as err:  # what xDSL does with the program, crash included
        return f"{type(err).__name__}: {err}"


def _code_file(value: Any) -> str | None:
    if isinstance(value, property):
        value = value.fget
    code = getattr(getattr(value, "__func__", value), "__code__", None)
    return code.co_filename if code is not None else None


def _replaced(root: Path) -> dict[str, str]:
    """`module.Class.name` of every function of xDSL's whose code lies under `root`,
    and that code's file, relative to `root`."""
    found: dict[str, str] = {}
    seen: set[int] = set()

    def scan(owner: str, namespace: dict[str, Any]) -> None:
        for name, value in list(namespace.items()):
            if isinstance(value, type):
                if value.__module__.startswith("xdsl") and id(value) not in seen:
                    seen.add(id(value))
                    scan(f"{value.__module__}.{value.__qualname__}", vars(value))
            elif (path := _code_file(value)) is not None and Path(path).is_relative_to(root):
                found[f"{owner}.{name}"] = Path(path).relative_to(root).as_posix()

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("xdsl"):
            scan(module.__name__, vars(module))
    return found


def main() -> None:
    with_xshard = sys.argv[1:] == ["--with-xshard"]
    if with_xshard:
        _import_all_of_xshard()
    round_trips = {name: _round_trip(text) for name, text in json.load(sys.stdin).items()}
    if not with_xshard and "xshard" in sys.modules:
        sys.exit("xshard was imported in the process meant to run without it")
    root = Path(sys.modules["xshard"].__file__).parent if with_xshard else None
    replaced = _replaced(root) if root is not None else {}
    json.dump({"round_trips": round_trips, "replaced": replaced}, sys.stdout)


if __name__ == "__main__":
    main()
