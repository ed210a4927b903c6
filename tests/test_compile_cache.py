"""The persistent cache of partitioned programs: a new `xshard.jit` function (as in a new
process) skips xshard's pipeline for a program compiled before, a changed key compiles
again, and two processes filling one cache at once both get correct programs."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import xshard
from xshard.jax import compile_cache
from xshard.testing.jax_programs import mesh_2x4
from xshard.transforms.spmd_pipeline import SpmdPipelinePass

MESH = mesh_2x4()
X = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)


def f(x):
    return jax.numpy.tanh(x @ x.T) * 2


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(compile_cache, "_directory", None)
    compile_cache.set_cache_dir(tmp_path)
    yield tmp_path
    compile_cache.set_cache_dir(None)


def _jit(**options):
    s = NamedSharding(MESH, P("data"))
    return xshard.jit(f, in_shardings=s, out_shardings=NamedSharding(MESH, P()), **options)


def test_a_second_function_reads_the_program_instead_of_partitioning(cache, monkeypatch):
    want = np.asarray(_jit()(X))
    assert len(list((cache / "xshard").glob("*.json"))) == 1

    def no_pipeline(self):
        raise AssertionError("the pipeline ran on a cached program")

    monkeypatch.setattr(SpmdPipelinePass, "passes", no_pipeline)
    fresh = _jit()
    np.testing.assert_allclose(np.asarray(fresh(X)), want)
    assert fresh.lower(X).collectives() == _jit().lower(X).collectives()


def test_another_key_partitions_again(cache):
    _jit()(X)
    _jit(simplify=False)(X)
    _jit()(X[:, :8].copy())
    assert len(list((cache / "xshard").glob("*.json"))) == 3


def test_an_unreadable_entry_is_compiled_again(cache):
    _jit()(X)
    (entry,) = (cache / "xshard").glob("*.json")
    entry.write_text("{not json")
    np.testing.assert_allclose(np.asarray(_jit()(X)), np.tanh(X @ X.T) * 2, rtol=1e-5)


def test_two_processes_fill_one_cache_at_once(tmp_path):
    script = textwrap.dedent(
        f"""
        import os
        os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
        os.environ["XSHARD_CACHE_DIR"] = {str(tmp_path)!r}
        import numpy as np, jax
        from jax.sharding import NamedSharding, PartitionSpec as P
        import xshard
        from xshard.testing.jax_programs import mesh_2x4
        mesh = mesh_2x4()
        x = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)
        g = xshard.jit(lambda x: jax.numpy.tanh(x @ x.T) * 2,
                       in_shardings=NamedSharding(mesh, P("data")))
        np.testing.assert_allclose(np.asarray(g(x)), np.tanh(x @ x.T) * 2, rtol=1e-5)
        print("ok")
        """
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert all("ok" in out for out in outs)
    assert len(list((Path(tmp_path) / "xshard").glob("*.json"))) == 1
    assert not list((Path(tmp_path) / "xshard").glob("*.tmp"))


_WARM = textwrap.dedent(
    """
    import os, sys
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    os.environ["XSHARD_CACHE_DIR"] = sys.argv[1]
    import numpy as np, jax
    from jax.sharding import NamedSharding, PartitionSpec as P
    import xshard
    from xshard.jax.sharded_jit import Lowered
    from xshard.testing.jax_programs import mesh_2x4
    from xshard.transforms.spmd_pipeline import SpmdPipelinePass
    if sys.argv[2] == "warm":
        def refuse(*args):
            raise AssertionError("a warm process partitioned or compiled")
        SpmdPipelinePass.passes = refuse
        Lowered._compile = refuse
    mesh = mesh_2x4()
    s = NamedSharding(mesh, P("data"))
    g = xshard.jit(lambda x, y: (jax.numpy.tanh(x @ y.T) * 2, y + 1),
                   in_shardings=(s, s), out_shardings=(NamedSharding(mesh, P()), s),
                   donate_argnums=1)
    x = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)
    y = jax.device_put(x[::-1].copy(), s)
    a, b = g(x, y)
    assert y.is_deleted()
    np.testing.assert_allclose(np.asarray(a), np.tanh(x @ x[::-1].T) * 2, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(b), x[::-1] + 1)
    assert b.sharding == s and a.sharding.spec == P()
    print("ok")
    """
)


def _run(cache_dir: Path, mode: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", _WARM, str(cache_dir), mode],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "ok" in run.stdout, run.stderr[-3000:]


def test_a_warm_process_neither_partitions_nor_compiles(tmp_path):
    _run(tmp_path, "cold")
    assert len(list((tmp_path / "xshard").glob("*.xla"))) == 1
    _run(tmp_path, "warm")  # results, result shardings and donation as compiled


def test_an_executable_from_jaxs_cache_is_not_stored(tmp_path):
    """On CPU, an executable JAX's persistent cache gave serializes to one that fails
    when run: xshard compiles through JAX's cache then, and stores nothing."""
    _run(tmp_path, "cold")
    for blob in (tmp_path / "xshard").glob("*.xla"):
        blob.unlink()
    _run(tmp_path, "cold")  # XLA's half from JAX's cache
    assert not list((tmp_path / "xshard").glob("*.xla"))
    _run(tmp_path, "cold")
