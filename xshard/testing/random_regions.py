"""Random `stablehlo.while` and `stablehlo.case` ops, as JAX lowers `lax.scan`,
`fori_loop`, `lax.cond` and `lax.switch`, for the random programs' property test.

Their regions are drawn with the ops and the annotations of straight-line code, so
each region partitions as the rest of the program does and the carries (one layout
at entry, in the regions, at the yields and after the op) meet random layouts,
partial ones included.

Magnitudes stay bounded however many trips a loop makes: a state carry's bound M is
its initial value's (at least 1) and each trip yields a value the drawing bounds by
M, or its tanh; an accumulator grows by one bounded term per trip, 4 trips at most.
Branch indices and loop bounds are integers, or compares of argument data that no
rounding moves past their threshold, so every device takes the path one device does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ClassVar

from hypothesis import strategies as st

from xshard.testing.program_builder import (
    MAX_MAGNITUDE,
    MAX_RANK,
    Builder,
    Shape,
    Value,
    tensor_type,
)

I32 = "tensor<i32>"
MAX_TRIPS = 4


@dataclass
class _Carry:
    """One loop carry: its block argument, the value entering and the value yielded."""

    arg: str
    init: str
    type: str
    yielded: str


@dataclass
class _Loop:
    """A loop being drawn: where the lines before it go, and its carries."""

    length: int
    """The trip count (a static loop) or its bound (a dynamic one): stacked axes' size."""
    lines: list[str]
    values: list[Value]
    depth: int
    counter: _Carry
    carries: list[_Carry] = field(default_factory=list)
    leaving: list[tuple[Value, _Carry]] = field(default_factory=list)
    """Carries whose results the program goes on with, and their bound."""


@dataclass
class RegionBuilder(Builder):
    """`while` and `case` over the straight-line ops a subclass lists in `OPS`."""

    OPS: ClassVar[tuple[str, ...]] = ()
    SHAPE_KEEPING: ClassVar[tuple[str, ...]] = ()
    """The ops of `OPS` whose result has their first operand's shape."""
    counter_name: str | None = None
    """The trip counter of the loop whose body is being drawn (a branch index source)."""

    @contextmanager
    def scope(self, lines: list[str], values: list[Value], depth: int) -> Iterator[None]:
        """Write `lines` with `values` in reach: a region's body, or the lines before a
        region op while its body is being drawn."""
        saved = self.lines, self.values, self.depth
        self.lines, self.values, self.depth = lines, values, depth
        try:
            yield
        finally:
            self.lines, self.values, self.depth = saved

    def straight_ops(self, count: int) -> None:
        """`count` ops of `OPS`, each result maybe annotated; inside a loop body, now and
        then a `case` (nested regions)."""
        for _ in range(count):
            nest = self.counter_name is not None and self.depth < 2
            if nest and self.draw(st.integers(0, 5)) == 5:
                self.case()
            else:
                getattr(self, self.draw(st.sampled_from(self.OPS)))()
            self.values[-1] = self.maybe_annotate(self.values[-1])

    def computed(self, shape: Shape) -> Value:
        """A value of `shape` made in the region being drawn, mostly: an op of
        `SHAPE_KEEPING` over the values of that shape in reach (or one of them as it is)."""
        same = [v for v in self.values if v.shape == shape][::-1]
        if not self.draw(st.integers(0, 3)):
            return self.draw(st.sampled_from(same))
        pool, self.values = self.values, same
        try:
            getattr(self, self.draw(st.sampled_from(self.SHAPE_KEEPING)))()
            out = self.values[-1]
        finally:
            self.values = pool
        self.values.append(out)
        return out

    def constant_i32(self, n: int) -> str:
        return self.emit((), 0.0, f"stablehlo.constant dense<{n}> : {I32}", keep=False).name

    # ---------------------------------------------------------------- while

    def scan(self) -> None:
        self.loop(dynamic=False)

    def fori(self) -> None:
        self.loop(dynamic=True)

    def loop(self, dynamic: bool) -> None:
        """A counter from 0 `LT` a trip count (a constant 1-4, or an i32 argument run
        with 0-4) stepping by 1; state carries updated from the trip's values; stacked
        operands (a leading layer axis, returned unchanged) sliced at the counter;
        stacked outputs written at the counter into zeros; an accumulator that only gets
        a term added (a gradient-accumulation dot contracting a dim that may be split)."""
        self.features.add("while")
        length = MAX_TRIPS if dynamic else self.draw(st.integers(1, MAX_TRIPS))
        counter = _Carry(self.fresh("i"), self.constant_i32(0), I32, "")
        loop = _Loop(length, self.lines, self.values, self.depth, counter, [counter])
        bound = ""
        if dynamic:
            self.features.add("dynamic bound")
            if self.draw(st.booleans()):  # as JAX lowers it: the bound is a carry
                bound = self.fresh("n")
                loop.carries.append(_Carry(bound, self.new_int_arg().name, I32, bound))
            else:  # read from above
                bound = self.new_int_arg().name
        states = []
        for _ in range(self.draw(st.integers(1, 2))):
            init = self.pick() if self.draw(st.booleans()) else self.new_arg(self.shape())
            assert init is not None
            states.append(self.enter(loop, init, max(init.magnitude, 1.0)))
        stacked: list[Value] = []
        for _ in range(self.draw(st.integers(0, 1) if dynamic else st.integers(1, 2))):
            x = self.pick(lambda v: len(v.shape) >= 2 and v.shape[0] >= length)
            if x is None or self.draw(st.booleans()):
                inner = states[0][0].shape  # an RNN's inputs, or any shape
                if len(inner) >= MAX_RANK or self.draw(st.booleans()):
                    inner = self.shape(self.draw(st.integers(1, MAX_RANK - 1)))
                x = self.new_arg((length, *inner))
            if self.draw(st.integers(0, 3)) == 3:  # not as JAX does: read from above
                self.features.add("stacked operand read from above")
                with self.scope(loop.lines, loop.values, loop.depth):
                    stacked.append(self.maybe_annotate(x))
            else:
                stacked.append(self.enter(loop, x, x.magnitude)[0])
        h = states[0][0]
        if h.shape and self.draw(st.integers(0, 2)) == 2:  # an RNN's stacked weights
            stacked.append(self.stacked_arg(loop, (h.shape[-1], h.shape[-1])))
        pool = [v for v, _ in states]
        if self.draw(st.integers(0, 3)) == 3:  # the body reads values from above too
            self.features.add("loop reads from above")
            pool += loop.values
        body: list[str] = []
        saved_counter, self.counter_name = self.counter_name, counter.arg
        try:
            with self.scope(body, pool, loop.depth + 1):
                self.loop_body(loop, states, stacked)
        finally:
            self.counter_name = saved_counter
        cond: list[str] = []
        with self.scope(cond, [], loop.depth + 1):
            if not dynamic:
                bound = self.constant_i32(length)
            compare = f"stablehlo.compare LT, {counter.arg}, {bound}, SIGNED"
            lt = self.emit((), 0.0, f"{compare} : ({I32}, {I32}) -> tensor<i1>", keep=False)
        cond.append(f"    stablehlo.return {lt.name} : tensor<i1>")
        order = self.draw(st.permutations(loop.carries))
        types = ", ".join(c.type for c in order)
        name = self.fresh("w")
        self.lines += [
            f"  {name}:{len(order)} = stablehlo.while("
            + ", ".join(f"{c.arg} = {c.init}" for c in order)
            + f") : {types}",
            "  cond {",
            *cond,
            "  } do {",
            *body,
            f"    stablehlo.return {', '.join(c.yielded for c in order)} : {types}",
            "  }",
        ]
        self.ops += 1
        for value, carry in loop.leaving:
            out = Value(f"{name}#{order.index(carry)}", value.shape, value.magnitude)
            self.values.append(self.maybe_annotate(out))

    def enter(self, loop: _Loop, init: Value, magnitude: float) -> tuple[Value, _Carry]:
        """`init`, a value before the loop (maybe annotated there), as a carry: its block
        argument, bounded by `magnitude`; returned unchanged unless the body updates it."""
        with self.scope(loop.lines, loop.values, loop.depth):
            init = self.maybe_annotate(init)
        arg = self.fresh("c")
        carry = _Carry(arg, init.name, init.type, arg)
        loop.carries.append(carry)
        return Value(carry.arg, init.shape, magnitude), carry

    def stacked_arg(self, loop: _Loop, inner: Shape) -> Value:
        """A new argument stacked `length` deep, entering as a carry: its block argument."""
        with self.scope(loop.lines, loop.values, loop.depth):
            x = self.new_arg((loop.length, *inner))
        return self.enter(loop, x, x.magnitude)[0]

    def zeros(self, loop: _Loop, shape: Shape, magnitude: float) -> tuple[Value, _Carry]:
        """A carry entering as zeros, made before the loop."""
        zeros = f"stablehlo.constant dense<0.000000e+00> : {tensor_type(shape)}"
        with self.scope(loop.lines, loop.values, loop.depth):
            z = self.emit(shape, 0.0, zeros, keep=False)
        return self.enter(loop, z, magnitude)

    def loop_body(
        self,
        loop: _Loop,
        states: list[tuple[Value, _Carry]],
        stacked: list[Value],
    ) -> None:
        """The body's lines: slices of the stacked operands, drawn ops, then each carry's
        yield and the counter's step."""
        for i in range(len(states)):  # annotated for the body's users, or not
            self.values[i] = self.maybe_annotate(self.values[i])
        zero = self.constant_i32(0)
        for x in stacked:
            self.features.add("stacked operand")
            self.values.append(self.maybe_annotate(self.trip_slice(x, loop, zero)))
        h, w = states[0][0], self.values[-1]
        if stacked and len(w.shape) == 2 and h.shape[-1:] == w.shape[:1] == w.shape[1:]:
            bound = h.magnitude * w.magnitude * h.shape[-1]  # h' = h . W[i], an RNN step
            if bound <= MAX_MAGNITUDE:
                self.emit(
                    h.shape,
                    bound,
                    f"stablehlo.dot_general {h.name}, {w.name}, contracting_dims = "
                    f"[{len(h.shape) - 1}] x [0] : ({h.type}, {w.type}) -> {h.type}",
                )
        self.straight_ops(self.draw(st.integers(1, 4)))
        for h, carry in states:
            v = self.computed(h.shape)
            if v.magnitude > h.magnitude:  # bounded by M, trip after trip
                v = self.emit(v.shape, 1.0, f"stablehlo.tanh {v.name} : {v.type}", keep=False)
            carry.yielded = self.maybe_annotate(v).name
            loop.leaving.append((h, carry))
        for _ in range(self.draw(st.integers(0, 2))):
            self.stacked_output(loop, zero)
        if self.draw(st.integers(0, 2)):  # two loops in three accumulate
            self.accumulator(loop, zero)
        one = self.constant_i32(1)
        step = self.emit((), 0.0, f"stablehlo.add {loop.counter.arg}, {one} : {I32}", False)
        loop.counter.yielded = step.name

    def trip_slice(self, x: Value, loop: _Loop, zero: str) -> Value:
        """`x[i]`: a dynamic_slice at the counter on the leading axis, reshaped to drop it."""
        inner = x.shape[1:]
        one = (1, *inner)
        starts = ", ".join([loop.counter.arg] + [zero] * len(inner))
        s = self.emit(
            one,
            x.magnitude,
            f"stablehlo.dynamic_slice {x.name}, {starts}, sizes = {list(one)} : "
            f"({x.type}, {', '.join([I32] * len(x.shape))}) -> {tensor_type(one)}",
            keep=False,
        )
        return self.emit(
            inner, x.magnitude, f"stablehlo.reshape {s.name} : ({s.type}) -> {tensor_type(inner)}"
        )

    def stacked_output(self, loop: _Loop, zero: str) -> None:
        """A trip's value written at the counter into a buffer entering as zeros."""
        y = self.pick(lambda v: len(v.shape) < MAX_RANK)
        if y is None:
            return
        self.features.add("stacked output")
        shape = (loop.length, *y.shape)
        buffer, carry = self.zeros(loop, shape, y.magnitude)
        one = (1, *y.shape)
        reshape = f"stablehlo.reshape {y.name} : ({y.type}) -> {tensor_type(one)}"
        y1 = self.emit(one, y.magnitude, reshape, keep=False)
        starts = ", ".join([loop.counter.arg] + [zero] * len(y.shape))
        out = self.emit(
            shape,
            y.magnitude,
            f"stablehlo.dynamic_update_slice {buffer.name}, {y1.name}, {starts} : "
            f"({buffer.type}, {y1.type}, {', '.join([I32] * len(shape))}) -> {buffer.type}",
            keep=False,
        )
        carry.yielded = self.maybe_annotate(out).name
        loop.leaving.append((buffer, carry))

    def accumulator(self, loop: _Loop, zero: str) -> None:
        """`acc += term`, entering as zeros: mostly a weight gradient, `x[i]^T . g[i]`,
        which contracts the batch dim (partial where that dim is split)."""
        self.features.add("accumulator")
        small = MAX_MAGNITUDE / 64
        a = self.pick(lambda v: len(v.shape) >= 1 and v.magnitude < small)
        if a is not None and self.draw(st.integers(0, 3)):
            self.features.add("gradient accumulator")
            b = self.pick(
                lambda v: (
                    v.shape[:1] == a.shape[:1]
                    and len(a.shape) + len(v.shape) - 2 <= MAX_RANK
                    and v.magnitude < small
                )
            )
            if b is None or self.draw(st.booleans()):
                inner = self.shape(self.draw(st.integers(0, min(1, MAX_RANK + 1 - len(a.shape)))))
                x = self.stacked_arg(loop, (a.shape[0], *inner))
                b = self.maybe_annotate(self.trip_slice(x, loop, zero))
            out = a.shape[1:] + b.shape[1:]
            term = self.emit(
                out,
                a.magnitude * b.magnitude * a.shape[0],
                f"stablehlo.dot_general {a.name}, {b.name}, contracting_dims = [0] x [0] : "
                f"({a.type}, {b.type}) -> {tensor_type(out)}",
            )
        else:
            term = self.pick()
            assert term is not None
        if term.magnitude * loop.length > MAX_MAGNITUDE:
            term = self.emit(term.shape, 1.0, f"stablehlo.tanh {term.name} : {term.type}")
        term = self.maybe_annotate(term)
        acc, carry = self.zeros(loop, term.shape, term.magnitude * loop.length)
        lhs, rhs = self.draw(st.permutations([acc.name, term.name]))
        out = self.emit(acc.shape, acc.magnitude, f"stablehlo.add {lhs}, {rhs} : {acc.type}")
        carry.yielded = self.maybe_annotate(out).name
        loop.leaving.append((acc, carry))

    # ---------------------------------------------------------------- case

    def case(self) -> None:
        """2-3 branches that read values from above (no block arguments), draw a few ops
        each and yield one value per result type; the index from data, an argument or
        the trip counter."""
        self.features.add("case")
        if self.depth:
            self.features.add("nested region")
        branches = self.draw(st.integers(2, 3))
        index = self.case_index(branches)
        results = [self.pick() for _ in range(self.draw(st.integers(1, 2)))]
        shapes = [r.shape for r in results if r is not None]
        bounds = [0.0] * len(shapes)
        types = ", ".join(tensor_type(s) for s in shapes)
        texts = []
        for _ in range(branches):
            lines: list[str] = []
            with self.scope(lines, list(self.values), self.depth + 1):
                self.straight_ops(self.draw(st.integers(0, 3)))
                names = []
                for k, shape in enumerate(shapes):
                    v = self.maybe_annotate(self.computed(shape))
                    names.append(v.name)
                    bounds[k] = max(bounds[k], v.magnitude)
                lines.append(f"    stablehlo.return {', '.join(names)} : {types}")
            texts.append("\n".join(lines))
        name = self.fresh("k")
        many = len(shapes) > 1
        self.lines.append(
            f"  {name}{f':{len(shapes)}' if many else ''} = "
            f'"stablehlo.case"({index}) ({{\n'
            + "\n  }, {\n".join(texts)
            + f"\n  }}) : ({I32}) -> {f'({types})' if many else types}"
        )
        self.ops += 1
        for k, (shape, bound) in enumerate(zip(shapes, bounds, strict=True)):
            out = Value(f"{name}#{k}" if many else name, shape, bound)
            self.values.append(self.maybe_annotate(out))

    def case_index(self, branches: int) -> str:
        """An i32 index in [0, branches): `sum(x) > 0` (+ `max(x) > 1`) of an argument x,
        an i32 argument clamped, or the trip counter clamped."""
        sources = ["data", "argument"] + (["counter"] if self.counter_name else [])
        how = self.draw(st.sampled_from(sources))
        if how != "data":
            self.features.add(f"case index from {how}")
            k = self.counter_name if how == "counter" else self.new_int_arg().name
            lo, hi = self.constant_i32(0), self.constant_i32(branches - 1)
            clamp = f"stablehlo.clamp {lo}, {k}, {hi} : ({I32}, {I32}, {I32}) -> {I32}"
            return self.emit((), 0.0, clamp, keep=False).name
        x = next((a for a in self.args if a.element == "f32" and a.shape), None)
        if x is None or self.draw(st.booleans()):
            x = self.new_arg(self.shape())
        index = self.compare_to_i32(x, "add", "0.000000e+00", "0.000000e+00")
        if branches == 3:
            more = self.compare_to_i32(x, "maximum", "0xFF800000", "1.000000e+00")
            index = self.emit((), 0.0, f"stablehlo.add {index}, {more} : {I32}", False).name
        return index

    def compare_to_i32(self, x: Value, reducer: str, init: str, threshold: str) -> str:
        """`reduce(x) > threshold`, as an i32 0 or 1."""
        f32 = "tensor<f32>"
        c = self.emit((), 0.0, f"stablehlo.constant dense<{init}> : {f32}", keep=False)
        t = self.emit((), 0.0, f"stablehlo.constant dense<{threshold}> : {f32}", keep=False)
        dims = list(range(len(x.shape)))
        r = self.emit(
            (),
            0.0,
            f"stablehlo.reduce({x.name} init: {c.name}) applies stablehlo.{reducer} across "
            f"dimensions = {dims} : ({x.type}, {f32}) -> {f32}",
            keep=False,
        )
        p = self.emit(
            (),
            0.0,
            f"stablehlo.compare GT, {r.name}, {t.name}, FLOAT : ({f32}, {f32}) -> tensor<i1>",
            keep=False,
        )
        convert = f"stablehlo.convert {p.name} : (tensor<i1>) -> {I32}"
        return self.emit((), 0.0, convert, keep=False).name
