"""A persistent cache of the programs xshard partitions, so that a new process skips
xshard's pipeline for a function it has compiled before.

Opt in with the environment variable `XSHARD_CACHE_DIR`, or `set_cache_dir(path)`
(`xshard.jax.set_cache_dir`). Entries go under `path/xshard`; where JAX's own
persistent compilation cache is not set yet, it is set to `path/xla` (with no minimum
compile time), so that XLA's half of a compile is cached too.

An entry's key is the SHA-256 of what decides the result: JAX's lowered module text,
the pipeline's options, the mesh (axis names and sizes, platform and device kind), the
versions of xshard and jax, and a fingerprint of xshard's own source files (so that an
edited checkout never reads an entry an older one wrote). Any change of these is a new
key. An entry is a JSON file written to a temporary name in the same directory and
moved into place (`os.replace`), so a reader never sees half of one, and two
processes writing the same key write the same content.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jax
from jax.sharding import Mesh

import xshard

ENV = "XSHARD_CACHE_DIR"
FORMAT = 1
"""The layout of an entry; part of the key."""

_directory: Path | None = Path(os.environ[ENV]) if os.environ.get(ENV) else None


@dataclass(frozen=True)
class Entry:
    """What xshard's pipeline made of one lowered program."""

    text: str
    """The per-device StableHLO module, as `Lowered.as_text` prints it."""
    embeddable: str
    """The same, as a callee inside the `shard_map` that runs it."""
    in_specs: list[list[list[str]] | None]
    """Per argument, the mesh axes of each dim its layout splits (None: whole)."""
    out_specs: list[list[list[str]] | None]
    out_avals: list[tuple[list[int], str]]
    """Per result of the per-device program: its local shape and dtype."""


def set_cache_dir(path: str | os.PathLike[str] | None) -> None:
    """Cache partitioned programs under `path` (None: stop caching); JAX's persistent
    compilation cache goes to `path/xla` where it is not set already."""
    global _directory
    _directory = None if path is None else Path(path)
    if _directory is not None and not jax.config.jax_compilation_cache_dir:
        jax.config.update("jax_compilation_cache_dir", str(_directory / "xla"))
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)


def cache_dir() -> Path | None:
    return _directory


def key(text: str, options: dict[str, Any], mesh: Mesh) -> str:
    device = mesh.devices.flat[0]
    parts = {
        "format": FORMAT,
        "xshard": xshard.__version__,
        "source": _source_fingerprint(),
        "jax": jax.__version__,
        "options": sorted((k, repr(v)) for k, v in options.items()),
        "mesh": [list(mesh.axis_names), list(mesh.devices.shape)],
        "device": [device.platform, getattr(device, "device_kind", "")],
    }
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode())
    digest.update(text.encode())
    return digest.hexdigest()


def load(name: str) -> Entry | None:
    """The entry of key `name`, if the cache is on and holds one."""
    if _directory is None:
        return None
    try:
        data = json.loads((_directory / "xshard" / f"{name}.json").read_text())
        return Entry(**{**data, "out_avals": [tuple(a) for a in data["out_avals"]]})
    except (OSError, ValueError, TypeError):  # absent, or unreadable: compile again
        return None


def store(name: str, entry: Entry) -> None:
    """Write the entry of key `name` if the cache is on (atomically)."""
    if _directory is None:
        return
    folder = _directory / "xshard"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False) as f:
        json.dump(asdict(entry), f)
    os.replace(f.name, folder / f"{name}.json")


@cache
def _source_fingerprint() -> str:
    """Names, sizes and modification times of xshard's source files."""
    root = Path(xshard.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()
