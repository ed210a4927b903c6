"""The passes `xshard-opt --help` and `--list-passes` show: xshard's first, by phase
(the phases of docs/passes.md and of `xshard/transforms/`'s folders), one line each
with the first sentence of the pass class's docstring; then, for `--list-passes`,
xDSL's own, by name only, since there are a hundred and more of them.
"""

from __future__ import annotations

import re
import textwrap

from xdsl.passes import ModulePass
from xdsl.universe import Universe

from xshard.transforms import get_xshard_passes

PHASES = (
    "pipeline",
    "import",
    "propagation",
    "partition",
    "simplify",
    "export",
    "analysis",
    "any phase",
    "upstream test",
)
_OUTSIDE_PHASES = {"xshard-spmd": "pipeline"}
"""Passes of no phase folder (`xshard/transforms/*.py`) other than `any phase`."""
WIDTH = 100


def phase(name: str, cls: type[ModulePass]) -> str:
    """Upstream's test passes (kept under upstream's names for its RUN lines) apart;
    the others by the folder of their module, `xshard.transforms.<phase>.<module>`."""
    if name.startswith("test-"):
        return "upstream test"
    parts = cls.__module__.split(".")
    return parts[2] if len(parts) > 3 else _OUTSIDE_PHASES.get(name, "any phase")


def summary(cls: type[ModulePass]) -> str:
    """The first sentence of the class's docstring, without its full stop; empty where
    the class has none (a dataclass's `__doc__` is then its signature)."""
    doc = cls.__doc__ or ""
    if doc.startswith(f"{cls.__name__}("):
        return ""
    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    return re.split(r"(?<=\.)\s", paragraph)[0].removesuffix(".")


def xshard_lines() -> list[str]:
    """One line per xshard pass, grouped by phase (in registry order within one)."""
    passes = [(name, factory()) for name, factory in get_xshard_passes().items()]
    passes.sort(key=lambda item: PHASES.index(phase(*item)))
    width = max(len(name) for name, _ in passes)
    label_width = max(map(len, PHASES))
    lines: list[str] = []
    previous = ""
    for name, cls in passes:
        label = phase(name, cls)
        shown = label if label != previous else ""
        lines.append(f"  {shown:<{label_width}}  {name:<{width}}  {summary(cls)}".rstrip())
        previous = label
    return lines


def help_section() -> str:
    """What `--help` shows after the options."""
    title = "passes, by phase (-p 'NAME,NAME{option=value ...}'; xDSL's too: --list-passes):"
    return "\n".join([title, *xshard_lines()]) + "\n"


def listing() -> str:
    """What `--list-passes` prints."""
    xshard = set(get_xshard_passes())
    xdsl = sorted(set(Universe.get_multiverse().all_passes) - xshard)
    wrapped = textwrap.wrap(
        ", ".join(xdsl),
        WIDTH,
        initial_indent="  ",
        subsequent_indent="  ",
        break_on_hyphens=False,
        break_long_words=False,
    )
    return (
        "\n".join(
            [
                "xshard's passes, by phase (docs/passes.md has a page for each):",
                *xshard_lines(),
                "",
                f"xDSL's passes ({len(xdsl)}; xDSL's `canonicalize` is replaced by xshard's):",
                *wrapped,
            ]
        )
        + "\n"
    )
