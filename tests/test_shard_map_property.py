"""`xshard.jit` gives `jax.jit`'s numbers and result shardings on random programs with a
`jax.shard_map` inside: a body has no one-device form, so `jax.jit` of the same function
is the reference.

The programs (`xshard.testing.random_shard_maps.shard_map_programs`) are fully or
partially manual on a 2x4 or 2x2x2 mesh, with collectives, reductions, `lax.cond` and
`lax.fori_loop` in the body and ops before and after the map that make xshard reshard
into and out of it. A refusal (`BridgeError`, `XShardCallError`) fails the test as a
wrong number does. The default run draws 30 programs, the same ones every run;
`--hypothesis-profile=long` draws 1000 fresh ones (docs/testing.md). Programs xshard
failed on stay below as plain tests.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import HealthCheck, event, given, note, settings
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import xshard
from xshard.testing.jax_programs import JaxProgram, mesh_2x4
from xshard.testing.jit_comparison import max_error
from xshard.testing.random_shard_maps import ShardMapProgram, shard_map_programs

TOLERANCE = 1e-4
"""tests/test_jax_programs.py's: rtol 0, atol 1e-4 times the result's magnitude (at least 1)."""


def check(program: JaxProgram, args: tuple[Any, ...]) -> list[bool]:
    """Both compilers on the same placed `args`: the same numbers, and each result laid
    out as jax.jit lays it out where `out_shardings` asks for a layout (where it is None,
    each compiler chooses: whether they agree is returned, one flag per such result)."""
    want = program.jitted()(*args)
    got = xshard.jit(
        program.fn, in_shardings=program.in_shardings, out_shardings=program.out_shardings
    )(*args)
    assert jax.tree.structure(got) == jax.tree.structure(want)
    asked = program.out_shardings
    asked = asked if isinstance(asked, tuple) else (asked,)
    agreed = []
    for a, b, sharding in zip(jax.tree.leaves(got), jax.tree.leaves(want), asked, strict=True):
        same = a.sharding.is_equivalent_to(b.sharding, a.ndim)
        if sharding is None:
            agreed.append(same)
        else:
            assert same, f"laid out {a.sharding.spec}, jax.jit {b.sharding.spec}"
    error = max_error(got, want)
    assert error <= TOLERANCE, f"max error {error}"
    return agreed


@settings(
    # 30 of the default profile's 100 (each program compiles twice through XLA); the long
    # profile's 1000 in full
    max_examples=30 if settings().max_examples <= 100 else settings().max_examples,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(shard_map_programs())
def test_random_shard_maps_match_jax_jit(program: ShardMapProgram):
    note(program.script())
    for feature in sorted(program.features):
        event(feature)
    for same in check(program.program(), program.placed()):
        event(f"unspecified result laid out as jax.jit's: {same}")


# Programs xshard failed on, shortened to what failed: found by the search, or by
# probing ops next to the ones it draws.


def test_a_shard_map_whose_mesh_no_sharding_names():
    """xshard.jit took its mesh only from NamedShardings; the shard_map's is enough."""
    mesh = mesh_2x4()

    def f(x):
        return jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)

    x = np.linspace(-1, 1, 8, dtype=np.float32)
    check(JaxProgram("mesh_of_the_shard_map", f, (x,), None, None), (x,))


def test_a_cumsum_along_a_dim_split_over_a_free_axis():
    """A cumsum is a reduce_window whose halo (7, 0) is wider than a block of 4 cells: the
    option that splits its dim does not fit (`ShardingRule.min_blocks`), so the dim is
    gathered for it, inside the shard_map body as outside."""
    mesh = mesh_2x4()

    def f(x):
        return jax.shard_map(
            lambda a: jnp.cumsum(a, axis=0),
            mesh=mesh,
            in_specs=P(None, "model"),
            out_specs=P(None, "model"),
            axis_names={"model"},
        )(x)

    x = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)
    data = NamedSharding(mesh, P("data"))
    check(JaxProgram("cumsum_over_a_free_split", f, (x,), data, None), jax.device_put((x,), data))
