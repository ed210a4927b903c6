"""The chunks of a `--split-input-file` lit test that are marked `// numerics`, so a
pytest can run each through `pass_numerics.compare_pass` on its grid's devices (or,
for exported StableHLO, its `mhlo.num_partitions`)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

MARKER = "// numerics"
_GRID = re.compile(r"shard\.grid @\S+\(shape = ([0-9x]+)\)")
_PARTITIONS = re.compile(r"mhlo\.num_partitions = ([0-9]+)")


@dataclass(frozen=True)
class NumericsCase:
    id: str
    """`file:line` of the chunk's marker, for the pytest id."""
    text: str
    devices: int
    """The product of the chunk's (first) grid shape, else its `mhlo.num_partitions`."""


def numerics_cases(path: str | Path) -> list[NumericsCase]:
    path = Path(path)
    cases: list[NumericsCase] = []
    line = 1
    for chunk in path.read_text().split("// -----"):
        if MARKER in chunk:
            grid, partitions = _GRID.search(chunk), _PARTITIONS.search(chunk)
            if grid is not None:
                devices = math.prod(int(d) for d in grid.group(1).split("x"))
            elif partitions is not None:
                devices = int(partitions.group(1))
            else:
                raise ValueError(
                    f"{path.name}:{line}: a numerics chunk needs a static shard.grid "
                    "or mhlo.num_partitions"
                )
            marker_line = line + chunk[: chunk.index(MARKER)].count("\n")
            cases.append(NumericsCase(f"{path.name}:{marker_line}", chunk, devices))
        line += chunk.count("\n")
    return cases
