"""`chlo-legalize-to-stablehlo` computes what XLA computes for the CHLO op on one device.

Each case is a JAX function whose lowering holds CHLO ops (checked); xshard legalizes
them, XLA runs the pure-StableHLO result, and it is compared with `jax.jit` (which
hands XLA the CHLO ops themselves) on inputs across the function's domain, special
values included. `ragged_dot` stays CHLO only when lowered for TPU (XLA:CPU cannot run
it), so its reference is `jax.jit` on CPU, where JAX expands it itself.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.jax import import_function, module_text, run_global

ChloLegalizeToStablehloPass = import_module(
    "xshard.transforms.import.chlo_legalize_to_stablehlo"
).ChloLegalizeToStablehloPass

_RNG = np.random.default_rng(11)


def _domain(low: float, high: float, *special: float) -> np.ndarray:
    values = np.concatenate([_RNG.uniform(low, high, 64), np.array(special)])
    return values.astype(np.float32)


_SPECIAL = (0.0, -0.0, np.inf, -np.inf, np.nan)

# name: (function, the CHLO op it must emit, inputs)
CASES: dict[str, tuple[Callable, str, np.ndarray]] = {
    "square": (jnp.square, "chlo.square", _domain(-10, 10, *_SPECIAL)),
    "erf": (jax.scipy.special.erf, "chlo.erf", _domain(-5, 5, 0.5, 1.0, -1.0, 3.9, *_SPECIAL)),
    "erfc": (jax.scipy.special.erfc, "chlo.erfc", _domain(-6, 12, 1.0, -1.0, 9.5, *_SPECIAL)),
    "gelu_exact": (lambda x: jax.nn.gelu(x, approximate=False), "chlo.erfc",
                   _domain(-8, 8, *_SPECIAL)),
    "erf_inv": (jax.scipy.special.erfinv, "chlo.erf_inv",
                _domain(-1, 1, 0.0, 1.0, -1.0, 0.9999, -0.99999, 0.9999999, 2.0, np.nan)),
    "lgamma": (jax.scipy.special.gammaln, "chlo.lgamma",
               _domain(-6, 12, 1.0, 2.0, -1.0, -2.5, 0.5, 1e-3, 1e20, *_SPECIAL)),
    "digamma": (jax.scipy.special.digamma, "chlo.digamma",
                _domain(-6, 12, 1.0, 0.5, -1.0, -2.0, -2.5, -0.45, -1.45, 1e-3, 1e20, *_SPECIAL)),
    "sinh": (jnp.sinh, "chlo.sinh", _domain(-20, 20, 0.5, -0.5, 1e-6, 89.0, *_SPECIAL)),
    "cosh": (jnp.cosh, "chlo.cosh", _domain(-20, 20, 89.0, *_SPECIAL)),
    "asin": (jnp.arcsin, "chlo.asin", _domain(-1, 1, 1.0, -1.0, 2.0, *_SPECIAL)),
    "acos": (jnp.arccos, "chlo.acos", _domain(-1, 1, 1.0, -1.0, 2.0, *_SPECIAL)),
    "atan": (jnp.arctan, "chlo.atan", _domain(-50, 50, *_SPECIAL)),
    "asinh": (jnp.arcsinh, "chlo.asinh", _domain(-50, 50, 1e30, -1e30, *_SPECIAL)),
    "acosh": (jnp.arccosh, "chlo.acosh", _domain(1, 50, 1.0, 0.5, 1e30, *_SPECIAL)),
    "atanh": (jnp.arctanh, "chlo.atanh", _domain(-1, 1, 1.0, -1.0, 2.0, *_SPECIAL)),
    "bessel_i1e": (jax.scipy.special.i1e, "chlo.bessel_i1e",
                   _domain(-30, 30, 8.0, -8.0, 1e-3, 700.0, -700.0, *_SPECIAL)),
    "i1": (jax.scipy.special.i1, "chlo.bessel_i1e", _domain(-30, 30, 8.0, -8.0, *_SPECIAL)),
}


def _pairs(
    xs: np.ndarray, ys: np.ndarray, special_x: tuple[float, ...], special_y: tuple[float, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The random pairs (xs[i], ys[i]), then every pair of the special values."""
    grid_x, grid_y = np.meshgrid(special_x, special_y)
    return (np.concatenate([xs, grid_x.ravel()]).astype(np.float32),
            np.concatenate([ys, grid_y.ravel()]).astype(np.float32))


# name: (function, the CHLO op it must emit, first inputs, second inputs)
BINARY_CASES: dict[str, tuple[Callable, str, np.ndarray, np.ndarray]] = {
    "zeta": (jax.scipy.special.zeta, "chlo.zeta", *_pairs(
        _RNG.uniform(1, 12, 64), _RNG.uniform(-5, 10, 64),
        (1.0, 1.5, 2.0, 3.0, 4.0, 0.5, 40.0, *_SPECIAL),
        (-2.0, -1.5, 0.0, 1e-3, 1.0, 3.0, 1e4, *_SPECIAL))),
    "polygamma": (jax.lax.polygamma, "chlo.polygamma", *_pairs(
        np.floor(_RNG.uniform(0, 6, 64)), _RNG.uniform(-5, 10, 64),
        (0.0, 1.0, 2.0, 5.0, 1.5, -1.0, *_SPECIAL),
        (-2.0, -1.5, 0.0, 1e-3, 1.0, 3.0, 1e4, *_SPECIAL))),
}


def _legalize(module: ModuleOp, op: str | None) -> str:
    if op is not None:
        assert any(inner.name == op for inner in module.walk()), f"JAX no longer emits {op}"
    ChloLegalizeToStablehloPass().apply(xshard_context(), module)
    module.verify()
    assert not any(inner.dialect_name() == "chlo" for inner in module.walk())
    return module_text(module)


def _legalized(fn: Callable, *args: np.ndarray, op: str | None = None) -> str:
    return _legalize(import_function(fn, *args), op)


def _close(got: np.ndarray, want: np.ndarray, rtol: float) -> None:
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=rtol, atol=rtol, equal_nan=True)


def _check_against_jax(fn: Callable, op: str, values: list[np.ndarray], dtype: str) -> None:
    if dtype == "float64":
        with jax.enable_x64():
            xs = [v.astype(np.float64) for v in values]
            text = _legalized(fn, *xs, op=op)
            want = np.asarray(jax.jit(fn)(*xs))
            _close(run_global(text, xs)[0], want, rtol=1e-12)
        return
    xs = [v.astype(jnp.dtype(dtype)) for v in values]
    text = _legalized(fn, *xs, op=op)
    rtol = 1e-5 if dtype == "float32" else 1e-2
    _close(run_global(text, xs)[0], np.asarray(jax.jit(fn)(*xs)), rtol)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_legalized_op_matches_jax(name: str, dtype: str) -> None:
    fn, op, values = CASES[name]
    _check_against_jax(fn, op, [values], dtype)


@pytest.mark.parametrize("name", sorted(BINARY_CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_legalized_binary_op_matches_jax(name: str, dtype: str) -> None:
    fn, op, xs, ys = BINARY_CASES[name]
    _check_against_jax(fn, op, [xs, ys], dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16"])
def test_next_after_matches_jax_bit_for_bit(dtype: str) -> None:
    """Signed zeros, subnormals, the largest finite value, infinities and NaN included."""
    special = (0.0, -0.0, 1.0, -1.0, 1e-45, 1e-40, 3e38, -3e38, np.inf, -np.inf, np.nan)
    pairs = _pairs(_RNG.standard_normal(64), _RNG.standard_normal(64), special, special)
    with jax.enable_x64(dtype == "float64"), np.errstate(over="ignore"):
        x, y = (v.astype(jnp.dtype(dtype)) for v in pairs)
        text = _legalized(jax.lax.nextafter, x, y, op="chlo.next_after")
        got = run_global(text, [x, y])[0]
        want = np.asarray(jax.jit(jax.lax.nextafter)(x, y))
    bits = f"uint{x.dtype.itemsize * 8}"
    np.testing.assert_array_equal(got.view(bits), want.view(bits))


@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
)
def test_mulhi_matches_jax(dtype: str) -> None:
    """Exactly, the extremes included: widened below 64 bits, from 32-bit halves at 64."""
    info = np.iinfo(dtype)
    extremes = np.array([info.min, info.max, 0, 1, info.max // 2 + 1], dtype)
    x, y = (np.concatenate([_RNG.integers(info.min, info.max, 64, dtype, endpoint=True), e])
            for e in (extremes, extremes[::-1]))
    with jax.enable_x64(info.bits == 64):
        text = _legalized(jax.lax.mulhi, x, y, op="chlo.mulhi")
        want = np.asarray(jax.jit(jax.lax.mulhi)(x, y))
        np.testing.assert_array_equal(run_global(text, [x, y])[0], want)


def test_philox_random_numbers_match_jax() -> None:
    """`jax.random` with a Philox key: `chlo.mulhi` (and `erf_inv`), bit for bit."""

    def normal(seed):
        return jax.random.normal(jax.random.key(seed, impl="philox4x32"), (256,))

    seed = np.asarray(7, np.int32)
    text = _legalized(normal, seed, op="chlo.mulhi")
    np.testing.assert_array_equal(run_global(text, [seed])[0], np.asarray(jax.jit(normal)(seed)))


INFINITY_TESTS = """
func.func @main(%x: tensor<69xf32>) -> (tensor<69xi1>, tensor<69xi1>, tensor<69xi1>, tensor<69xf32>) {
  %a = chlo.is_inf %x : tensor<69xf32> -> tensor<69xi1>
  %b = chlo.is_pos_inf %x : tensor<69xf32> -> tensor<69xi1>
  %c = chlo.is_neg_inf %x : tensor<69xf32> -> tensor<69xi1>
  %t = chlo.tan %x : tensor<69xf32> -> tensor<69xf32>
  func.return %a, %b, %c, %t : tensor<69xi1>, tensor<69xi1>, tensor<69xi1>, tensor<69xf32>
}
"""


def test_infinity_tests_match_numpy() -> None:
    """`chlo.is_inf` and friends, which JAX itself no longer emits, and `chlo.tan`."""
    x = _domain(-3, 3, *_SPECIAL)
    module = LocatingParser(xshard_context(), INFINITY_TESTS, "<test>").parse_module()
    ChloLegalizeToStablehloPass().apply(xshard_context(), module)
    module.verify()
    assert not any(inner.dialect_name() == "chlo" for inner in module.walk())
    inf, pos, neg, tan = run_global(module_text(module), [x])
    np.testing.assert_array_equal(inf, np.isinf(x))
    np.testing.assert_array_equal(pos, np.isposinf(x))
    np.testing.assert_array_equal(neg, np.isneginf(x))
    _close(tan, np.asarray(jax.jit(jnp.tan)(x)), 1e-6)


CONJ = """
func.func @main(%x: tensor<69xf32>) -> tensor<69xf32> {
  %0 = chlo.conj %x : tensor<69xf32> -> tensor<69xf32>
  func.return %0 : tensor<69xf32>
}
"""


def test_conj_of_reals_is_the_operand() -> None:
    """JAX emits `chlo.conj` for complex operands only (`triangular_solve`), which xshard
    refuses; of a real it is the identity."""
    x = _domain(-3, 3, *_SPECIAL)
    module = LocatingParser(xshard_context(), CONJ, "<test>").parse_module()
    text = _legalize(module, "chlo.conj")
    np.testing.assert_array_equal(run_global(text, [x])[0], x)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_top_k_matches_jax(dtype: str) -> None:
    """Values and indices, ties (integers) broken towards the lower index as jax does,
    NaN ranked above +inf."""
    if dtype == "int32":
        x = _RNG.integers(-3, 4, (4, 3, 16)).astype(np.int32)
    else:
        x = _RNG.standard_normal((4, 3, 16)).astype(np.float32)
        x[0, 0, :3] = [np.inf, np.nan, -np.inf]

    def top3(v):
        return jax.lax.top_k(v, 3)

    text = _legalized(top3, x, op="chlo.top_k")
    got = run_global(text, [x])
    want = [np.asarray(w) for w in jax.jit(top3)(x)]
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def _ragged(lhs_batching: list[int], rhs_batching: list[int], lhs_contracting: list[int],
            rhs_contracting: list[int], ragged: int, group: list[int]) -> Callable:
    numbers = jax.lax.RaggedDotDimensionNumbers(
        dot_dimension_numbers=((lhs_contracting, rhs_contracting), (lhs_batching, rhs_batching)),
        lhs_ragged_dimensions=[ragged], rhs_group_dimensions=group)
    return lambda lhs, rhs, sizes: jax.lax.ragged_dot_general(lhs, rhs, sizes, numbers)


def _ragged_bf16_to_f32(lhs, rhs, sizes):
    return jax.lax.ragged_dot(lhs, rhs, sizes, preferred_element_type=jnp.float32)


# name: (function, lhs shape, rhs shape, group sizes, operand type)
RAGGED_CASES: dict[str, tuple[Callable, tuple[int, ...], tuple[int, ...], list, str]] = {
    "free": (jax.lax.ragged_dot, (10, 4), (3, 4, 5), [2, 5, 3], "float32"),
    "free_rows_left_over": (jax.lax.ragged_dot, (10, 4), (3, 4, 5), [2, 0, 5], "float32"),
    "free_batched": (_ragged([0], [1], [2], [2], 1, [0]), (2, 8, 4), (3, 2, 4, 5),
                     [[2, 3, 2], [1, 0, 6]], "float32"),
    "contracting": (_ragged([], [], [1], [0], 1, []), (6, 8), (8, 5), [3, 1, 4], "float32"),
    "batch": (_ragged([0], [0], [2], [1], 0, []), (7, 3, 4), (7, 4, 5), [3, 2, 2], "float32"),
    "bf16_to_f32": (_ragged_bf16_to_f32, (10, 4), (3, 4, 5), [4, 4, 2], "bfloat16"),
    "bf16": (jax.lax.ragged_dot, (10, 4), (3, 4, 5), [4, 4, 2], "bfloat16"),
}


@pytest.mark.parametrize("name", sorted(RAGGED_CASES))
def test_ragged_dot_matches_jax(name: str) -> None:
    """`chlo.ragged_dot` as JAX lowers it for TPU, legalized and run on CPU, equals
    `jax.jit` on CPU, in each mode: ragged free dim (rows past the groups give zeros),
    ragged contracting dim, ragged batching dim."""
    fn, lhs_shape, rhs_shape, sizes, dtype = RAGGED_CASES[name]
    args = [_RNG.standard_normal(lhs_shape).astype(jnp.dtype(dtype)),
            _RNG.standard_normal(rhs_shape).astype(jnp.dtype(dtype)),
            np.asarray(sizes, np.int32)]
    lowered = jax.jit(fn).trace(*args).lower(lowering_platforms=("tpu",)).as_text()
    module = LocatingParser(xshard_context(), lowered, "<jax>").parse_module()
    got = run_global(_legalize(module, "chlo.ragged_dot"), args)[0]
    want = np.asarray(jax.jit(fn)(*args))
    assert got.dtype == want.dtype
    _close(got, want, 1e-5 if want.dtype == np.float32 else 1e-2)
