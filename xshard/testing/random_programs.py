"""Random sharded StableHLO programs for property tests (hypothesis strategies).

`programs()` draws a grid (1-D or 2-D), a DAG of 3-10 StableHLO ops over a few
arguments (in some programs `while` loops and `case` ops among them, whose regions
are drawn from the same ops: `xshard.testing.random_regions`), and random
`shard.shard` annotations (split and partial axes) on arguments, on some
intermediates (as results and for their users, in regions too) and on results;
every split it writes divides its dim, so every program it draws is valid and must
partition and match one device. Magnitudes are tracked so that no value overflows
f32 and comparisons are not decided by rounding: a test failure is a wrong number,
a refusal or a crash, never noise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod

from hypothesis import strategies as st

from xshard.testing.program_builder import (
    EXTENTS,
    GRIDS,
    MAX_MAGNITUDE,
    MAX_RANK,
    Program,
    Shape,
    Value,
    nest,
    tensor_type,
)
from xshard.testing.random_regions import RegionBuilder

_OPS = (
    "unary", "binary", "binary", "select", "clamp", "dot_general", "dot_general", "reduce",
    "reduce", "transpose", "broadcast", "reshape", "slice", "concatenate", "constant",
    "mask", "pad", "reverse", "gather", "scatter", "dynamic_slice", "sort", "pool",
    "convolution",
)  # fmt: skip
_SHAPE_KEEPING = (
    "unary", "binary", "binary", "select", "clamp", "constant", "mask", "reverse", "sort",
)  # fmt: skip
_REGIONS = ("scan", "fori", "case")


@dataclass
class _Builder(RegionBuilder):
    """The ops a random program draws from, one method each (`while` and `case` from
    `RegionBuilder`, their regions drawn from `OPS`)."""

    OPS = _OPS
    SHAPE_KEEPING = _SHAPE_KEEPING

    def unary(self) -> None:
        a = self.pick()
        assert a is not None
        op = self.draw(
            st.sampled_from(
                ["negate", "abs", "tanh", "logistic", "sine", "exp", "positive", "convert"]
            )
        )
        if op == "exp":  # of a tanh: no overflow
            t = self.emit(a.shape, 1.0, f"stablehlo.tanh {a.name} : {a.type}", keep=False)
            self.emit(a.shape, 3.0, f"stablehlo.exponential {t.name} : {a.type}")
        elif op == "positive":  # sqrt, rsqrt, log or a power of exp(tanh a), in [1/e, e]
            t = self.emit(a.shape, 1.0, f"stablehlo.tanh {a.name} : {a.type}", keep=False)
            e = self.emit(a.shape, 3.0, f"stablehlo.exponential {t.name} : {a.type}", False)
            f = self.draw(st.sampled_from(["sqrt", "rsqrt", "log", "power"]))
            if f == "power":
                self.emit(a.shape, 30.0, f"stablehlo.power {e.name}, {e.name} : {a.type}")
            else:
                self.emit(a.shape, 3.0, f"stablehlo.{f} {e.name} : {a.type}")
        elif op == "convert":  # through f64 and back: exact both ways for these values
            wide = tensor_type(a.shape, "f64")
            w = self.emit(
                a.shape, a.magnitude, f"stablehlo.convert {a.name} : ({a.type}) -> {wide}", False
            )
            self.emit(a.shape, a.magnitude, f"stablehlo.convert {w.name} : ({wide}) -> {a.type}")
        else:
            bound = {"negate": a.magnitude, "abs": a.magnitude}.get(op, 1.0)
            self.emit(a.shape, bound, f"stablehlo.{op} {a.name} : {a.type}")

    def clamp(self) -> None:
        a = self.pick()
        assert a is not None
        lo = self.emit((), 0.0, "stablehlo.constant dense<-5.000000e-01> : tensor<f32>", False)
        hi = self.emit((), 0.0, "stablehlo.constant dense<2.000000e+00> : tensor<f32>", False)
        self.emit(
            a.shape,
            2.0,
            f"stablehlo.clamp {lo.name}, {a.name}, {hi.name} : "
            f"(tensor<f32>, {a.type}, tensor<f32>) -> {a.type}",
        )

    def binary(self) -> None:
        a = self.pick()
        assert a is not None
        b = self.same_shape_partner(a)
        ops = ["add", "subtract", "maximum", "minimum", "divide"]
        if a.magnitude * b.magnitude <= MAX_MAGNITUDE:
            ops += ["multiply", "multiply"]
        op = self.draw(st.sampled_from(ops))
        if op == "divide":  # by exp(tanh(b)), in [1/e, e]: never near zero
            t = self.emit(a.shape, 1.0, f"stablehlo.tanh {b.name} : {a.type}", keep=False)
            e = self.emit(a.shape, 3.0, f"stablehlo.exponential {t.name} : {a.type}", keep=False)
            self.emit(a.shape, 3 * a.magnitude, f"stablehlo.divide {a.name}, {e.name} : {a.type}")
            return
        bound = {
            "multiply": a.magnitude * b.magnitude,
            "maximum": max(a.magnitude, b.magnitude),
            "minimum": max(a.magnitude, b.magnitude),
        }.get(op, a.magnitude + b.magnitude)
        self.emit(a.shape, bound, f"stablehlo.{op} {a.name}, {b.name} : {a.type}")

    def select(self) -> None:
        """select(x > 0, a, b) on an argument x, whose values no rounding moves past 0."""
        a = self.pick()
        assert a is not None
        b = self.same_shape_partner(a)
        x = next((v for v in self.args if v.type == a.type), None) or self.new_arg(a.shape)
        zero = self.emit((), 0.0, "stablehlo.constant dense<0.000000e+00> : tensor<f32>", False)
        zeros = self.emit(
            a.shape,
            0.0,
            f"stablehlo.broadcast_in_dim {zero.name}, dims = [] : (tensor<f32>) -> {a.type}",
            keep=False,
        )
        pred = tensor_type(a.shape, "i1")
        c = self.emit(
            a.shape,
            1.0,
            f"stablehlo.compare GT, {x.name}, {zeros.name}, FLOAT : ({a.type}, {a.type}) -> {pred}",
            keep=False,
        )
        self.emit(
            a.shape,
            max(a.magnitude, b.magnitude),
            f"stablehlo.select {c.name}, {a.name}, {b.name} : {pred}, {a.type}",
        )

    def dot_general(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1 and v.magnitude < MAX_MAGNITUDE / 64)
        if a is None:
            return self.unary()
        rank = len(a.shape)
        roles = [self.draw(st.sampled_from(["batch", "contract", "free"])) for _ in a.shape]
        lhs_batch = [d for d in range(rank) if roles[d] == "batch"]
        lhs_contract = [d for d in range(rank) if roles[d] == "contract"]
        lhs_free = [d for d in range(rank) if roles[d] == "free"]
        rhs_free = self.shape(self.draw(st.integers(0, max(0, 3 - len(lhs_batch) - len(lhs_free)))))
        rhs_dims = (
            [("batch", i) for i in range(len(lhs_batch))]
            + [("contract", i) for i in range(len(lhs_contract))]
            + [("free", i) for i in range(len(rhs_free))]
        )
        order = self.draw(st.permutations(rhs_dims))
        rhs_shape = tuple(
            a.shape[lhs_batch[i]]
            if role == "batch"
            else a.shape[lhs_contract[i]]
            if role == "contract"
            else rhs_free[i]
            for role, i in order
        )
        b = self.pick(lambda v: v.shape == rhs_shape and v.magnitude < MAX_MAGNITUDE / 64)
        b = b or self.new_arg(rhs_shape)
        b = self.maybe_annotate(b)
        rhs_batch = [order.index(("batch", i)) for i in range(len(lhs_batch))]
        rhs_contract = [order.index(("contract", i)) for i in range(len(lhs_contract))]
        out = (
            tuple(a.shape[d] for d in lhs_batch)
            + tuple(a.shape[d] for d in lhs_free)
            + tuple(n for n, (role, _) in zip(rhs_shape, order, strict=True) if role == "free")
        )
        dims = []
        if lhs_batch:
            dims.append(f"batching_dims = {lhs_batch} x {rhs_batch}")
        dims.append(f"contracting_dims = {lhs_contract} x {rhs_contract}")
        terms = prod(a.shape[d] for d in lhs_contract)
        self.emit(
            out,
            a.magnitude * b.magnitude * terms,
            f"stablehlo.dot_general {a.name}, {b.name}, {', '.join(dims)} : "
            f"({a.type}, {b.type}) -> {tensor_type(out)}",
        )

    def reduce(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.unary()
        dims = sorted(self.draw(st.sets(st.sampled_from(range(len(a.shape))), min_size=1)))
        out = tuple(n for d, n in enumerate(a.shape) if d not in dims)
        kind = self.draw(
            st.sampled_from(["add", "add", "maximum", "minimum", "multiply", "argmax"])
        )
        if kind == "argmax":
            return self.argmax(a, dims, out)
        source = a
        if kind == "multiply":  # of values in [1/e, e]: no overflow, no underflow
            t = self.emit(a.shape, 1.0, f"stablehlo.tanh {a.name} : {a.type}", keep=False)
            source = self.emit(a.shape, 3.0, f"stablehlo.exponential {t.name} : {a.type}", False)
        # The identity: StableHLO folds the init in an implementation-defined number of
        # times (XLA drops it over a dim of size 1), so no other init has one meaning.
        init = {
            "add": "0.000000e+00",
            "maximum": "0xFF800000",
            "minimum": "0x7F800000",
            "multiply": "1.000000e+00",
        }[kind]
        c = self.emit((), 0.0, f"stablehlo.constant dense<{init}> : tensor<f32>", keep=False)
        terms = prod(a.shape[d] for d in dims)
        bound = {"add": source.magnitude * terms, "multiply": 3.0**terms}.get(kind, a.magnitude)
        if bound > MAX_MAGNITUDE:
            return self.unary()
        self.emit(
            out,
            bound,
            f"stablehlo.reduce({source.name} init: {c.name}) applies stablehlo.{kind} across "
            f"dimensions = {dims} : ({a.type}, tensor<f32>) -> {tensor_type(out)}",
        )

    def argmax(self, a: Value, dims: list[int], out: Shape) -> None:
        """The index of the largest element (a two-input reduce with a compare/select body),
        converted to f32 and added to the largest value."""
        index = tensor_type(a.shape, "i32")
        i = self.emit(a.shape, 0.0, f"stablehlo.iota dim = {dims[0]} : {index}", keep=False)
        ninf = self.emit((), 0.0, "stablehlo.constant dense<0xFF800000> : tensor<f32>", False)
        zero = self.emit((), 0.0, "stablehlo.constant dense<0> : tensor<i32>", False)
        v, k = self.fresh(), self.fresh()
        self.lines += [
            f"  {v}, {k} = stablehlo.reduce({a.name} init: {ninf.name}), ({i.name} init: "
            f"{zero.name}) across dimensions = {dims} : ({a.type}, {index}, tensor<f32>, "
            f"tensor<i32>) -> ({tensor_type(out)}, {tensor_type(out, 'i32')})",
            "   reducer(%p: tensor<f32>, %q: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>) {",
            "    %gt = stablehlo.compare GT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) "
            "-> tensor<i1>",
            "    %m = stablehlo.select %gt, %p, %q : tensor<i1>, tensor<f32>",
            "    %n = stablehlo.select %gt, %i, %j : tensor<i1>, tensor<i32>",
            "    stablehlo.return %m, %n : tensor<f32>, tensor<i32>",
            "  }",
        ]
        self.ops += 1
        f = self.emit(
            out,
            8.0,
            f"stablehlo.convert {k} : ({tensor_type(out, 'i32')}) -> {tensor_type(out)}",
            keep=False,
        )
        self.emit(out, a.magnitude + 8.0, f"stablehlo.add {v}, {f.name} : {tensor_type(out)}")

    def transpose(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 2)
        if a is None:
            return self.unary()
        perm = self.draw(st.permutations(range(len(a.shape))))
        out = tuple(a.shape[p] for p in perm)
        self.emit(
            out,
            a.magnitude,
            f"stablehlo.transpose {a.name}, dims = {list(perm)} : ({a.type}) -> {tensor_type(out)}",
        )

    def broadcast(self) -> None:
        a = self.pick(lambda v: len(v.shape) < MAX_RANK)
        if a is None:
            return self.unary()
        at = self.draw(st.integers(0, len(a.shape)))
        out = a.shape[:at] + (self.draw(st.sampled_from(EXTENTS)),) + a.shape[at:]
        dims = [d if d < at else d + 1 for d in range(len(a.shape))]
        self.emit(
            out,
            a.magnitude,
            f"stablehlo.broadcast_in_dim {a.name}, dims = {dims} : "
            f"({a.type}) -> {tensor_type(out)}",
        )

    def reshape(self) -> None:
        a = self.pick()
        assert a is not None
        merges = [d for d in range(len(a.shape) - 1)]
        splits = [
            d for d, n in enumerate(a.shape) if n >= 4 and n % 2 == 0 and len(a.shape) < MAX_RANK
        ]
        moves = [("merge", d) for d in merges] + [("split", d) for d in splits]
        if not moves:
            return self.unary()
        how, d = self.draw(st.sampled_from(moves))
        if how == "merge":
            out = a.shape[:d] + (a.shape[d] * a.shape[d + 1],) + a.shape[d + 2 :]
        else:
            major = self.draw(st.sampled_from([f for f in (2, 4) if a.shape[d] % f == 0]))
            out = a.shape[:d] + (major, a.shape[d] // major) + a.shape[d + 1 :]
        self.emit(
            out, a.magnitude, f"stablehlo.reshape {a.name} : ({a.type}) -> {tensor_type(out)}"
        )

    def slice(self) -> None:
        a = self.pick(lambda v: any(n >= 2 for n in v.shape))
        if a is None:
            return self.unary()
        d = self.draw(st.sampled_from([d for d, n in enumerate(a.shape) if n >= 2]))
        n = a.shape[d]
        start = self.draw(st.integers(0, n // 2))
        stride = self.draw(st.sampled_from([1, 1, 2]))
        limit = self.draw(st.integers(start + 1, n))
        ranges = [f"0:{m}" for m in a.shape]
        ranges[d] = f"{start}:{limit}" + (f":{stride}" if stride != 1 else "")
        out = list(a.shape)
        out[d] = len(range(start, limit, stride))
        self.emit(
            tuple(out),
            a.magnitude,
            f"stablehlo.slice {a.name} [{', '.join(ranges)}] : "
            f"({a.type}) -> {tensor_type(tuple(out))}",
        )

    def concatenate(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.unary()
        b = self.same_shape_partner(a)
        d = self.draw(st.integers(0, len(a.shape) - 1))
        out = list(a.shape)
        out[d] *= 2
        self.emit(
            tuple(out),
            max(a.magnitude, b.magnitude),
            f"stablehlo.concatenate {a.name}, {b.name}, dim = {d} : ({a.type}, {b.type}) -> "
            f"{tensor_type(tuple(out))}",
        )

    def constant(self) -> None:
        """A constant (splat, dense or an iota) added to a value."""
        a = self.pick()
        assert a is not None
        kind = self.draw(st.sampled_from(["splat", "dense", "iota"]))
        if kind == "splat":
            c = self.emit(a.shape, 2.0, f"stablehlo.constant dense<2.500000e-01> : {a.type}", False)
        elif kind == "dense":
            n = prod(a.shape)
            values = ", ".join(f"{(i % 7) - 3}.0" for i in range(n))
            body = f"[{values}]" if a.shape else values
            if len(a.shape) > 1:
                body = nest([f"{(i % 7) - 3}.0" for i in range(n)], a.shape)
            c = self.emit(a.shape, 3.0, f"stablehlo.constant dense<{body}> : {a.type}", False)
        else:
            if not a.shape:
                return self.unary()
            dim = self.draw(st.integers(0, len(a.shape) - 1))
            i = self.emit(
                a.shape, 0.0, f"stablehlo.iota dim = {dim} : {tensor_type(a.shape, 'i32')}", False
            )
            c = self.emit(
                a.shape,
                8.0,
                f"stablehlo.convert {i.name} : ({tensor_type(a.shape, 'i32')}) -> {a.type}",
                keep=False,
            )
        self.emit(
            a.shape, a.magnitude + c.magnitude, f"stablehlo.add {a.name}, {c.name} : {a.type}"
        )


    # ------------------------------------------------------------ ops of real models

    def mask(self) -> None:
        """A causal mask: `select(iota(d0) >= iota(d1), a, 0)`, exact integer compares."""
        a = self.pick(lambda v: len(v.shape) >= 2)
        if a is None:
            return self.unary()
        d0, d1 = self.draw(st.permutations(range(len(a.shape))))[:2]
        it = tensor_type(a.shape, "i32")
        i = self.emit(a.shape, 0.0, f"stablehlo.iota dim = {d0} : {it}", keep=False)
        j = self.emit(a.shape, 0.0, f"stablehlo.iota dim = {d1} : {it}", keep=False)
        pred = tensor_type(a.shape, "i1")
        c = self.emit(
            a.shape,
            1.0,
            f"stablehlo.compare GE, {i.name}, {j.name}, SIGNED : ({it}, {it}) -> {pred}",
            keep=False,
        )
        zero = self.emit((), 0.0, "stablehlo.constant dense<0.000000e+00> : tensor<f32>", False)
        z = self.emit(
            a.shape,
            0.0,
            f"stablehlo.broadcast_in_dim {zero.name}, dims = [] : (tensor<f32>) -> {a.type}",
            keep=False,
        )
        select = f"stablehlo.select {c.name}, {a.name}, {z.name} : {pred}, {a.type}"
        self.emit(a.shape, a.magnitude, select)

    def pad(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.unary()
        d = self.draw(st.integers(0, len(a.shape) - 1))
        low, high = self.draw(st.integers(0, 2)), self.draw(st.integers(0, 2))
        value = self.draw(st.sampled_from(["0.000000e+00", "1.500000e+00"]))
        c = self.emit((), 1.5, f"stablehlo.constant dense<{value}> : tensor<f32>", keep=False)
        lows = [0] * len(a.shape)
        highs = [0] * len(a.shape)
        lows[d], highs[d] = low, high
        out = list(a.shape)
        out[d] += low + high
        self.emit(
            tuple(out),
            max(a.magnitude, 1.5),
            f"stablehlo.pad {a.name}, {c.name}, low = {lows}, high = {highs}, "
            f"interior = {[0] * len(a.shape)} : ({a.type}, tensor<f32>) -> "
            f"{tensor_type(tuple(out))}",
        )

    def reverse(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.unary()
        dims = sorted(self.draw(st.sets(st.sampled_from(range(len(a.shape))), min_size=1)))
        self.emit(a.shape, a.magnitude, f"stablehlo.reverse {a.name}, dims = {dims} : {a.type}")

    def gather(self) -> None:
        """Rows of a value picked by constant indices (an embedding lookup)."""
        a = self.pick(lambda v: len(v.shape) == 2)
        if a is None:
            return self.unary()
        rows, cols = a.shape
        k = self.draw(st.sampled_from(EXTENTS))
        ids = ", ".join(str(self.draw(st.integers(0, rows - 1))) for _ in range(k))
        it = f"tensor<{k}xi32>"
        i = self.emit((k,), 0.0, f"stablehlo.constant dense<[{ids}]> : {it}", keep=False)
        out = (k, cols)
        self.emit(
            out,
            a.magnitude,
            f'"stablehlo.gather"({a.name}, {i.name}) <{{dimension_numbers = '
            f"#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
            f"start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, "
            f"slice_sizes = array<i64: 1, {cols}>}}> : ({a.type}, {it}) -> {tensor_type(out)}",
        )

    def scatter(self) -> None:
        """Rows of a value added into a zero table at constant indices (its gradient)."""
        a = self.pick(lambda v: len(v.shape) == 2)
        if a is None:
            return self.unary()
        k, cols = a.shape
        rows = self.draw(st.sampled_from(EXTENTS))
        ids = ", ".join(f"[{self.draw(st.integers(0, rows - 1))}]" for _ in range(k))
        it = f"tensor<{k}x1xi32>"
        i = self.emit((k, 1), 0.0, f"stablehlo.constant dense<[{ids}]> : {it}", keep=False)
        out = tensor_type((rows, cols))
        z = self.emit((rows, cols), 0.0, f"stablehlo.constant dense<0.000000e+00> : {out}", False)
        v = self.fresh()
        self.lines += [
            f'  {v} = "stablehlo.scatter"({z.name}, {i.name}, {a.name}) <{{'
            "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
            "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
            "index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({",
            "  ^bb0(%sx: tensor<f32>, %sy: tensor<f32>):",
            "    %ss = stablehlo.add %sx, %sy : tensor<f32>",
            "    stablehlo.return %ss : tensor<f32>",
            f"  }}) : ({out}, {it}, {a.type}) -> {out}",
        ]
        self.ops += 1
        self.values.append(Value(v, (rows, cols), a.magnitude * k))

    def dynamic_slice(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.unary()
        d = self.draw(st.integers(0, len(a.shape) - 1))
        size = self.draw(st.integers(1, a.shape[d]))
        start = self.draw(st.integers(0, a.shape[d] - size + 2))  # may run past: clamped
        starts = []
        for e in range(len(a.shape)):
            c = self.emit(
                (), 0.0, f"stablehlo.constant dense<{start if e == d else 0}> : tensor<i32>", False
            )
            starts.append(c.name)
        out = list(a.shape)
        out[d] = size
        self.emit(
            tuple(out),
            a.magnitude,
            f"stablehlo.dynamic_slice {a.name}, {', '.join(starts)}, sizes = {out} : "
            f"({a.type}, {', '.join(['tensor<i32>'] * len(a.shape))}) -> "
            f"{tensor_type(tuple(out))}",
        )

    def sort(self) -> None:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.unary()
        d = self.draw(st.integers(0, len(a.shape) - 1))
        v = self.fresh()
        self.lines += [
            f'  {v} = "stablehlo.sort"({a.name}) <{{dimension = {d} : i64}}> ({{',
            "  ^bb0(%sa: tensor<f32>, %sb: tensor<f32>):",
            "    %lt = stablehlo.compare LT, %sa, %sb, TOTALORDER : "
            "(tensor<f32>, tensor<f32>) -> tensor<i1>",
            "    stablehlo.return %lt : tensor<i1>",
            f"  }}) : ({a.type}) -> {a.type}",
        ]
        self.ops += 1
        self.values.append(Value(v, a.shape, a.magnitude))

    def pool(self) -> None:
        """A max or sum pooling window of 2, stride 2, on one dim."""
        a = self.pick(lambda v: any(n >= 2 and n % 2 == 0 for n in v.shape))
        if a is None:
            return self.unary()
        even = [d for d, n in enumerate(a.shape) if n >= 2 and n % 2 == 0]
        d = self.draw(st.sampled_from(even))
        kind = self.draw(st.sampled_from(["maximum", "add"]))
        init = {"maximum": "0xFF800000", "add": "0.000000e+00"}[kind]
        c = self.emit((), 0.0, f"stablehlo.constant dense<{init}> : tensor<f32>", keep=False)
        window = [2 if e == d else 1 for e in range(len(a.shape))]
        out = list(a.shape)
        out[d] //= 2
        v = self.fresh()
        rank = len(a.shape)
        self.lines += [
            f'  {v} = "stablehlo.reduce_window"({a.name}, {c.name}) <{{'
            f"window_dimensions = array<i64: {', '.join(map(str, window))}>, "
            f"window_strides = array<i64: {', '.join(map(str, window))}>, "
            f"padding = dense<0> : tensor<{rank}x2xi64>}}> ({{",
            "  ^bb0(%wa: tensor<f32>, %wb: tensor<f32>):",
            f"    %wr = stablehlo.{kind} %wa, %wb : tensor<f32>",
            "    stablehlo.return %wr : tensor<f32>",
            f"  }}) : ({a.type}, tensor<f32>) -> {tensor_type(tuple(out))}",
        ]
        self.ops += 1
        self.values.append(Value(v, tuple(out), a.magnitude * (2 if kind == "add" else 1)))

    def convolution(self) -> None:
        """A 1-D convolution, `[b, 0, f] x [0, i, o] -> [b, 0, f]`, padding 'same'."""
        a = self.pick(lambda v: len(v.shape) == 3 and v.magnitude < MAX_MAGNITUDE / 64)
        if a is None:
            return self.unary()
        b, w, f = a.shape
        k = self.draw(st.sampled_from([1, 3]))
        o = self.draw(st.sampled_from(EXTENTS))
        kernel = self.new_arg((k, f, o))
        kernel = self.maybe_annotate(kernel)
        out = (b, w, o)
        self.emit(
            out,
            a.magnitude * kernel.magnitude * k * f,
            f"stablehlo.convolution({a.name}, {kernel.name}) dim_numbers = [b, 0, f]x[0, i, o]"
            f"->[b, 0, f], window = {{stride = [1], pad = [[{k // 2}, {k // 2}]], "
            f"lhs_dilate = [1], rhs_dilate = [1]}} {{batch_group_count = 1 : i64, "
            f"feature_group_count = 1 : i64}} : ({a.type}, {kernel.type}) -> "
            f"{tensor_type(out)}",
        )


@st.composite
def programs(draw, min_ops: int = 3, max_ops: int = 10) -> Program:
    """A program of `min_ops`-`max_ops` ops; three in seven hold one or two region ops
    (`_REGIONS`) among them, at random places."""
    grid = draw(st.sampled_from(GRIDS))
    b = _Builder(draw, grid)
    for _ in range(draw(st.integers(1, 2))):
        b.new_arg(b.shape())
    body_start = len(b.lines)
    target = draw(st.integers(min_ops, max_ops))
    regions = draw(st.sampled_from([0, 0, 0, 0, 1, 1, 2]))
    while b.ops < target or regions:
        if regions and (b.ops >= target or draw(st.integers(0, 2)) == 2):
            regions -= 1
            getattr(b, draw(st.sampled_from(_REGIONS)))()
        else:
            getattr(b, draw(st.sampled_from(_OPS)))()
        b.values[-1] = b.maybe_annotate(b.values[-1])
    results = [b.values[-1]]
    if draw(st.booleans()):
        other = b.pick(lambda v: v is not results[0] and not v.name.startswith("%a"))
        if other is not None:
            results.append(other)
    ret = []
    for r in results:
        how = draw(st.sampled_from(["none", "users", "result"]))
        ret.append(b.annotate(r, how == "users") if how != "none" else r)
    body = "\n".join(b.lines[body_start:])
    head = []
    for arg in b.args:  # the layouts callers pass arguments in (or none: replicated)
        if arg.element == "f32" and draw(st.integers(0, 3)):
            s = b.fresh("s")
            head.append(f"  {s} = {b.sharding(arg.shape)}")
            head.append(f"  {arg.name}_s = shard.shard {arg.name} to {s} : {arg.type}")
            body = _rename(body, arg.name, f"{arg.name}_s")
    params = ", ".join(f"{a.name}: {a.type}" for a in b.args)
    results_type = ", ".join(r.type for r in ret)
    lines = [
        "shard.grid @g(shape = " + "x".join(map(str, grid)) + ")",
        f"func.func @main({params}) -> ({results_type}) {{",
        *head,
        body,
        "  func.return " + ", ".join(r.name for r in ret) + " : " + results_type,
        "}",
    ]
    return Program(
        "\n".join(lines) + "\n",
        grid,
        b.has_partial,
        b.ops,
        tuple(b.args),
        b.integers,
        frozenset(b.features),
    )


def _rename(text: str, old: str, new: str) -> str:
    """Replace the SSA name `old` by `new` where it is a whole name."""
    return re.sub(re.escape(old) + r"(?![\w])", new, text)
