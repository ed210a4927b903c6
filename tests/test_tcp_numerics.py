"""TCP programs lowered by `convert-tcp-to-stablehlo`, run by XLA, checked against numpy.

Each case is a one-function TCP module; the lowered StableHLO must compute what
numpy computes on the same inputs. This is what makes the lowering tables
(which StableHLO op, which rounding fix-up, which init value) trustworthy.
"""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xshard.jax as jax_bridge
from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser

ConvertTcpToStablehloPass = import_module(
    "xshard.transforms.import.convert_tcp_to_stablehlo"
).ConvertTcpToStablehloPass
ConvertStablehloToTcpPass = import_module(
    "xshard.transforms.import.convert_stablehlo_to_tcp"
).ConvertStablehloToTcpPass

RNG = np.random.default_rng(0)
F = RNG.standard_normal((3, 4)).astype(np.float32)
G = RNG.standard_normal((3, 4)).astype(np.float32)
TIES = np.array([[-2.5, -1.5, -0.5, 0.5], [1.5, 2.5, 0.3, -0.7], [3.5, -3.5, 0.0, 7.2]], np.float32)
IA = np.array([7, -7, 7, -7, 6, -6, 0, 1], np.int32)
IB = np.array([2, 2, -2, -2, 3, -4, 5, -1], np.int32)


def run_tcp(text: str, *args: np.ndarray) -> list[np.ndarray]:
    """Lower a TCP module to StableHLO and run it on one device."""
    ctx = xshard_context()
    module = LocatingParser(ctx, text, "<test>").parse_module()
    module.verify()
    ConvertTcpToStablehloPass().apply(ctx, module)
    module.verify()
    assert "tcp." not in jax_bridge.module_text(module)
    return jax_bridge.run_global(module, list(args))


def tensor_type(a: np.ndarray) -> str:
    element = {np.float32: "f32", np.int32: "i32", np.int8: "i8", np.bool_: "i1"}[a.dtype.type]
    return f"tensor<{'x'.join(map(str, a.shape))}{'x' if a.shape else ''}{element}>"


def unary_module(op: str, x: np.ndarray, attrs: str = "", out: str | None = None) -> str:
    t = tensor_type(x)
    out = out or t
    return f"""
    func.func @main(%x: {t}) -> {out} {{
      %0 = tcp.{op} %x {attrs} : {t} -> {out}
      return %0 : {out}
    }}"""


def binary_module(op: str, x: np.ndarray, attrs: str = "") -> str:
    t = tensor_type(x)
    return f"""
    func.func @main(%x: {t}, %y: {t}) -> {t} {{
      %0 = tcp.{op} %x, %y {attrs} : {t}, {t} -> {t}
      return %0 : {t}
    }}"""


def round_half_away(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 0, np.floor(x + 0.5), np.ceil(x - 0.5)).astype(x.dtype)


UNARY_FLOAT = [
    ("tanh", F, np.tanh),
    ("sigmoid", F, lambda x: 1 / (1 + np.exp(-x))),
    ("sqrt", np.abs(F), np.sqrt),
    ("ceil", TIES, np.ceil),
    ("floor", TIES, np.floor),
    ("round", TIES, round_half_away),
    ("round_even", TIES, np.round),
    ("cos", F, np.cos),
    ("sin", F, np.sin),
    ("log", np.abs(F) + 0.1, np.log),
    ("neg", F, np.negative),
    ("exp", F, np.exp),
    ("abs", F, np.abs),
]


@pytest.mark.parametrize(("op", "x", "reference"), UNARY_FLOAT, ids=[c[0] for c in UNARY_FLOAT])
def test_unary(op, x, reference):
    (out,) = run_tcp(unary_module(op, x), x)
    np.testing.assert_allclose(out, reference(x), rtol=1e-5, atol=1e-6)


def test_abs_int():
    (out,) = run_tcp(unary_module("abs", IA), IA)
    np.testing.assert_array_equal(out, np.abs(IA))


BINARY = [
    ("add", F, G, np.add),
    ("sub", F, G, np.subtract),
    ("mul", F, G, np.multiply),
    ("divf", F, G, np.divide),
    ("max", F, G, np.maximum),
    ("min", F, G, np.minimum),
    ("add", IA, IB, np.add),
    ("sub", IA, IB, np.subtract),
    ("mul", IA, IB, np.multiply),
    ("max", IA, IB, np.maximum),
    ("min", IA, IB, np.minimum),
]


@pytest.mark.parametrize(
    ("op", "x", "y", "reference"), BINARY, ids=[f"{c[0]}-{c[1].dtype}" for c in BINARY]
)
def test_binary(op, x, y, reference):
    (out,) = run_tcp(binary_module(op, x), x, y)
    np.testing.assert_allclose(out, reference(x, y), rtol=1e-5)


@pytest.mark.parametrize(
    ("text", "reference"),
    [
        (unary_module("atan", F), lambda: np.arctan(F)),
        (binary_module("atan2", F), lambda: np.arctan2(F, G)),
    ],
    ids=["atan", "atan2"],
)
def test_arctangents_lower_to_atan2(text, reference):
    """atan is atan2(x, 1): StableHLO has no one-argument arctangent."""
    args = (F,) if "tcp.atan " in text else (F, G)
    (out,) = run_tcp(text, *args)
    np.testing.assert_allclose(out, reference(), rtol=1e-5, atol=1e-6)


def _trunc_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(a.dtype)


SIGNED_DIVISION = {
    "Trunc": _trunc_div,
    "Floor": np.floor_divide,
    "Ceil": lambda a, b: -np.floor_divide(-a, b),
}


@pytest.mark.parametrize("mode", SIGNED_DIVISION)
def test_divsi(mode):
    text = binary_module("divsi", IA, f"{{rounding_mode = #tcp<roundingMode {mode}>}}")
    (out,) = run_tcp(text, IA, IB)
    np.testing.assert_array_equal(out, SIGNED_DIVISION[mode](IA, IB))


@pytest.mark.parametrize("mode", ["Trunc", "Floor", "Ceil"])
def test_divui(mode):
    """Operands are read as unsigned: -7 is 4294967289."""
    a, b = IA.view(np.uint32).astype(np.uint64), np.abs(IB).astype(np.uint64)
    expected = (a // b if mode != "Ceil" else (a + b - 1) // b).astype(np.uint32)
    text = binary_module("divui", IA, f"{{rounding_mode = #tcp<roundingMode {mode}>}}")
    (out,) = run_tcp(text, IA, b.astype(np.int32))
    np.testing.assert_array_equal(out.view(np.uint32), expected)


@pytest.mark.parametrize(
    ("x", "attrs", "lo", "hi"),
    [
        (F, "{min_float = -0.5 : f32, max_float = 0.5 : f32}", -0.5, 0.5),
        (F, "{min_float = 0.0 : f32}", 0.0, None),
        (IA, "{max_int = 2 : i64}", None, 2),
    ],
)
def test_clamp(x, attrs, lo, hi):
    (out,) = run_tcp(unary_module("clamp", x, attrs), x)
    np.testing.assert_array_equal(out, np.clip(x, lo, hi))


def test_const():
    text = """
    func.func @main() -> tensor<2x2xi32> {
      %0 = tcp.const {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : tensor<2x2xi32>
      return %0 : tensor<2x2xi32>
    }"""
    (out,) = run_tcp(text)
    np.testing.assert_array_equal(out, [[1, 2], [3, 4]])


@pytest.mark.parametrize(
    ("x", "attrs", "out_type", "expected"),
    [
        (IA, "{in_int_signedness = #tcp<signedness Signed>}", "tensor<8xf32>",
         IA.astype(np.float32)),
        (IA, "{in_int_signedness = #tcp<signedness Unsigned>}", "tensor<8xf32>",
         IA.view(np.uint32).astype(np.float32)),
        (np.array([1.9, -1.9, 200.0], np.float32), "{out_int_signedness = #tcp<signedness Signed>}",
         "tensor<3xi32>", np.array([1, -1, 200], np.int32)),
        (np.array([1.9, 200.0, 255.0], np.float32),
         "{out_int_signedness = #tcp<signedness Unsigned>}", "tensor<3xi8>",
         np.array([1, 200, 255], np.uint8).view(np.int8)),
        (np.array([True, False]), "{in_int_signedness = #tcp<signedness Signless>}",
         "tensor<2xf32>", np.array([1.0, 0.0], np.float32)),
    ],
    ids=["signed-to-float", "unsigned-to-float", "float-to-signed", "float-to-unsigned", "i1"],
)
def test_cast(x, attrs, out_type, expected):
    (out,) = run_tcp(unary_module("cast", x, attrs, out_type), x)
    np.testing.assert_array_equal(out, expected)


def test_expand_shape_and_broadcast():
    """A 1-D bias added to every row: rank change by expand_shape, then size-1 broadcasting."""
    text = """
    func.func @main(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
      %c3 = arith.constant 3 : index
      %e = tensor.expand_shape %b [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
      %bb = tcp.broadcast %e, %c3 {axes = [0]} : tensor<1x4xf32>, index -> tensor<3x4xf32>
      %0 = tcp.add %x, %bb : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
      return %0 : tensor<3x4xf32>
    }"""
    b = G[0]
    (out,) = run_tcp(text, F, b)
    np.testing.assert_allclose(out, F + b, rtol=1e-6)


def test_slice():
    text = """
    func.func @main(%x: tensor<3x4xf32>) -> tensor<2x2xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %0 = tcp.slice %x starts(%c1, %c0) sizes(%c2, %c2) strides(%c1, %c2)
          : tensor<3x4xf32> -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    }"""
    (out,) = run_tcp(text, F)
    np.testing.assert_array_equal(out, F[1:3, 0:4:2])


@pytest.mark.parametrize(
    ("a_shape", "b_shape"), [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 2, 3, 4), (2, 2, 4, 1))]
)
def test_matmul(a_shape, b_shape):
    a = RNG.standard_normal(a_shape).astype(np.float32)
    b = RNG.standard_normal(b_shape).astype(np.float32)
    c_shape = (*a_shape[:-1], b_shape[-1])
    ta, tb, tc = (tensor_type(np.zeros(s, np.float32)) for s in (a_shape, b_shape, c_shape))
    text = f"""
    func.func @main(%a: {ta}, %b: {tb}) -> {tc} {{
      %0 = tcp.matmul %a, %b : {ta}, {tb} -> {tc}
      return %0 : {tc}
    }}"""
    (out,) = run_tcp(text, a, b)
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


REDUCTIONS = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}


@pytest.mark.parametrize("kind", REDUCTIONS)
@pytest.mark.parametrize("axes", [(1,), (0, 1)])
def test_reductions_keep_dims(kind, axes):
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(F.shape))
    out_type = tensor_type(np.zeros(out_shape, np.float32))
    attrs = f"{{axes = [{', '.join(map(str, axes))}]}}"
    (out,) = run_tcp(unary_module(f"reduce_{kind}", F, attrs, out_type), F)
    np.testing.assert_allclose(out, REDUCTIONS[kind](F, axis=axes, keepdims=True), rtol=1e-5)


@pytest.mark.parametrize("kind", ["max", "min"])
def test_integer_max_min_reductions_start_from_the_type_extremes(kind):
    sign = -1 if kind == "max" else 1
    x = sign * np.array([[5, 9], [7, 3]], np.int32)
    (out,) = run_tcp(unary_module(f"reduce_{kind}", x, "{axes = [1]}", "tensor<2x1xi32>"), x)
    np.testing.assert_array_equal(out, REDUCTIONS[kind](x, axis=1, keepdims=True))


def test_groups_are_inlined():
    text = """
    func.func @main(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
      %0 = tcp.group {
        %s = tcp.add %a, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
        tcp.yield %s : tensor<3x4xf32>
      } : tensor<3x4xf32>
      %1 = tcp.isolated_group %0, %a {
      ^bb0(%p: tensor<3x4xf32>, %q: tensor<3x4xf32>):
        %m = tcp.mul %p, %q : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
        tcp.yield %m : tensor<3x4xf32>
      } : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
      return %1 : tensor<3x4xf32>
    }"""
    (out,) = run_tcp(text, F, G)
    np.testing.assert_allclose(out, (F + G) * F, rtol=1e-6)


def test_softmax_needs_no_reshape_with_keep_dims():
    """max and sum keep their reduced dim with size 1, so tcp.broadcast is their inverse."""
    text = """
    func.func @main(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
      %c4 = arith.constant 4 : index
      %m = tcp.reduce_max %x {axes = [1]} : tensor<3x4xf32> -> tensor<3x1xf32>
      %mb = tcp.broadcast %m, %c4 {axes = [1]} : tensor<3x1xf32>, index -> tensor<3x4xf32>
      %d = tcp.sub %x, %mb : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
      %e = tcp.exp %d : tensor<3x4xf32> -> tensor<3x4xf32>
      %s = tcp.reduce_sum %e {axes = [1]} : tensor<3x4xf32> -> tensor<3x1xf32>
      %sb = tcp.broadcast %s, %c4 {axes = [1]} : tensor<3x1xf32>, index -> tensor<3x4xf32>
      %0 = tcp.divf %e, %sb : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
      return %0 : tensor<3x4xf32>
    }"""
    (out,) = run_tcp(text, F)
    e = np.exp(F - F.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def _softmax(x):
    import jax.numpy as jnp

    e = jnp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _mlp(x, w1, b1, w2):
    import jax.numpy as jnp

    return jnp.tanh(x @ w1 + b1) @ w2


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (_softmax, (F,)),
        (_mlp, (F, RNG.standard_normal((4, 8)).astype(np.float32),
                RNG.standard_normal(8).astype(np.float32),
                RNG.standard_normal((8, 2)).astype(np.float32))),
    ],
    ids=["softmax", "mlp"],
)
def test_jax_program_round_trips_through_tcp(fn, args):
    """JAX's StableHLO raised to TCP, lowered back and run, computes what JAX computes."""
    import jax


    ctx = xshard_context()
    module = jax_bridge.import_function(fn, *args)
    ConvertStablehloToTcpPass().apply(ctx, module)
    module.verify()
    raised = jax_bridge.module_text(module)
    assert "tcp.broadcast" in raised and "stablehlo.broadcast_in_dim" not in raised
    ConvertTcpToStablehloPass().apply(ctx, module)
    module.verify()
    (out,) = jax_bridge.run_global(module, list(args))
    np.testing.assert_allclose(out, jax.jit(fn)(*args), rtol=1e-5, atol=1e-6)


@st.composite
def size_one_broadcasts(draw):
    """A `broadcast_in_dim` with increasing dims: a rank expansion and size-1 broadcasting."""
    out_shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    dims = sorted(draw(st.sets(st.integers(0, len(out_shape) - 1))))
    in_shape = [draw(st.sampled_from([1, out_shape[d]])) for d in dims]
    return out_shape, dims, in_shape


@settings(max_examples=25, deadline=None)
@given(size_one_broadcasts())
def test_broadcast_in_dim_round_trips_through_tcp(case):
    """Raising picks the expand_shape reassociation and broadcast axes; XLA checks them."""

    out_shape, dims, in_shape = case
    x = np.arange(np.prod(in_shape), dtype=np.float32).reshape(in_shape)
    t_in, t_out = tensor_type(x), tensor_type(np.zeros(out_shape, np.float32))
    text = f"""
    func.func @main(%x: {t_in}) -> {t_out} {{
      %0 = stablehlo.broadcast_in_dim %x, dims = {dims} : ({t_in}) -> {t_out}
      return %0 : {t_out}
    }}"""
    ctx = xshard_context()
    module = LocatingParser(ctx, text, "<test>").parse_module()
    ConvertStablehloToTcpPass().apply(ctx, module)
    module.verify()
    assert "broadcast_in_dim" not in jax_bridge.module_text(module)
    ConvertTcpToStablehloPass().apply(ctx, module)
    (out,) = jax_bridge.run_global(module, [x])
    expanded = [1] * len(out_shape)
    for d, n in zip(dims, in_shape, strict=True):
        expanded[d] = n
    np.testing.assert_array_equal(out, np.broadcast_to(x.reshape(expanded), out_shape))
