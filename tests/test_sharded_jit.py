"""`xshard.jit`, the drop-in for `jax.jit`: same function, same NamedShardings, jax.Arrays
back, checked against `jax.jit` on the real programs of `xshard.testing.jax_programs`
(8 simulated CPU devices, a 2x4 mesh), on bad calls, and under `jax.distributed` with
2 processes of 4 devices each.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import xshard
from xshard.jax import BridgeError, XShardCallError
from xshard.jax.hlo_collectives import hlo_rows
from xshard.testing.jax_programs import PROGRAMS, mesh_2x4

MESH = mesh_2x4()


def ns(*spec):
    return NamedSharding(MESH, P(*spec))


@pytest.fixture(scope="module", params=sorted(PROGRAMS))
def program(request):
    return PROGRAMS[request.param](MESH)


def _close(got, want):
    want = np.asarray(want)
    scale = max(1.0, float(np.abs(want).max(initial=0.0)))
    np.testing.assert_allclose(np.asarray(got), want, rtol=0, atol=1e-4 * scale)


def test_real_programs_match_jax_jit_with_the_requested_shardings(program):
    f = xshard.jit(program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings)
    got = f(*program.args)
    want = program.jitted()(*program.args)
    assert jax.tree.structure(got) == jax.tree.structure(want)
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
        assert isinstance(a, jax.Array)
        assert a.sharding.is_equivalent_to(b.sharding, a.ndim), (a.sharding, b.sharding)
        _close(a, b)
    lowered = f.lower(*program.args)
    text = lowered.as_text()
    assert "sdy." not in text and "shard." not in text  # xshard's per-device StableHLO
    # XLA's compiled programs on both sides: XLA combines xshard's all_reduces as jax.jit's.
    ours = hlo_rows(lowered.compile().as_text(), 8)
    xla = hlo_rows(program.jitted().lower(*program.args).compile().as_text(), 8)
    assert len(ours) <= len(xla), (Counter(r.kind for r in ours), Counter(r.kind for r in xla))


def _mlp():
    def f(p, x):
        return jnp.tanh(x @ p["w"]) @ p["v"]

    rng = np.random.default_rng(0)
    params = {
        "w": rng.standard_normal((16, 32)).astype(np.float32),
        "v": rng.standard_normal((32, 16)).astype(np.float32),
    }
    x = rng.standard_normal((8, 16)).astype(np.float32)
    shardings = ({"w": ns(None, "model"), "v": ns("model", None)}, ns("data"))
    return f, params, x, shardings


def test_placed_inputs_are_used_in_place_and_compiled_once():
    f, params, x, shardings = _mlp()
    g = xshard.jit(f, in_shardings=shardings, out_shardings=ns("data"))
    placed = jax.device_put((params, x), shardings)
    first = g(*placed)
    second = g(params, x)  # host inputs: the same signature, placed by the call
    assert len(g._cache) == 1
    np.testing.assert_array_equal(np.asarray(first), np.asarray(second))
    _close(first, jax.jit(f)(params, x))
    compiled = g.lower(*placed).compile()
    _close(compiled(*placed), first)
    assert "all-reduce" in compiled.as_text()


def test_compiled_reports_memory_and_cost_as_jax_jit_does():
    f, params, x, shardings = _mlp()
    ours = xshard.jit(f, in_shardings=shardings, out_shardings=ns("data")).lower(params, x).compile()
    theirs = jax.jit(f, in_shardings=shardings, out_shardings=ns("data")).lower(params, x).compile()
    mine, want = ours.memory_analysis(), theirs.memory_analysis()
    # One device's figures: the same shardings hold the same per-device arguments and results.
    assert mine.argument_size_in_bytes == want.argument_size_in_bytes == (16 * 8 + 8 * 16 + 4 * 16) * 4
    assert mine.output_size_in_bytes == want.output_size_in_bytes == 4 * 16 * 4
    assert type(mine) is type(want)  # XLA's CompiledMemoryStats, temp_size_in_bytes and all
    cost = ours.cost_analysis()
    assert cost["flops"] > 0 and set(cost) >= {"flops", "bytes accessed"}


def test_unspecified_shardings_come_from_the_committed_arguments():
    f, params, x, shardings = _mlp()
    placed = jax.device_put((params, x), shardings)
    g = xshard.jit(f)
    got = g(*placed)
    _close(got, jax.jit(f)(params, x))
    assert got.sharding.mesh == MESH
    assert g.lower(*placed).collectives() == {"all_reduce": (1, 256)}


def test_empty_intermediates_partition():
    """`jnp.pad(..., mode="edge")` broadcasts and reshapes empty tensors (a dim of 0)
    where a side has no padding: there is nothing in them to split or to move, and the
    program runs as `jax.jit`'s does."""

    def f(x):
        return jnp.pad(x, ((0, 0), (1, 3), (0, 0)), mode="edge")

    x = np.arange(4 * 16 * 8, dtype=np.float32).reshape(4, 16, 8) / 100
    rows = ns("data", "model")
    np.testing.assert_allclose(
        xshard.jit(f, in_shardings=rows)(x), jax.jit(f, in_shardings=rows)(x), rtol=1e-6
    )


def test_a_new_shape_compiles_a_new_signature():
    def f(x):
        return jnp.sum(x * 2, axis=0)

    g = xshard.jit(f, in_shardings=ns("data", "model"), out_shardings=ns("model"))
    for rows in (4, 8):
        x = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)
        _close(g(x), f(x))
    assert len(g._cache) == 2


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda g, p, x: g(p, jax.device_put(x, ns("model"))),
            r"args\[1\] is float32\[8,16\] sharded P\('model',\) on mesh \{'data': 2, "
            r"'model': 4\}, expected float32\[8,16\] sharded P\('data',\)",
        ),
        (
            lambda g, p, x: g(p, np.ones((8, 8), np.float32)),
            r"args\[1\] is float32\[8,8\], compiled for float32\[8,16\], and fn does not "
            r"trace at the new types",
        ),
        (
            lambda g, p, x: g(p, x, x),
            r"f\(p, x\) takes 2 required arguments, called with 3 positional and 0 keyword: "
            r"too many positional arguments",
        ),
        (
            lambda g, p, x: g(p),
            r"f\(p, x\) takes 2 required arguments, called with 1 positional and 0 keyword: "
            r"missing a required argument: 'x'",
        ),
        (
            lambda g, p, x: g({"w": p["w"]}, x),
            r"in_shardings do not match the structure",
        ),
        (
            lambda g, p, x: g.lower(p, x).compile()(p, np.ones((8, 8), np.float32)),
            r"args\[1\] is float32\[8,8\], expected float32\[8,16\] sharded P\('data',\)",
        ),
        (
            lambda g, p, x: g.lower(p, x).compile()({**p, "w": jax.device_put(p["w"], ns())}, x),
            r"args\[0\]\['w'\] is float32\[16,32\] sharded P\(\) .*expected float32\[16,32\] "
            r"sharded P\(None, 'model'\)",
        ),
    ],
    ids=["sharding", "shape", "extra", "missing", "structure", "compiled-shape",
         "compiled-sharding"],
)
def test_a_call_that_does_not_fit_names_the_argument(call, message):
    f, params, x, shardings = _mlp()
    g = xshard.jit(f, in_shardings=shardings, out_shardings=ns("data"))
    g(params, x)
    with pytest.raises(XShardCallError, match=message):
        call(g, params, x)


def test_a_program_xshard_cannot_partition_is_a_bridge_error_with_its_location():
    """A foreign function's custom call says nothing of its dims: refused at the op."""

    def with_kernel(x):
        y = jax.ffi.ffi_call("my_kernel", jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
        return y + 1

    g = xshard.jit(with_kernel, in_shardings=ns("data"), out_shardings=ns("data"))
    with pytest.raises(BridgeError, match=r"<jax:with_kernel>:\d+:\d+: error: .*@my_kernel is opaque"):
        g(np.ones((8, 4), np.float32))


def test_an_unknown_pipeline_option_is_refused_at_once():
    with pytest.raises(TypeError):
        xshard.jit(lambda x: x, in_shardings=ns(), out_shardings=ns(), no_such_option=1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def test_two_processes_under_jax_distributed_match_jax_jit():
    worker = Path(__file__).with_name("multiprocess_jit_worker.py")
    port = str(_free_port())
    procs = [
        subprocess.Popen(
            [sys.executable, str(worker), str(i), port],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
        reports += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(reports) == 4, reports
    for name in {r["program"] for r in reports}:
        assert len({r["program_sha256"] for r in reports if r["program"] == name}) == 1
    for report in reports:
        assert (report["processes"], report["devices"], report["local_devices"]) == (2, 8, 4)
        assert report["same_shardings"], report
        assert report["max_error"] < 1e-4, report


MESH_3D = jax.sharding.Mesh(np.array(jax.devices()[:8]).reshape(2, 2, 2), ("a", "b", "c"))


@st.composite
def _specs(draw, rank: int) -> P:
    """A PartitionSpec of `rank` dims on MESH_3D: each axis on one dim or none, in a
    drawn order (so dims split over several axes, major to minor, come up)."""
    axes = draw(st.permutations(MESH_3D.axis_names))
    dims: list[list[str]] = [[] for _ in range(rank)]
    for axis in axes:
        where = draw(st.integers(-1, rank - 1))
        if where >= 0:
            dims[where].append(axis)
    return P(*(tuple(d) if len(d) > 1 else (d[0] if d else None) for d in dims))


@settings(max_examples=12, deadline=None)
@given(x_spec=_specs(2), w_spec=_specs(2), out_spec=_specs(2), row_spec=_specs(1))
def test_random_specs_on_a_3d_mesh_match_jax_jit(x_spec, w_spec, out_spec, row_spec):
    def f(x, w):
        h = jnp.tanh(x @ w)
        return h, jnp.sum(h * h, axis=1)

    rng = np.random.default_rng(1)
    x = rng.standard_normal((8, 16)).astype(np.float32)
    w = rng.standard_normal((16, 8)).astype(np.float32)
    shard = lambda spec: NamedSharding(MESH_3D, spec)  # noqa: E731
    g = xshard.jit(
        f,
        in_shardings=(shard(x_spec), shard(w_spec)),
        out_shardings=(shard(out_spec), shard(row_spec)),
    )
    got, want = g(x, w), f(x, w)
    for a, b, spec in zip(got, want, (out_spec, row_spec), strict=True):
        assert a.sharding.is_equivalent_to(shard(spec), a.ndim)
        _close(a, b)
