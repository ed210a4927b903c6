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
