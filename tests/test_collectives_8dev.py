"""The six StableHLO collectives on 8 simulated CPU devices, every device's result
checked against the numpy model of the spec in `collective_model.py`.

Modules are per-device (partition-mode) text written as jax-xla.md §3 says.
`collective_broadcast` does not run on XLA:CPU: its CPU equivalent from the
`convert-broadcast-to-all-reduce` pass runs instead, and the native op is checked in
jaxlib's StableHLO reference interpreter (and natively where a GPU exists).
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import collective_model as model  # noqa: E402
import jax  # noqa: E402

from xshard.context import xshard_context  # noqa: E402
from xshard.diagnostics import DiagnosticError  # noqa: E402
from xshard.jax import BridgeError, run_spmd  # noqa: E402
from xshard.testing.pass_numerics import parse  # noqa: E402
from xshard.transforms.export.convert_broadcast_to_all_reduce import (  # noqa: E402
    ConvertBroadcastToAllReducePass,
)

N = 8
LOCAL = (8, 4)
CHANNEL = "#stablehlo.channel_handle<handle = 1, type = 1>"

GROUPINGS = {
    "whole": [list(range(8))],
    "rows": [[0, 1, 2, 3], [4, 5, 6, 7]],
    "columns": [[0, 4], [1, 5], [2, 6], [3, 7]],
    "permuted_pairs": [[3, 1], [0, 2], [7, 5], [6, 4]],
    "permuted_quads": [[5, 2, 7, 0], [1, 6, 3, 4]],
}
COMBINERS = {"sum": "add", "max": "maximum", "min": "minimum", "product": "multiply"}


def tensor(shape: tuple[int, ...], element: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


def dense_groups(groups: list[list[int]]) -> str:
    rows = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups)
    return f"dense<[{rows}]> : tensor<{len(groups)}x{len(groups[0])}xi64>"


def per_device_module(arg: str, result: str, body: list[str], value: str) -> str:
    """A partition-mode module: `{manual}` on @main's argument and result."""
    lines = "\n    ".join(body)
    return f"""
module @collective attributes {{mhlo.num_partitions = {N} : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func public @main(%x: {arg} {{mhlo.sharding = "{{manual}}"}})
      -> ({result} {{mhlo.sharding = "{{manual}}"}}) {{
    {lines}
    return {value} : {result}
  }}
}}"""


def region(kind: str, element: str) -> list[str]:
    scalar = f"tensor<{element}>"
    return [
        f"^bb0(%a: {scalar}, %b: {scalar}):",
        f'  %c = "stablehlo.{COMBINERS[kind]}"(%a, %b) : ({scalar}, {scalar}) -> {scalar}',
        f'  "stablehlo.return"(%c) : ({scalar}) -> ()',
    ]


def inputs(seed: int, element: np.dtype = np.float32) -> list[np.ndarray]:
    """Small integers (exact in f32 under any summation order), distinct per device."""
    rng = np.random.default_rng(seed)
    return [rng.integers(-9, 10, LOCAL).astype(element) for _ in range(N)]


def run(module: str, xs: list[np.ndarray]) -> list[np.ndarray]:
    (outs,) = run_spmd(module, [xs], N, platform="cpu")
    return outs


def assert_per_device(got: list[np.ndarray], expected: list[np.ndarray]) -> None:
    assert len(got) == len(expected) == N
    for k, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g.shape == e.shape, f"device {k}"
        np.testing.assert_array_equal(g, e, err_msg=f"device {k}")


@pytest.mark.parametrize("grouping", GROUPINGS)
@pytest.mark.parametrize("kind", ["sum", "max", "min", "product"])
def test_all_reduce(kind: str, grouping: str):
    groups = GROUPINGS[grouping]
    t = tensor(LOCAL)
    body = [
        f'%r = "stablehlo.all_reduce"(%x) <{{channel_handle = {CHANNEL}, '
        f"replica_groups = {dense_groups(groups)}, use_global_device_ids}}> ({{",
        *region(kind, "f32"),
        f"}}) : ({t}) -> {t}",
    ]
    xs = inputs(1) if kind != "product" else [np.clip(x, -3, 3) for x in inputs(1)]
    got = run(per_device_module(t, t, body, "%r"), xs)
    assert_per_device(got, model.all_reduce(xs, groups, kind))


@pytest.mark.parametrize("grouping", ["whole", "permuted_quads"])
def test_all_reduce_integers(grouping: str):
    groups = GROUPINGS[grouping]
    t = tensor(LOCAL, "i32")
    body = [
        f'%r = "stablehlo.all_reduce"(%x) <{{channel_handle = {CHANNEL}, '
        f"replica_groups = {dense_groups(groups)}, use_global_device_ids}}> ({{",
        *region("sum", "i32"),
        f"}}) : ({t}) -> {t}",
    ]
    xs = inputs(2, np.int32)
    got = run(per_device_module(t, t, body, "%r"), xs)
    assert_per_device(got, model.all_reduce(xs, groups, "sum"))


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("grouping", GROUPINGS)
def test_all_gather(grouping: str, dim: int):
    groups = GROUPINGS[grouping]
    size = len(groups[0])
    result_shape = tuple(d * size if i == dim else d for i, d in enumerate(LOCAL))
    t, r = tensor(LOCAL), tensor(result_shape)
    body = [
        f'%r = "stablehlo.all_gather"(%x) <{{all_gather_dim = {dim} : i64, '
        f"channel_handle = {CHANNEL}, replica_groups = {dense_groups(groups)}, "
        f"use_global_device_ids}}> : ({t}) -> {r}"
    ]
    xs = inputs(3)
    got = run(per_device_module(t, r, body, "%r"), xs)
    assert_per_device(got, model.all_gather(xs, groups, dim))


@pytest.mark.parametrize("grouping", GROUPINGS)
@pytest.mark.parametrize("kind", ["sum", "max"])
def test_reduce_scatter(kind: str, grouping: str):
    groups = GROUPINGS[grouping]
    result_shape = (LOCAL[0] // len(groups[0]), LOCAL[1])
    t, r = tensor(LOCAL), tensor(result_shape)
    body = [
        f'%r = "stablehlo.reduce_scatter"(%x) <{{channel_handle = {CHANNEL}, '
        f"replica_groups = {dense_groups(groups)}, scatter_dimension = 0 : i64, "
        "use_global_device_ids}> ({",
        *region(kind, "f32"),
        f"}}) : ({t}) -> {r}",
    ]
    xs = inputs(4)
    got = run(per_device_module(t, r, body, "%r"), xs)
    assert_per_device(got, model.reduce_scatter(xs, groups, 0, kind))


@pytest.mark.parametrize(("split_dim", "concat_dim"), [(0, 1), (0, 0)])
@pytest.mark.parametrize("grouping", GROUPINGS)
def test_all_to_all(grouping: str, split_dim: int, concat_dim: int):
    groups = GROUPINGS[grouping]
    count = len(groups[0])
    shape = list(LOCAL)
    shape[split_dim] //= count
    shape[concat_dim] *= count
    t, r = tensor(LOCAL), tensor(tuple(shape))
    body = [
        f'%r = "stablehlo.all_to_all"(%x) <{{channel_handle = {CHANNEL}, '
        f"concat_dimension = {concat_dim} : i64, replica_groups = {dense_groups(groups)}, "
        f"split_count = {count} : i64, split_dimension = {split_dim} : i64}}> : ({t}) -> {r}"
    ]
    xs = inputs(5)
    got = run(per_device_module(t, r, body, "%r"), xs)
    assert_per_device(got, model.all_to_all(xs, groups, split_dim, concat_dim))


PERMUTATIONS = {
    "ring": [(k, (k + 1) % 8) for k in range(8)],
    "ring_in_rows": [(k, 4 * (k // 4) + (k + 1) % 4) for k in range(8)],
    "swap_columns": [(k, (k + 4) % 8) for k in range(8)],
    "scrambled": [(0, 5), (5, 3), (3, 6), (6, 0), (1, 7), (7, 2), (2, 4), (4, 1)],
    "partial": [(7, 0), (2, 3), (3, 1)],
}


@pytest.mark.parametrize("pairs", PERMUTATIONS)
def test_collective_permute(pairs: str):
    source_target = PERMUTATIONS[pairs]
    t = tensor(LOCAL)
    dense = ", ".join(f"[{s}, {d}]" for s, d in source_target)
    body = [
        f'%r = "stablehlo.collective_permute"(%x) <{{channel_handle = {CHANNEL}, '
        f"source_target_pairs = dense<[{dense}]> : tensor<{len(source_target)}x2xi64>}}> "
        f": ({t}) -> {t}"
    ]
    xs = inputs(6)
    got = run(per_device_module(t, t, body, "%r"), xs)
    assert_per_device(got, model.collective_permute(xs, source_target))


BROADCAST_GROUPINGS = {
    **GROUPINGS,
    "some_in_no_group": [[2, 1]],
    "ragged_cover": [[6, 1, 3], [0, 4, 5]],
}


def native_broadcast_body(groups: list[list[int]], t: str) -> list[str]:
    return [
        f'%r = "stablehlo.collective_broadcast"(%x) <{{channel_handle = {CHANNEL}, '
        f"replica_groups = {dense_groups(groups)}}}> : ({t}) -> {t}"
    ]


def cpu_broadcast(groups: list[list[int]], t: str):
    """The native op's module as `convert-broadcast-to-all-reduce` lowers it."""
    module = parse(per_device_module(t, t, native_broadcast_body(groups, t), "%r"))
    ConvertBroadcastToAllReducePass().apply(xshard_context(), module)
    return module


CPU_BROADCAST_GROUPINGS = [g for g in BROADCAST_GROUPINGS if g != "ragged_cover"]


@pytest.mark.parametrize("grouping", CPU_BROADCAST_GROUPINGS)
def test_collective_broadcast_cpu_equivalent(grouping: str):
    """The masked all_reduce that stands in for collective_broadcast on XLA:CPU."""
    groups = BROADCAST_GROUPINGS[grouping]
    xs = inputs(7)
    got = run(cpu_broadcast(groups, tensor(LOCAL)), xs)
    assert_per_device(got, model.collective_broadcast(xs, groups))


def test_collective_broadcast_cpu_equivalent_on_booleans():
    groups = GROUPINGS["permuted_pairs"]
    xs = [x > 0 for x in inputs(8)]
    got = run(cpu_broadcast(groups, tensor(LOCAL, "i1")), xs)
    assert_per_device(got, model.collective_broadcast(xs, groups))


def test_collective_broadcast_cpu_equivalent_needs_groups_of_one_size():
    """The all_reduce's groups are one dense matrix: partitions in no group must fill
    groups of the broadcast's size (here 2 left over for groups of 3)."""
    with pytest.raises(DiagnosticError, match=r"partitions \[2, 7\] are in no replica group"):
        cpu_broadcast(BROADCAST_GROUPINGS["ragged_cover"], tensor(LOCAL))


def test_native_collective_broadcast_is_refused_by_xla_cpu():
    """Why the CPU equivalent exists; if this ever passes, XLA:CPU gained the op."""
    t = tensor(LOCAL)
    module = per_device_module(t, t, native_broadcast_body(GROUPINGS["rows"], t), "%r")
    with pytest.raises(BridgeError, match="collective-broadcast"):
        run(module, inputs(9))


def interpret(groups: list[list[int]], xs: list[np.ndarray]) -> list[np.ndarray]:
    """Run the native op on N processes in jaxlib's StableHLO reference interpreter."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir
    from jax._src.lib.mlir.dialects import hlo

    t = tensor(LOCAL)
    args = ", ".join(f"%a{k}: {t}" for k in range(N))
    names = ", ".join(f"%a{k}" for k in range(N))
    types = ", ".join([t] * N)
    results = ", ".join(f"%r#{k}" for k in range(N))
    body = "\n    ".join(native_broadcast_body(groups, t))
    text = f"""module {{
  func.func @per_device(%x: {t}) -> {t} {{
    {body}
    return %r : {t}
  }}
  func.func @main({args}) -> ({types}) {{
    %r:{N} = "interpreter.run_parallel"({names}) {{programs = [[{", ".join(["@per_device"] * N)}]]}}
        : ({types}) -> ({types})
    return {results} : {types}
  }}
}}"""
    with jax_mlir.make_ir_context() as ctx:
        hlo.register_interpreter_dialect(ctx)
        module = ir.Module.parse(text)
        outs = hlo.eval_module(module, [ir.DenseElementsAttr.get(x) for x in xs])
        return [np.array(o) for o in outs]


INTERPRETER_GROUPINGS = {
    "adjacent_pairs_reversed": [[1, 0], [3, 2], [5, 4], [7, 6]],
    **BROADCAST_GROUPINGS,
}
NEEDS_NO_CONCURRENCY = {"adjacent_pairs_reversed", "some_in_no_group"}


@pytest.mark.parametrize("grouping", INTERPRETER_GROUPINGS)
def test_native_collective_broadcast_in_reference_interpreter(grouping: str):
    """The interpreter runs its N processes on one thread per host CPU, and a group
    whose members cannot all run at once deadlocks ("rendezvous timed out", an abort
    that takes pytest down); the groupings in NEEDS_NO_CONCURRENCY complete on 2 CPUs.
    """
    if grouping not in NEEDS_NO_CONCURRENCY and len(os.sched_getaffinity(0)) < N:
        pytest.skip(f"the reference interpreter needs {N} CPUs for this grouping")
    groups = INTERPRETER_GROUPINGS[grouping]
    xs = inputs(10)
    assert_per_device(interpret(groups, xs), model.collective_broadcast(xs, groups))


def gpus() -> list[jax.Device]:
    try:
        return jax.devices("gpu")
    except RuntimeError:
        return []


@pytest.mark.skipif(not gpus(), reason="no GPU")
def test_native_collective_broadcast_on_gpu():
    devices = gpus()
    n = len(devices)
    groups = [list(reversed(range(n)))]
    t = tensor(LOCAL)
    module = per_device_module(t, t, native_broadcast_body(groups, t), "%r").replace(
        f"mhlo.num_partitions = {N}", f"mhlo.num_partitions = {n}"
    )
    xs = inputs(11)[:n]
    (got,) = run_spmd(module, [xs], n, devices=devices)
    expected = model.collective_broadcast(xs, groups)
    for k in range(n):
        np.testing.assert_array_equal(got[k], expected[k], err_msg=f"device {k}")
