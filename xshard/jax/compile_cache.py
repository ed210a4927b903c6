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

Beside each entry, the compiled executable of the call that runs it (JAX's
`serialize_executable`), keyed also by what XLA's compile depends on beyond the
program: the devices by id, the process, the platform's version, `XLA_FLAGS`, the
compiler options and JAX's configuration. A new process then neither runs xshard's
pipeline nor lowers and compiles the call, as a warm `jax.jit` skips XLA's compile.
Loading an executable runs what it holds, as loading one from JAX's own cache does:
keep the cache directory as private as the code that writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jax
from jax.experimental.serialize_executable import serialize
from jax.sharding import Mesh

import xshard

ENV = "XSHARD_CACHE_DIR"
FORMAT = 2
"""The layout of an entry; part of the key."""

_directory: Path | None = None


@dataclass(frozen=True)
class Entry:
    """What xshard's pipeline made of one lowered program."""

    text: str
    """The per-device StableHLO module, as `Lowered.as_text` prints it."""
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


if os.environ.get(ENV):
    set_cache_dir(os.environ[ENV])


def cache_dir() -> Path | None:
    return _directory


def key(text: str, options: dict[str, Any], mesh: Mesh) -> str | None:
    """The entry's key; None while the cache is off (hashing xshard's source files on a
    process's first compile is then time for nothing)."""
    if _directory is None:
        return None
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


def _executable_key(entry: str, mesh: Mesh, compiler_options: dict[str, Any] | None) -> str:
    """The key of the compiled call of the entry of key `entry` on `mesh`'s devices."""
    device = mesh.devices.flat[0]
    parts = {
        "entry": entry,
        "devices": [d.id for d in mesh.devices.flat],
        "process": [jax.process_index(), jax.process_count()],
        "platform": [device.client.platform, device.client.platform_version],
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "compiler_options": sorted((k, repr(v)) for k, v in (compiler_options or {}).items()),
        "config": sorted((k, repr(v)) for k, v in jax.config.values.items() if "cache" not in k),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def executable(
    entry: str | None,
    mesh: Mesh,
    compiler_options: dict[str, Any] | None,
    compile: Callable[[], Any],
    load: Callable[[bytes], Any],
) -> Any:
    """The compiled call of the entry of key `entry` on `mesh` with `compiler_options`:
    `compile()`'s, stored for later processes; with the cache on, the one this process
    already holds, else `load` of the stored one.

    A process never loads an executable twice, nor stores one that JAX's own cache
    gave `compile()`: on CPU, both give executables that fail when run ("Function ...
    not found"), as XLA's code for them is already in the process.
    """
    if _directory is None or entry is None:
        return compile()
    name = _executable_key(entry, mesh, compiler_options)
    if name in _held:
        return _held[name]
    found = None
    try:
        data = (_directory / "xshard" / f"{name}.xla").read_bytes()
    except OSError:
        pass
    else:
        try:
            found = load(data)
        except Exception:  # written by another jaxlib, or damaged: compile again
            found = None
    if found is None:
        hits = _jax_cache_hits()
        found = compile()
        if _jax_cache_hits() == hits:
            try:
                data = serialize(found)[0]
            except Exception:  # JAX cannot serialize it (constants, callbacks): keep none
                pass
            else:
                _write(f"{name}.xla", data)
    _held[name] = found
    return found


_held: dict[str, Any] = {}
"""The executables this process compiled or loaded with the cache on, by key."""

_hits = threading.local()


def _jax_cache_hits() -> int:
    """How many executables JAX's persistent cache has given this thread."""
    return getattr(_hits, "count", 0)


def _count_hit(event: str, **_: Any) -> None:
    if event == "/jax/compilation_cache/cache_hits":
        _hits.count = _jax_cache_hits() + 1


jax.monitoring.register_event_listener(_count_hit)


def load(name: str | None) -> Entry | None:
    """The entry of key `name`, if the cache is on and holds one."""
    if _directory is None or name is None:
        return None
    try:
        data = json.loads((_directory / "xshard" / f"{name}.json").read_text())
        return Entry(**{**data, "out_avals": [tuple(a) for a in data["out_avals"]]})
    except (OSError, ValueError, TypeError):  # absent, or unreadable: compile again
        return None


def store(name: str | None, entry: Entry) -> None:
    """Write the entry of key `name` if the cache is on (atomically)."""
    if name is not None:
        _write(f"{name}.json", json.dumps(asdict(entry)).encode())


def _write(file: str, data: bytes) -> None:
    """`data` to `file` in the cache, if it is on: written apart, then moved in place."""
    if _directory is None:
        return
    folder = _directory / "xshard"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("wb", dir=folder, suffix=".tmp", delete=False) as f:
        f.write(data)
    os.replace(f.name, folder / file)


@cache
def _source_fingerprint() -> str:
    """Names, sizes and modification times of xshard's source files."""
    root = Path(xshard.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()
