"""GSPMD's `mhlo.sharding` strings, read into grids and `Sharding`s.

Older JAX (`jax_use_shardy_partitioner=False`) prints shardings as XLA's HloSharding
text: `{replicated}`, `{devices=[2,1,4]<=[8] last_tile_dim_replicate}`,
`{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}`, `{devices=[2,2]0,2,1,3}`.
A tiled sharding gives each tile dim a list of devices; there is no mesh. Each tile dim
is read as a mixed-radix number over factors `(size, stride)` of the device id (device
= sum of coordinate x stride); the factors of every sharding of a program, cut at each
other's boundaries, are the axes of one grid (major axis = largest stride), and each
tile dim is split over the grid axes its factors cover. A device order no grid gives
is refused (`GspmdError`), as are maximal and manual shardings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from xshard.sharding.errors import ShardingError
from xshard.sharding.sharding import Sharding

Factor = tuple[int, int]
"""`(size, stride)`: a coordinate in `range(size)` adds `coordinate * stride` to the id."""


class GspmdError(ShardingError):
    """A sharding string xshard does not read, or cannot lay out on a grid."""


@dataclass(frozen=True)
class HloSharding:
    """A parsed `mhlo.sharding`: replicated, or tiled with per-dim factors."""

    replicated: bool
    dims: tuple[tuple[Factor, ...], ...] = ()
    """Per tensor dim, its factors major to minor (tile dims of size 1 have none)."""
    spare: tuple[Factor, ...] = ()
    """Factors of the replicated trailing tile dim (`last_tile_dim_replicate`)."""

    def factors(self) -> list[Factor]:
        return [f for dim in self.dims for f in dim] + list(self.spare)


_TILED = re.compile(
    r"devices=\[([\d,]+)\]"
    r"(?:<=\[([\d,]+)\](?:T\(([\d,]+)\))?|([\d,]+))"
    r"(?:\s+(last_tile_dim_replicate|last_tile_dims=\{([^}]*)\}))?\s*$"
)


def parse_hlo_sharding(text: str, rank: int, devices: int) -> HloSharding:
    """The sharding `text` gives a tensor of `rank` dims on `devices` devices."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise GspmdError(f"expected an HloSharding like '{{replicated}}', got '{text}'")
    body = body[1:-1].strip()
    if body in ("replicated", ""):
        return HloSharding(True)
    if body.startswith("maximal"):
        raise GspmdError(f"a maximal sharding ('{text}') puts the value on one device only")
    if body == "manual":
        raise GspmdError(
            "a manual sharding ('{manual}', from shard_map) holds per-device code, which "
            "xshard does not import"
        )
    if body.startswith("{"):
        raise GspmdError(f"tuple shardings are not supported: '{text}'")
    m = _TILED.fullmatch(body)
    if m is None:
        raise GspmdError(f"cannot read the sharding '{text}'")
    # Not at import: `xshard-spmd` loads this module, and most programs hold no GSPMD string.
    import numpy as np

    tile = [int(d) for d in m[1].split(",")]
    if m[2] is not None:
        shape = [int(d) for d in m[2].split(",")]
        ids = np.arange(prod(shape)).reshape(shape)
        if m[3] is not None:
            ids = ids.transpose([int(p) for p in m[3].split(",")])
    else:
        ids = np.array([int(d) for d in m[4].split(",")])
    if ids.size != prod(tile) or sorted(ids.flatten().tolist()) != list(range(prod(tile))):
        raise GspmdError(f"'{text}' does not list each of its {prod(tile)} devices once")
    if prod(tile) != devices:
        raise GspmdError(f"'{text}' tiles over {prod(tile)} devices, the program has {devices}")
    ids = ids.reshape(tile)
    spare_dims = 0
    if m[5] == "last_tile_dim_replicate":
        spare_dims = 1
    elif m[6] is not None:
        kinds = [k.strip() for k in m[6].split(",")]
        if any(k != "replicated" for k in kinds):
            raise GspmdError(f"'{text}': only replicated trailing tile dims are supported")
        spare_dims = len(kinds)
    if len(tile) - spare_dims != rank:
        raise GspmdError(f"'{text}' tiles {len(tile) - spare_dims} dims, the tensor has {rank}")
    factors = [_dim_factors(ids, k, text) for k in range(len(tile))]
    _check_affine(ids, factors, text)
    spare = tuple(f for fs in factors[rank:] for f in fs)
    return HloSharding(False, tuple(tuple(fs) for fs in factors[:rank]), spare)


def _dim_factors(ids: np.ndarray, dim: int, text: str) -> list[Factor]:
    """The factors of tile dim `dim`, major to minor, read along that dim from tile 0."""
    import numpy as np

    seq = [int(v) for v in np.moveaxis(ids, dim, 0).reshape(ids.shape[dim], -1)[:, 0]]
    base = seq[0]
    seq = [v - base for v in seq]
    out: list[Factor] = []
    while len(seq) > 1:
        n = len(seq)
        for f in (d for d in range(n, 1, -1) if n % d == 0):  # largest first: fewest axes
            stride = seq[1]
            steps = ((a * f, b) for a in range(n // f) for b in range(f))
            if all(seq[start + b] == seq[start] + b * stride for start, b in steps):
                out.append((f, stride))
                seq = seq[::f]
                break
        else:
            raise GspmdError(f"the device order of '{text}' is not the one of any grid")
    return out[::-1]


def _check_affine(ids: np.ndarray, factors: list[list[Factor]], text: str) -> None:
    import numpy as np

    expected = np.zeros(ids.shape, dtype=np.int64)
    for dim, fs in enumerate(factors):
        coord = np.arange(ids.shape[dim])
        value = np.zeros_like(coord)
        for size, stride in fs[::-1]:
            value += (coord % size) * stride
            coord //= size
        shape = [1] * ids.ndim
        shape[dim] = ids.shape[dim]
        expected = expected + value.reshape(shape)
    if not np.array_equal(expected, ids):
        raise GspmdError(f"the device order of '{text}' is not the one of any grid")


def common_grid(shardings: Sequence[HloSharding], devices: int) -> list[Factor]:
    """The axes, major first, that every sharding's factors are unions of."""
    cuts = {1, devices}
    for s in shardings:
        for size, stride in s.factors():
            cuts |= {stride, stride * size}
    bounds = sorted(cuts)
    axes: list[Factor] = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        if hi % lo:
            raise GspmdError("the shardings of this program fit no single grid")
        axes.append((hi // lo, lo))
    return axes[::-1]


def to_sharding(s: HloSharding, grid: str, axes: Sequence[Factor]) -> Sharding:
    """`s` on the grid of `axes` (as `common_grid` gives them)."""
    if s.replicated:
        return Sharding(grid)
    split: list[list[int]] = []
    for factors in s.dims:
        dim: list[int] = []
        for size, stride in factors:
            covered = [i for i, (n, st) in enumerate(axes) if stride <= st < stride * size]
            if prod(axes[i][0] for i in covered) != size:
                raise GspmdError("a sharding's factor is not a union of grid axes")
            dim += covered  # `axes` is major first, so is `covered`
        split.append(dim)
    return Sharding.of(grid, split)
