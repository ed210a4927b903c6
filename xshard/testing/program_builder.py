"""The pieces random programs are built from: values, shardings and annotations.

`Builder` writes a function body line by line, drawing every choice from a hypothesis
`draw`; `xshard.testing.random_regions` adds `while` and `case` on top of it and
`xshard.testing.random_programs` the other ops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import prod

import numpy as np
from hypothesis import strategies as st

Shape = tuple[int, ...]

GRIDS: tuple[Shape, ...] = ((4,), (8,), (2, 2), (2, 4))
EXTENTS = (2, 4, 8)
MAX_RANK = 3
MAX_MAGNITUDE = 1e4
"""Values may grow to about this: far from f32 overflow and far above rounding noise."""


@dataclass
class Value:
    name: str
    shape: Shape
    magnitude: float
    """A rough bound of |value|, so ops that would overflow are not drawn."""
    element: str = "f32"

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.element)


def tensor_type(shape: Shape, element: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


@dataclass
class Program:
    text: str
    grid: Shape
    has_partial: bool
    ops: int
    args: tuple[Value, ...] = ()
    integers: dict[int, int] = field(default_factory=dict)
    """The value each i32 argument (a loop bound, a branch index) is run with: drawn
    with the program, small, so that loops make few trips."""
    features: frozenset[str] = frozenset()
    """What the program holds beyond straight-line ops (`while`, `case`, ...)."""

    @property
    def devices(self) -> int:
        return prod(self.grid)

    def inputs(self, seed: int = 0) -> list[np.ndarray]:
        """The arguments: floats standard normal (as `random_inputs` draws them), each
        integer its drawn value."""
        rng = np.random.default_rng(seed)
        return [
            np.asarray(self.integers[i], np.int32)
            if i in self.integers
            else rng.standard_normal(a.shape).astype(np.float32)
            for i, a in enumerate(self.args)
        ]


@dataclass
class Builder:
    draw: Callable
    grid: Shape
    lines: list[str] = field(default_factory=list)
    args: list[Value] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)
    counter: int = 0
    ops: int = 0
    has_partial: bool = False
    integers: dict[int, int] = field(default_factory=dict)
    features: set[str] = field(default_factory=set)
    depth: int = 0
    """How many regions the lines being written are nested in."""

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, shape: Shape, magnitude: float, text: str, keep: bool = True) -> Value:
        value = Value(self.fresh(), shape, magnitude)
        self.lines.append(f"  {value.name} = {text}")
        self.ops += 1
        if keep:
            self.values.append(value)
        return value

    def new_arg(self, shape: Shape) -> Value:
        value = Value(f"%a{len(self.args)}", shape, 3.0)
        self.args.append(value)
        self.values.append(value)
        return value

    def new_int_arg(self) -> Value:
        """An i32 scalar argument, run with a value in [0, 4]; no float op reads it."""
        value = Value(f"%a{len(self.args)}", (), 0.0, "i32")
        self.integers[len(self.args)] = self.draw(st.integers(0, 4))
        self.args.append(value)
        return value

    # ---------------------------------------------------------------- shardings

    def sharding(self, shape: Shape, partial_ok: bool = True) -> str:
        """A random layout of `shape`: each grid axis splits a dim it divides, is
        partial, or is unused."""
        split: list[list[int]] = [[] for _ in shape]
        partial: list[int] = []
        for axis in self.draw(st.permutations(range(len(self.grid)))):
            choices = ["none"]
            choices += [
                f"dim{d}" for d in range(len(shape)) if self._divides(shape, split, d, axis)
            ]
            if partial_ok:
                choices.append("partial")
            choice = self.draw(st.sampled_from(choices))
            if choice == "partial":
                partial.append(axis)
            elif choice != "none":
                split[int(choice[3:])].append(axis)
        text = "[" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in split) + "]"
        if partial:
            kind = self.draw(st.sampled_from(["sum", "sum", "sum", "max"]))
            text += f" partial = {kind} [" + ", ".join(map(str, sorted(partial))) + "]"
            self.has_partial = True
        return f"shard.sharding @g split_axes = {text} : !shard.sharding"

    def _divides(self, shape: Shape, split: list[list[int]], dim: int, axis: int) -> bool:
        shards = prod(self.grid[a] for a in split[dim]) * self.grid[axis]
        return shape[dim] % shards == 0

    def annotate(self, value: Value, for_users: bool) -> Value:
        s = self.fresh("s")
        sharding = self.sharding(value.shape)
        if self.depth:
            self.features.add("annotation in region")
            if "partial" in sharding:
                self.features.add("partial annotation in region")
        self.lines.append(f"  {s} = {sharding}")
        out = Value(self.fresh(), value.shape, value.magnitude)
        flag = " annotate_for_users" if for_users else ""
        self.lines.append(f"  {out.name} = shard.shard {value.name} to {s}{flag} : {value.type}")
        return out

    def maybe_annotate(self, value: Value) -> Value:
        """Intermediates: sometimes a result annotation, sometimes one for the users."""
        how = self.draw(st.sampled_from(["none", "none", "result", "users", "both"]))
        if how in ("result", "both"):
            value = self.annotate(value, False)
        if how in ("users", "both"):
            value = self.annotate(value, True)
        return value

    # ---------------------------------------------------------------- ops

    def pick(self, ok: Callable[[Value], bool] = lambda v: True) -> Value | None:
        candidates = [v for v in self.values if ok(v)]
        return self.draw(st.sampled_from(candidates)) if candidates else None

    def shape(self, rank: int | None = None) -> Shape:
        if rank is None:
            rank = self.draw(st.integers(1, MAX_RANK))
        return tuple(self.draw(st.sampled_from(EXTENTS)) for _ in range(rank))

    def same_shape_partner(self, a: Value) -> Value:
        b = self.pick(lambda v: v.shape == a.shape and v is not a)
        if b is None or self.draw(st.booleans()):
            b = self.draw(st.sampled_from([a, self.new_arg(a.shape)]))
        return b


def nest(flat: Sequence[str], shape: Shape) -> str:
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = prod(shape[1:])
    return (
        "["
        + ", ".join(nest(flat[i : i + step], shape[1:]) for i in range(0, len(flat), step))
        + "]"
    )
