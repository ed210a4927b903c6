"""`convert-shard-to-stablehlo` on 8 simulated CPU devices.

For each choice of grid axes of a 2x4 grid, one per-device module holds every
collective the pass lowers (one compile per choice keeps the file fast). It is
converted, compiled and run by the bridge (`xshard.jax.run_spmd`), and every
device's result is compared with the shard dialect's semantics: the numpy
simulator `xshard.sharding.simulate.apply_step` for the resharding collectives,
and small numpy models written here from the op docs for the rest (broadcast,
scatter, shift, rooted reduce/gather, process queries). update_halo is checked on
zero-padded blocks, which is what shard-partition hands it.
"""

from __future__ import annotations

import numpy as np
import pytest

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax import run_spmd
from xshard.sharding.grid import Grid
from xshard.sharding.groups import device_groups
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.resharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    ReduceScatter,
    UpdateHalo,
)
from xshard.sharding.simulate import apply_step
from xshard.transforms.export.convert_shard_to_stablehlo import ConvertShardToStablehloPass

GRID = Grid("g", (2, 4))
N = 8
LOCAL = (8, 8)


def tensor(shape: tuple[int, ...], element: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


HALO_CORE = (4, 4)


def halo_cases(axes: tuple[int, ...]) -> dict[str, UpdateHalo]:
    """update_halo over `axes` on dim 0, and on both dims when there are two axes."""
    cases = {"halo_1d": UpdateHalo((axes,), (), (1, 2))}
    if len(axes) == 2:
        cases["halo_2d"] = UpdateHalo(((axes[0],), (axes[1],)), (), (1, 1, 2, 1))
    return cases


def padded_shape(step: UpdateHalo) -> tuple[int, ...]:
    return tuple(step.result_shape(HALO_CORE, GRID))  # type: ignore[arg-type]


def module_text(axes: tuple[int, ...], root: tuple[int, ...]) -> tuple[str, list[str]]:
    """A per-device module running each collective over `axes`; also the result names."""
    n = int(np.prod([GRID.shape[a] for a in axes]))
    a = "[" + ", ".join(map(str, axes)) + "]"
    r = "[" + ", ".join(map(str, root)) + "]"
    x, y, b = tensor(LOCAL), tensor(LOCAL, "i32"), tensor(LOCAL, "i1")
    ops = {
        "sum": f"shard.all_reduce %x on @g grid_axes = {a} : {x} -> {x}",
        "max": f"shard.all_reduce %x on @g grid_axes = {a} reduction = max : {x} -> {x}",
        "average": f"shard.all_reduce %x on @g grid_axes = {a} reduction = average : {x} -> {x}",
        "xor": f"shard.all_reduce %y on @g grid_axes = {a} reduction = bitwise_xor : {y} -> {y}",
        "and_scatter": f"shard.reduce_scatter %y on @g grid_axes = {a} reduction = bitwise_and "
        f"scatter_axis = 1 : {y} -> {tensor((8, 8 // n), 'i32')}",
        "or_i1": f"shard.all_reduce %b on @g grid_axes = {a} reduction = bitwise_or : {b} -> {b}",
        "all_gather": f"shard.all_gather %x on @g grid_axes = {a} gather_axis = 1 "
        f": {x} -> {tensor((8, 8 * n))}",
        "reduce_scatter": f"shard.reduce_scatter %x on @g grid_axes = {a} scatter_axis = 0 "
        f": {x} -> {tensor((8 // n, 8))}",
        "all_to_all": f"shard.all_to_all %x on @g grid_axes = {a} split_axis = 0 concat_axis = 1 "
        f": {x} -> {tensor((8 // n, 8 * n))}",
        "all_slice": f"shard.all_slice %x on @g grid_axes = {a} slice_axis = 1 "
        f": {x} -> {tensor((8, 8 // n))}",
        "broadcast": f"shard.broadcast %x on @g grid_axes = {a} root = {r} : ({x}) -> {x}",
        "broadcast_i32": f"shard.broadcast %y on @g grid_axes = {a} root = {r} : ({y}) -> {y}",
        "broadcast_i1": f"shard.broadcast %b on @g grid_axes = {a} root = {r} : ({b}) -> {b}",
        "scatter": f"shard.scatter %x on @g grid_axes = {a} scatter_axis = 0 root = {r} "
        f": ({x}) -> {tensor((8 // n, 8))}",
        "reduce": f"shard.reduce %x on @g grid_axes = {a} reduction = min root = {r} "
        f": ({x}) -> {x}",
        "gather": f"shard.gather %x on @g grid_axes = {a} gather_axis = 0 root = {r} "
        f": ({x}) -> {tensor((8 * n, 8))}",
        "shift_rotate": f"shard.shift %x on @g grid_axes = {a} shift_axis = {axes[-1]} "
        f"offset = 1 rotate : {x} -> {x}",
        "shift": f"shard.shift %x on @g grid_axes = {a} shift_axis = {axes[0]} offset = -1 "
        f": {x} -> {x}",
    }
    halo_args = []
    for name, halo in halo_cases(axes).items():
        t = tensor(padded_shape(halo))
        split = ", ".join(str(list(a)) for a in halo.split_axes)
        halo_args.append(f"%{name}_in: {t}")
        ops[name] = (
            f"shard.update_halo %{name}_in on @g split_axes = [{split}] "
            f"halo_sizes = {list(halo.dst_halo_sizes)} : {t}"
        )
    lines = [f"%{name} = {op}" for name, op in ops.items()]
    lines += [
        "%linear = shard.process_linear_index on @g : index",
        "%multi:2 = shard.process_multi_index on @g : index, index",
        "%shape:2 = shard.grid_shape @g : index, index",
    ]
    names = [*ops, "linear", "multi#0", "multi#1", "shape#0", "shape#1"]
    types = [op.rsplit(": ", 1)[1].split("-> ")[-1] for op in ops.values()] + ["index"] * 5
    returned = ", ".join(f"%{name}" for name in names)
    params = ", ".join([f"%x: {x}", f"%y: {y}", f"%b: {b}", *halo_args])
    body = "\n  ".join(lines)
    text = f"""shard.grid @g(shape = 2x4)
func.func @main({params}) -> ({", ".join(types)}) {{
  {body}
  func.return {returned} : {", ".join(types)}
}}"""
    return text, names


def convert(text: str, target: str = "cpu"):
    ctx = xshard_context()
    module = LocatingParser(ctx, text, "<test>").parse_module()
    ConvertShardToStablehloPass(target=target).apply(ctx, module)  # type: ignore[arg-type]
    module.verify()
    return module


def per_device(blocks: list[np.ndarray]) -> dict[tuple[int, ...], np.ndarray]:
    return {GRID.multi_index(k): b for k, b in enumerate(blocks)}


def in_order(result: dict[tuple[int, ...], np.ndarray]) -> list[np.ndarray]:
    return [result[GRID.multi_index(k)] for k in range(N)]


def step(blocks: list[np.ndarray], collective) -> list[np.ndarray]:
    return in_order(apply_step(per_device(blocks), collective, GRID))


def from_root(blocks: list[np.ndarray], axes: tuple[int, ...], root: tuple[int, ...]):
    """shard.broadcast: every device gets the block of its group's root."""
    position = 0
    for axis, coord in zip(axes, root, strict=True):
        position = position * GRID.shape[axis] + coord
    result: list[np.ndarray] = [np.empty(0)] * N
    for group in device_groups(GRID.shape, axes):
        for k in group:
            result[k] = blocks[group[position]]
    return result


def roots(axes: tuple[int, ...], root: tuple[int, ...]) -> list[int]:
    position = 0
    for axis, coord in zip(axes, root, strict=True):
        position = position * GRID.shape[axis] + coord
    return [group[position] for group in device_groups(GRID.shape, axes)]


def shifted(blocks: list[np.ndarray], axis: int, offset: int, rotate: bool):
    """shard.shift: (.., c, ..) receives from (.., c - offset, ..); None where no source."""
    result: list[np.ndarray | None] = []
    for k in range(N):
        coords = list(GRID.multi_index(k))
        source = coords[axis] - offset
        if rotate:
            source %= GRID.shape[axis]
        if not 0 <= source < GRID.shape[axis]:
            result.append(None)
            continue
        coords[axis] = source
        result.append(blocks[GRID.linear_index(coords)])
    return result


AXES = [(0,), (1,), (0, 1), (1, 0)]


@pytest.mark.parametrize("axes", AXES, ids=lambda a: "axes" + "".join(map(str, a)))
def test_collectives_match_the_shard_semantics(axes: tuple[int, ...]):
    root = tuple(GRID.shape[a] - 1 - (i % 2) for i, a in enumerate(axes))  # not the first
    text, names = module_text(axes, root)
    rng = np.random.default_rng(sum(axes) + 10 * len(axes))
    xs = [rng.integers(-9, 10, LOCAL).astype(np.float32) for _ in range(N)]
    # bits set with probability 7/8, so that neither AND nor XOR over a group is trivial
    draws = rng.integers(0, 1 << 31, (N, 3, *LOCAL))
    ys = [(~np.bitwise_and.reduce(d, axis=0)).astype(np.int32) for d in draws]
    bs = [rng.random(LOCAL) < 0.2 for _ in range(N)]
    halos = halo_cases(axes)
    cores = {
        name: [rng.integers(1, 10, HALO_CORE).astype(np.float32) for _ in range(N)]
        for name in halos
    }
    halo_inputs = []
    for name, halo in halos.items():
        pads = [(0, 0)] * len(HALO_CORE)
        for d, pair in zip(halo.split_dims, halo.dst_pairs, strict=True):
            pads[d] = pair
        halo_inputs.append([np.pad(core, pads) for core in cores[name]])
    args = [xs, ys, bs, *halo_inputs]
    outs = dict(zip(names, run_spmd(convert(text), args, N), strict=True))

    bcast = from_root(xs, axes, root)
    expected: dict[str, list[np.ndarray | None]] = {
        "sum": step(xs, AllReduce(axes)),
        "max": step(xs, AllReduce(axes, ReductionKind.MAX)),
        "average": step(xs, AllReduce(axes, ReductionKind.AVERAGE)),
        "xor": step(ys, AllReduce(axes, ReductionKind.BITWISE_XOR)),
        "and_scatter": step(ys, ReduceScatter(axes, 1, ReductionKind.BITWISE_AND)),
        "or_i1": step(bs, AllReduce(axes, ReductionKind.BITWISE_OR)),
        "all_gather": step(xs, AllGather(axes, 1)),
        "reduce_scatter": step(xs, ReduceScatter(axes, 0)),
        "all_to_all": step(xs, AllToAll(axes, 0, 1)),
        "all_slice": step(xs, AllSlice(axes, 1)),
        "broadcast": bcast,
        "broadcast_i32": from_root(ys, axes, root),
        "broadcast_i1": from_root(bs, axes, root),
        "scatter": step(bcast, AllSlice(axes, 0)),
        "shift_rotate": shifted(xs, axes[-1], 1, rotate=True),
        "shift": shifted(xs, axes[0], -1, rotate=False),
        "linear": [np.array(k) for k in range(N)],
        "multi#0": [np.array(GRID.multi_index(k)[0]) for k in range(N)],
        "multi#1": [np.array(GRID.multi_index(k)[1]) for k in range(N)],
        "shape#0": [np.array(2)] * N,
        "shape#1": [np.array(4)] * N,
    }
    for name, halo in halos.items():  # the pass reads padded blocks, the simulator cores
        expected[name] = step(cores[name], halo)
    # reduce and gather define their result on each group's root only
    on_roots = set(roots(axes, root))
    expected["reduce"] = [
        e if k in on_roots else None
        for k, e in enumerate(step(xs, AllReduce(axes, ReductionKind.MIN)))
    ]
    expected["gather"] = [
        e if k in on_roots else None for k, e in enumerate(step(xs, AllGather(axes, 0)))
    ]
    assert set(expected) == set(names)
    for name in names:
        for k, (got, want) in enumerate(zip(outs[name], expected[name], strict=True)):
            if want is not None:
                np.testing.assert_array_equal(got, want, err_msg=f"{name} on device {k}")


INDEX_ARITH = """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, index, index, i32, i8, i1) {
  %l = shard.process_linear_index on @g : index
  %rc:2 = shard.process_multi_index on @g : index, index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant dense<0.0> : tensor<3xf32>
  %is3 = arith.cmpi eq, %l, %c3 : index
  %masked = arith.select %is3, %x, %z : tensor<3xf32>
  %row0 = arith.cmpi eq, %rc#0, %c0 : index
  %branch = scf.if %row0 -> (tensor<3xf32>) {
    scf.yield %x : tensor<3xf32>
  } else {
    %n = stablehlo.negate %x : tensor<3xf32>
    scf.yield %n : tensor<3xf32>
  }
  %a = arith.muli %rc#1, %c3 : index
  %b = arith.subi %a, %c5 : index
  %q = arith.divsi %b, %rc#0 : index
  %r = arith.remui %l, %c3 : index
  %ult = arith.cmpi ult, %b, %c3 : index
  %pick = arith.select %ult, %q, %r : index
  %w = arith.index_cast %b : index to i32
  %e = arith.extsi %ult : i1 to i8
  %odd = arith.andi %w, %w : i32
  %t = arith.trunci %odd : i32 to i1
  func.return %masked, %branch, %b, %pick, %w, %e, %t
      : tensor<3xf32>, tensor<3xf32>, index, index, i32, i8, i1
}
"""


def test_index_arithmetic_on_eight_devices():
    """Masks, scf.if and scalar arith on process indices, against numpy per device
    (divsi by a row of 0 is left out: the values of row 0 do not use `%q`)."""
    xs = [np.arange(3, dtype=np.float32) + 10 * k for k in range(N)]
    masked, branch, b, pick, w, e, t = run_spmd(convert(INDEX_ARITH), [xs], N)
    for k in range(N):
        row, col = divmod(k, 4)
        np.testing.assert_array_equal(masked[k], xs[k] if k == 3 else np.zeros(3, np.float32))
        np.testing.assert_array_equal(branch[k], xs[k] if row == 0 else -xs[k])
        want_b = 3 * col - 5
        assert int(b[k]) == want_b, k
        unsigned_lt = (want_b % 2**64) < 3
        if row:
            want_pick = int(want_b / row) if unsigned_lt else k % 3
            assert int(pick[k]) == want_pick, k
        assert int(w[k]) == want_b and w[k].dtype == np.int32
        assert int(e[k]) == (-1 if unsigned_lt else 0) and e[k].dtype == np.int8
        assert bool(t[k]) == bool(want_b & 1)
