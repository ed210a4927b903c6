"""Random JAX programs with a `jax.shard_map` inside, for the property test that holds
`xshard.jit` to `jax.jit` on them (tests/test_shard_map_property.py).

A program has no one-device form (its body is per-device code), so it is drawn as JAX
source, the reference is `jax.jit` of the same function, and a failing example prints
as a script that reproduces it. The drawing goes: a mesh (2x4 or 2x2x2); a map over a
non-empty set of manual axes whose body is drawn op by op over per-device blocks, each
new operand it needs (a matmul's other side, an elementwise partner) getting a random
`in_specs` entry over the manual axes; `out_specs` that name every manual axis a result
varies over (so that no result depends on which device's copy JAX reads); ops before the
map that make each operand from fresh arguments, ops after it, now and then a second
map on one of its results; random `in_shardings` and `out_shardings` over all mesh axes
(or None). Maps say `check_vma=True` unless JAX cannot infer a replication the drawing
knows holds (an `all_gather`'s result is "varying" to JAX).

Values stay within [-4, 4]: a tanh follows any op that could take them past it. No
branch or comparison depends on rounding (a `lax.cond` branches on `axis_index`), so a
mismatch is a wrong number, never noise.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import prod
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import strategies as st
from jax import lax
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from xshard.testing.jax_programs import JaxProgram, mesh_2x4

Shape = tuple[int, ...]
Dims = tuple[tuple[str, ...], ...]
"""A PartitionSpec as the mesh axes on each dim, major first."""

MESH_AXES: dict[str, tuple[tuple[str, int], ...]] = {
    "2x4": (("data", 2), ("model", 4)),
    "2x2x2": (("a", 2), ("b", 2), ("c", 2)),
}
EXTENTS = (2, 3, 4, 6, 8)
MAX_RANK = 3
MAX_EXTENT = 32
MAX_ELEMENTS = 512
"""A block's elements at most: a global value has 8 times that at most."""
GROUPED = {"psum", "pmax", "pmin", "pmean", "ppermute", "axis_index", "all_gather"}
GROUPED |= {"psum_scatter", "all_to_all", "dynamic_slice", "dynamic_update_slice", "cond"}
"""The body's ops on a group of manual axes."""
LIMIT = 4.0
"""The bound on |value| that a tanh restores when an op could exceed it."""


@cache
def mesh(name: str) -> Mesh:
    """The test meshes, as the tests build them (`mesh_2x4`, test_sharded_jit's 3-D one)."""
    if name == "2x4":
        return mesh_2x4()
    names, sizes = zip(*MESH_AXES[name], strict=True)
    return Mesh(np.array(jax.devices()[: prod(sizes)]).reshape(sizes), names)


def spec(dims: Dims) -> P:
    return P(*(d[0] if len(d) == 1 else (d or None) for d in dims))


def spec_text(dims: Dims | None) -> str:
    if dims is None:
        return "None"
    parts = [repr(d[0]) if len(d) == 1 else repr(d) if d else "None" for d in dims]
    return f"P({', '.join(parts)})"


@dataclass(frozen=True)
class ShardMapProgram:
    """A drawn program: the source of `f`, its arguments' shapes and the shardings."""

    mesh_name: str
    source: str
    shapes: tuple[Shape, ...]
    in_dims: tuple[Dims | None, ...]
    out_dims: tuple[Dims | None, ...]
    placed_dims: tuple[Dims | None, ...]
    """How each argument is placed before the call: as its in_sharding, else committed
    to a drawn layout (which `jit` then takes) or, where None, left on the host."""
    out_shapes: tuple[Shape, ...]
    features: frozenset[str]

    def fn(self) -> Callable[..., Any]:
        """`f`, compiled under a name whose lines tracebacks and jax's locations show."""
        filename = f"<shard_map program {abs(hash(self.source)):x}>"
        linecache.cache[filename] = (len(self.source), None, self.source.splitlines(True), filename)
        scope = {"jax": jax, "jnp": jnp, "lax": lax, "P": P, "mesh": mesh(self.mesh_name)}
        exec(compile(self.source, filename, "exec"), scope)
        return scope["f"]

    def args(self) -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng(0)
        return tuple(rng.uniform(-1, 1, s).astype(np.float32) for s in self.shapes)

    def _shardings(self, all_dims: Sequence[Dims | None]) -> tuple[NamedSharding | None, ...]:
        m = mesh(self.mesh_name)
        return tuple(None if d is None else NamedSharding(m, spec(d)) for d in all_dims)

    def placed(self) -> tuple[jax.Array, ...]:
        return jax.device_put(self.args(), self._shardings(self.placed_dims))

    def program(self) -> JaxProgram:
        outs = self._shardings(self.out_dims)
        return JaxProgram(
            "random_shard_map",
            self.fn(),
            self.args(),
            self._shardings(self.in_dims),
            outs[0] if len(outs) == 1 else outs,
        )

    def script(self) -> str:
        """A standalone reproducer: the program, `jax.jit`'s and `xshard.jit`'s results
        and their largest difference."""
        axes = MESH_AXES[self.mesh_name]
        sizes = ", ".join(str(s) for _, s in axes)
        names = tuple(n for n, _ in axes)
        ins, placed = (
            ", ".join(f"ns({spec_text(d)})" if d else "None" for d in dims)
            for dims in (self.in_dims, self.placed_dims)
        )
        outs = [f"ns({spec_text(d)})" if d else "None" for d in self.out_dims]
        out = outs[0] if len(outs) == 1 else f"({', '.join(outs)})"
        return f"""import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ["JAX_PLATFORMS"] = "cpu"
import jax, jax.numpy as jnp, numpy as np
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P
import xshard

mesh = jax.sharding.Mesh(np.array(jax.devices()[:8]).reshape({sizes}), {names})
ns = lambda s: NamedSharding(mesh, s)

{self.source}
rng = np.random.default_rng(0)
args = tuple(rng.uniform(-1, 1, s).astype(np.float32) for s in {list(self.shapes)})
in_shardings, out_shardings = ({ins},), {out}
args = jax.device_put(args, ({placed},))
want = jax.jit(f, in_shardings=in_shardings, out_shardings=out_shardings)(*args)
g = xshard.jit(f, in_shardings=in_shardings, out_shardings=out_shardings)
print(g.lower(*args).as_text())
got = g(*args)
for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
    print(a.sharding.spec, b.sharding.spec, float(np.abs(np.asarray(a) - np.asarray(b)).max()))
"""


@dataclass(frozen=True)
class _Value:
    name: str
    shape: Shape
    bound: float
    varies: frozenset[str] = frozenset()
    """In the body: the manual axes along which devices may hold different values."""


@dataclass
class _Operand:
    block: _Value
    dims: Dims
    shape: Shape
    """Global: the block's shape times the manual axes each dim is split over."""
    value: _Value | None = None
    """What is passed, when it exists before the body is drawn."""


@dataclass
class _Drawer:
    """The program being drawn: `f`'s lines and arguments, and the shard_map being drawn
    (its manual axes, body lines, operands and block values)."""

    draw: Callable[..., Any]
    axes: dict[str, int]
    lines: list[str] = field(default_factory=list)
    args: list[Shape] = field(default_factory=list)
    outside: list[_Value] = field(default_factory=list)
    """Values of `f` that later ops may meet: arguments and what made operands."""
    features: set[str] = field(default_factory=set)
    count: int = 0
    manual: tuple[str, ...] = ()
    body: list[str] = field(default_factory=list)
    operands: list[_Operand] = field(default_factory=list)
    locals: list[_Value] = field(default_factory=list)

    # ------------------------------------------------------------- shared pieces

    def pick(self, options: Sequence[Any]) -> Any:
        return self.draw(st.sampled_from(options))

    def chance(self, p: float) -> bool:
        """True with probability `p`, shrinking to False (a float strategy would favour 0)."""
        return self.draw(st.integers(0, 99)) >= 100 * (1 - p)

    def permutation(self, rank: int) -> tuple[int, ...]:
        """A transpose that moves something: the identity is rotated by one."""
        perm = tuple(self.draw(st.permutations(range(rank))))
        return perm[1:] + perm[:1] if perm == tuple(range(rank)) else perm

    def extent(self) -> int:
        return self.pick(EXTENTS)

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def emit(self, lines: list[str], expr: str, shape: Shape, bound: float, varies=frozenset()):
        """A new value `expr`, behind a tanh if its bound passes LIMIT."""
        if bound > LIMIT:
            expr, bound = f"jnp.tanh({expr})", 1.0
        name = self.fresh("v" if lines is self.lines else "b")
        lines.append(f"{name} = {expr}")
        return _Value(name, shape, bound, frozenset(varies))

    def dims(self, axes: Sequence[str], shape: Shape, *, required=(), divides=True) -> Dims:
        """Each axis, in a drawn order, on a dim (it must divide it if `divides`) or,
        unless `required`, on none."""
        placed: list[list[str]] = [[] for _ in shape]
        for axis in self.draw(st.permutations(list(axes))):
            options = [
                d
                for d in range(len(shape))
                if not divides or shape[d] % (self.size(placed[d]) * self.axes[axis]) == 0
            ]
            where = self.pick(options if axis in required else [-1, *options])
            if where >= 0:
                placed[where].append(axis)
        return tuple(tuple(d) for d in placed)

    def size(self, axes: Sequence[str]) -> int:
        return prod(self.axes[a] for a in axes)

    def argument(self, shape: Shape) -> _Value:
        self.args.append(shape)
        self.outside.append(_Value(f"x{len(self.args) - 1}", shape, 1.0))
        return self.outside[-1]

    # ------------------------------------------------------------- before the map

    def produce(self, shape: Shape, depth: int) -> _Value:
        """A value of global `shape` made from fresh arguments by up to `depth` ops."""
        v = self._produce(shape, depth)
        self.outside.append(v)
        return v

    def _produce(self, shape: Shape, depth: int) -> _Value:
        rank = len(shape)
        ops = ["argument", "unary", "binary", "dot", "reduce"] + ["transpose"] * (rank > 1)
        op = self.pick(ops) if depth else "argument"
        if op == "argument":
            return self.argument(shape)
        self.features.add(f"before: {op}")
        if op == "unary":
            a = self.produce(shape, depth - 1)
            return self.emit(self.lines, f"jnp.sin({a.name}) * 2", shape, 2 * a.bound)
        if op == "binary":
            a, b = self.produce(shape, depth - 1), self.argument(shape)
            return self.emit(self.lines, f"{a.name} * {b.name}", shape, a.bound)
        if op == "dot":
            k = self.extent()
            a = self.produce((*shape[:-1], k), depth - 1)
            b = self.argument((k, shape[-1]))
            return self.emit(self.lines, f"{a.name} @ {b.name}", shape, a.bound * k)
        if op == "reduce":
            where, r = self.draw(st.integers(0, rank)), self.extent()
            a = self.produce((*shape[:where], r, *shape[where:]), depth - 1)
            if self.chance(0.5):
                return self.emit(self.lines, f"jnp.max({a.name}, axis={where})", shape, a.bound)
            return self.emit(self.lines, f"jnp.sum({a.name}, axis={where})", shape, a.bound * r)
        perm = self.permutation(rank)
        a = self.produce(tuple(shape[perm.index(j)] for j in range(rank)), depth - 1)
        return self.emit(self.lines, f"jnp.transpose({a.name}, {perm})", shape, a.bound)

    # ------------------------------------------------------------- the body

    def shard_map(self, first: _Value | None) -> list[_Value]:
        """A `jax.shard_map` over drawn manual axes, passed `first` (or a drawn block) and
        the operands its body asks for: its body, operands and call go into `f`'s lines.
        Returns its results (global)."""
        chosen = self.draw(st.sets(st.sampled_from(list(self.axes)), min_size=1))
        self.manual = tuple(a for a in self.axes if a in chosen)
        self.body, self.operands, self.locals = [], [], []
        self.features.add("partially manual" if len(chosen) < len(self.axes) else "fully manual")
        if first is None:
            v = self.operand(
                tuple(self.extent() for _ in range(self.draw(st.integers(1, MAX_RANK))))
            )
        else:
            v = self.operand(first.shape, first)
        for _ in range(self.draw(st.integers(1, 6))):
            v = self.body_op(v if self.chance(0.8) else self.pick(self.locals))
            self.locals.append(v)
        results = [v]
        if self.chance(0.3):
            results.append(self.pick([u for u in self.locals if u is not v]))
        # Every axis a result varies over, and now and then one it does not (tiled copies).
        outs = [
            self.dims(
                [a for a in self.manual if a in r.varies or self.chance(0.3)],
                r.shape,
                required=self.manual,
                divides=False,
            )
            for r in results
        ]
        passed = [o.value or self.passed(o.shape) for o in self.operands]
        name = self.fresh("body")
        self.lines.append(f"def {name}({', '.join(o.block.name for o in self.operands)}):")
        self.lines += [f"    {line}" for line in self.body]
        self.lines.append(f"    return {', '.join(r.name for r in results)}")
        in_specs = "".join(spec_text(o.dims) + ", " for o in self.operands)
        out_specs = ", ".join(map(spec_text, outs))
        if len(outs) > 1:
            out_specs = f"({out_specs})"
        named = ", ".join(map(repr, self.manual))
        partial = f"axis_names={{{named}}}, " if len(chosen) < len(self.axes) else ""
        mapped = [self.fresh("s") for _ in results]
        self.lines.append(
            f"{', '.join(mapped)} = jax.shard_map({name}, mesh=mesh, in_specs=({in_specs}), "
            f"out_specs={out_specs}, {partial}check_vma=True)({', '.join(p.name for p in passed)})"
        )
        return [
            _Value(m, tuple(n * self.size(a) for n, a in zip(r.shape, o, strict=True)), r.bound)
            for m, r, o in zip(mapped, results, outs, strict=True)
        ]

    def passed(self, shape: Shape) -> _Value:
        """What `f` passes for an operand drawn with the body (bounded by 1): now and then
        a value it has (an argument, one passed already), else one `produce` makes."""
        same = [u for u in self.outside if u.shape == shape and u.bound <= 1]
        if same and self.chance(0.5):
            self.features.add("operand reused")
            return self.pick(same)
        v = self.produce(shape, self.draw(st.integers(0, 2)))
        return v if v.bound <= 1 else self.emit(self.lines, f"jnp.tanh({v.name})", shape, 1.0)

    def operand(self, shape: Shape, value: _Value | None = None) -> _Value:
        """A new block argument split by a drawn in_specs entry: of local `shape`, or of
        `value`'s global shape (then the entry divides it)."""
        dims = self.dims(self.manual, shape, divides=value is not None)
        sizes = [self.size(d) for d in dims]
        if value is None:
            local, full = shape, tuple(n * k for n, k in zip(shape, sizes, strict=True))
        else:
            local, full = tuple(n // k for n, k in zip(shape, sizes, strict=True)), shape
        bound = value.bound if value else 1.0
        block = _Value(
            f"a{len(self.operands)}", local, bound, frozenset(a for d in dims for a in d)
        )
        self.operands.append(_Operand(block, dims, full, value))
        self.locals.append(block)
        return block

    def body_op(self, v: _Value) -> _Value:
        """One op of the body on `v`: elementwise, matmul, collective, reduce, region.

        The collectives and `axis_index` act on one drawn group of manual axes, in a
        drawn order (a tuple of several is one axis of their product, major first)."""
        names = self.draw(st.lists(st.sampled_from(self.manual), min_size=1, unique=True))
        group, k, axes = names[0] if len(names) == 1 else tuple(names), self.size(names), set(names)
        rank, shape = len(v.shape), v.shape
        small = prod(shape) * k <= MAX_ELEMENTS
        grown = [w for w in range(rank) if small and shape[w] * k <= MAX_EXTENT]
        parted = [w for w in range(rank) if shape[w] % k == 0]
        ops = ["unary", "binary", "matmul", "psum", "pmax", "pmin", "pmean", "ppermute"]
        halves = [w for w in range(rank) if shape[w] % 2 == 0 and rank < MAX_RANK]
        ops += ["axis_index", "iota"] + ["reshape"] * bool(rank > 1 or halves)
        ops += ["all_gather"] * bool(grown or small and rank < MAX_RANK)
        ops += ["psum_scatter", "all_to_all", "dynamic_slice"] * bool(parted)
        ops += ["dynamic_update_slice"] * bool(grown)
        ops += ["concatenate"] * any(small and s * 2 <= MAX_EXTENT for s in shape)
        ops += ["reduce", "transpose"] * (rank > 1)
        ops += ["cond", "fori_loop"] * self.chance(0.25)
        free = [a for a in self.axes if a not in self.manual]
        ops += ["nested"] * bool(free)
        op = self.pick(ops)
        self.features.add(op)
        if op in GROUPED:
            self.features.add(f"{op} over {len(names)} axes")
        body, emit = self.body, self.emit

        def resized(w: int, size: int) -> Shape:
            return tuple(size if d == w else s for d, s in enumerate(shape))

        if op == "unary":
            form = self.pick(["jnp.tanh({})", "jnp.sin({}) * 2", "{} * {}", "jnp.abs({}) - 1"])
            bound = {"{} * {}": v.bound**2, "jnp.abs({}) - 1": v.bound + 1}.get(form, 2.0)
            return emit(body, form.format(v.name, v.name), shape, bound, v.varies)
        if op == "binary":
            same = [u for u in self.locals if u.shape == shape and u is not v]
            u = self.pick(same) if same and self.chance(0.5) else self.operand(shape)
            sign = self.pick(["+", "-", "*"])
            bound = v.bound * u.bound if sign == "*" else v.bound + u.bound
            return emit(body, f"{v.name} {sign} {u.name}", shape, bound, v.varies | u.varies)
        if op == "matmul":
            w = self.operand((shape[-1], self.extent()))
            bound = v.bound * w.bound * shape[-1]
            return emit(
                body, f"{v.name} @ {w.name}", (*shape[:-1], w.shape[1]), bound, v.varies | w.varies
            )
        if op in ("psum", "pmax", "pmin", "pmean"):
            bound = v.bound * (k if op == "psum" else 1)
            return emit(body, f"lax.{op}({v.name}, {group!r})", shape, bound, v.varies - axes)
        if op == "ppermute":
            return emit(body, self.ring(v.name, group, k), shape, v.bound, self.shifted(v, axes))
        if op == "axis_index":
            expr = f"{v.name} + lax.axis_index({group!r}) / {k}"
            return emit(body, expr, shape, v.bound + 1, v.varies | axes)
        if op == "iota":
            w = self.draw(st.integers(0, rank - 1))
            iota = f"lax.broadcasted_iota(jnp.float32, {shape}, {w}) / {shape[w]}"
            return emit(body, f"{v.name} + {iota}", shape, v.bound + 1, v.varies)
        if op == "all_gather":
            tiled = bool(grown) and (rank == MAX_RANK or not small or self.chance(0.5))
            self.features.add(f"all_gather tiled={tiled}")
            if tiled:
                w = self.pick(grown)
                result = resized(w, shape[w] * k)
            else:
                w = self.draw(st.integers(0, rank))
                result = (*shape[:w], k, *shape[w:])
            expr = f"lax.all_gather({v.name}, {group!r}, axis={w}, tiled={tiled})"
            return emit(body, expr, result, v.bound, v.varies - axes)
        if op == "psum_scatter":
            w = self.pick(parted)
            tiled = rank == 1 or shape[w] != k or self.chance(0.5)
            self.features.add(f"psum_scatter tiled={tiled}")
            result = resized(w, shape[w] // k) if tiled else shape[:w] + shape[w + 1 :]
            expr = f"lax.psum_scatter({v.name}, {group!r}, scatter_dimension={w}, tiled={tiled})"
            return emit(body, expr, result, v.bound * k, v.varies | axes)
        if op == "all_to_all":
            split, concat = self.pick(parted), self.draw(st.integers(0, rank - 1))
            tiled = shape[split] != k or self.chance(0.5)
            self.features.add(f"all_to_all tiled={tiled}")
            result = list(shape)
            if tiled:
                result[split] //= k
                result[concat] *= k
            else:
                del result[split]
                result.insert(concat, k)
            expr = f"lax.all_to_all({v.name}, {group!r}, {split}, {concat}, tiled={tiled})"
            return emit(body, expr, tuple(result), v.bound, v.varies | axes)
        if op == "dynamic_slice":
            # Each device's own piece, at the offset its axis_index gives.
            w = self.pick(parted)
            piece = shape[w] // k
            start = f"lax.axis_index({group!r}) * {piece}"
            expr = f"lax.dynamic_slice_in_dim({v.name}, {start}, {piece}, axis={w})"
            return emit(body, expr, resized(w, piece), v.bound, v.varies | axes)
        if op == "dynamic_update_slice":
            # Each device's block placed in zeros at its own offset (a psum then gathers).
            w = self.pick(grown)
            result = resized(w, shape[w] * k)
            start = f"lax.axis_index({group!r}) * {shape[w]}"
            expr = f"lax.dynamic_update_slice_in_dim(jnp.zeros({result}), {v.name}, {start}, {w})"
            return emit(body, expr, result, v.bound, v.varies | axes)
        if op == "concatenate":
            w = self.pick([w for w in range(rank) if small and shape[w] * 2 <= MAX_EXTENT])
            same = [u for u in self.locals if u.shape == shape]
            if self.chance(0.5):
                u = self.pick(same)
            else:
                u = _Value(self.ring(v.name, group, k), shape, v.bound, self.shifted(v, axes))
            expr = f"jnp.concatenate([{v.name}, {u.name}], axis={w})"
            return emit(body, expr, resized(w, shape[w] * 2), v.bound, v.varies | u.varies)
        if op == "reshape":
            w = self.pick([*range(rank - 1), *(-1 - w for w in halves)])
            if w >= 0:  # dims w and w + 1 merged
                result = (*shape[:w], shape[w] * shape[w + 1], *shape[w + 2 :])
            else:  # dim -1 - w split in two
                w = -1 - w
                result = (*shape[:w], 2, shape[w] // 2, *shape[w + 1 :])
            return emit(body, f"{v.name}.reshape({result})", result, v.bound, v.varies)
        if op == "reduce":
            w = self.draw(st.integers(0, rank - 1))
            result = shape[:w] + shape[w + 1 :]
            if self.chance(0.5):
                return emit(body, f"jnp.max({v.name}, axis={w})", result, v.bound, v.varies)
            bound = v.bound * shape[w]
            return emit(body, f"jnp.sum({v.name}, axis={w})", result, bound, v.varies)
        if op == "transpose":
            perm = self.permutation(rank)
            result = tuple(shape[p] for p in perm)
            return emit(body, f"jnp.transpose({v.name}, {perm})", result, v.bound, v.varies)
        if op == "nested":
            # A shard_map in the body, manual over free axes too (on JAX's context mesh).
            inner = self.draw(st.lists(st.sampled_from(free), min_size=1, unique=True))
            dims = self.dims(inner, shape)
            inner_group = inner[0] if len(inner) == 1 else tuple(inner)
            named = ", ".join(map(repr, inner))
            if self.chance(0.5):
                self.features.add("nested psum")
                fn, out = f"lambda t: lax.psum(t, {inner_group!r})", tuple(() for _ in shape)
                result = tuple(n // self.size(a) for n, a in zip(shape, dims, strict=True))
                bound = v.bound * self.size(inner)
            else:
                fn, out, result, bound = "jnp.tanh", dims, shape, 1.0
            expr = (
                f"jax.shard_map({fn}, in_specs={spec_text(dims)}, out_specs={spec_text(out)}, "
                f"axis_names={{{named}}}, check_vma=True)({v.name})"
            )
            return emit(body, expr, result, bound, v.varies)
        if op == "cond":
            # The branch taken is a device's place on the axes: exact, never rounding.
            expr = (
                f"lax.cond(lax.axis_index({group!r}) < {self.draw(st.integers(1, k - 1))}, "
                f"lambda t: jnp.tanh(t), lambda t: jnp.sin(t) * 0.5, {v.name})"
            )
            return emit(body, expr, shape, v.bound, v.varies | axes)
        trips, step = self.draw(st.integers(1, 3)), self.pick(["ppermute", "psum", "add"])
        self.features.add(f"fori_loop {step}")
        if step == "ppermute":
            update, varies = f"jnp.tanh(c + {self.ring('c', group, k)})", self.shifted(v, axes)
        elif step == "psum":
            update, varies = f"jnp.tanh(lax.psum(c, {group!r}))", v.varies - axes
        else:
            update, varies = "jnp.tanh(c + 0.25 * i)", v.varies
        expr = f"lax.fori_loop(0, {trips}, lambda i, c: {update}, {v.name})"
        return emit(body, expr, shape, 1.0, varies)

    def ring(self, value: str, group: str | tuple[str, ...], k: int) -> str:
        """A ring shift over the `k` devices of `group`."""
        shift = self.draw(st.integers(1, k - 1))
        pairs = [(i, (i + shift) % k) for i in range(k)]
        return f"lax.ppermute({value}, {group!r}, {pairs})"

    @staticmethod
    def shifted(v: _Value, axes: set[str]) -> frozenset[str]:
        """Where `v` varies after a shift over `axes`: what is the same on all of them stays
        so; a value that differs along one of them, once moved, may differ along all."""
        return v.varies | axes if v.varies & axes else v.varies

    # ------------------------------------------------------------- after the map

    def consume(self, v: _Value, depth: int) -> _Value:
        """`v` after up to `depth` ops, each meeting at most one other value: a fresh
        argument, or one `f` has (a residual)."""
        for _ in range(depth):
            rank = len(v.shape)
            same = [u for u in self.outside if u.shape == v.shape]
            ops = ["unary", "binary", "dot"] + ["reduce", "transpose"] * (rank > 1)
            op = self.pick(ops + ["residual"] * bool(same))
            self.features.add(f"after: {op}")
            if op == "unary":
                v = self.emit(self.lines, f"jnp.tanh({v.name})", v.shape, 1.0)
            elif op in ("binary", "residual"):
                u = self.argument(v.shape) if op == "binary" else self.pick(same)
                v = self.emit(self.lines, f"{v.name} - {u.name}", v.shape, v.bound + u.bound)
            elif op == "dot":
                k = self.extent()
                u = self.argument((v.shape[-1], k))
                v = self.emit(
                    self.lines, f"{v.name} @ {u.name}", (*v.shape[:-1], k), v.bound * v.shape[-1]
                )
            elif op == "reduce":
                where = self.draw(st.integers(0, rank - 1))
                shape = v.shape[:where] + v.shape[where + 1 :]
                v = self.emit(
                    self.lines, f"jnp.sum({v.name}, axis={where})", shape, v.bound * v.shape[where]
                )
            else:
                perm = self.permutation(rank)
                shape = tuple(v.shape[p] for p in perm)
                v = self.emit(self.lines, f"jnp.transpose({v.name}, {perm})", shape, v.bound)
        return v

    def sharding(self, shape: Shape) -> Dims | None:
        """A jit in/out sharding over all mesh axes, or unspecified (None)."""
        return None if self.chance(0.2) else self.dims(list(self.axes), shape)


@st.composite
def shard_map_programs(draw) -> ShardMapProgram:
    """A random program with a `jax.shard_map`, fully or partially manual, and now and
    then a second one on a result of the first."""
    mesh_name = draw(st.sampled_from(sorted(MESH_AXES)))
    d = _Drawer(draw, dict(MESH_AXES[mesh_name]))
    finals = [d.consume(r, draw(st.integers(0, 2))) for r in d.shard_map(None)]
    if d.chance(0.25):
        d.features.add("two shard_maps")
        i = draw(st.integers(0, len(finals) - 1))
        finals[i : i + 1] = [d.consume(r, draw(st.integers(0, 1))) for r in d.shard_map(finals[i])]
    in_dims = [d.sharding(s) for s in d.args]
    out_dims = [d.sharding(f.shape) for f in finals]
    placed = [given or d.sharding(s) for given, s in zip(in_dims, d.args, strict=True)]
    if in_dims != placed:
        d.features.add("committed argument, in_sharding None")
    if not any(placed + out_dims):
        # xshard.jit takes its mesh from a NamedSharding (tests/test_shard_map_property.py
        # holds the program whose only mesh is the shard_map's as a regression).
        in_dims[0] = placed[0] = d.dims(list(d.axes), d.args[0])
    params = ", ".join(f"x{i}" for i in range(len(d.args)))
    body = "".join(f"    {line}\n" for line in d.lines)
    source = f"def f({params}):\n{body}    return {', '.join(f.name for f in finals)}\n"

    def build(source: str) -> ShardMapProgram:
        check = "check_vma=False" if "check_vma=False" in source else "check_vma=True"
        program = ShardMapProgram(
            mesh_name,
            source,
            tuple(d.args),
            tuple(in_dims),
            tuple(out_dims),
            tuple(placed),
            tuple(f.shape for f in finals),
            frozenset(d.features | {f"mesh {mesh_name}", check}),
        )
        structs = (jax.ShapeDtypeStruct(s, jnp.float32) for s in d.args)
        shapes = tuple(t.shape for t in jax.tree.leaves(jax.eval_shape(program.fn(), *structs)))
        assert shapes == program.out_shapes, f"drawn {program.out_shapes}, traced {shapes}"
        return program

    try:
        return build(source)
    except (ValueError, TypeError):  # JAX cannot infer a replication the drawing knows
        return build(source.replace("check_vma=True", "check_vma=False"))
