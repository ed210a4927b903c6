"""`chlo-legalize-to-stablehlo` computes what XLA computes for the CHLO op on one device.

Each case is a JAX function whose lowering holds CHLO ops (checked); xshard legalizes
them, XLA runs the pure-StableHLO result, and it is compared with `jax.jit` (which
hands XLA the CHLO ops themselves) on inputs across the function's domain, special
values included.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

import jax
import jax.numpy as jnp
import numpy as np
import pytest

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
}


def _legalized(fn: Callable, *args: np.ndarray, op: str | None = None) -> str:
    module = import_function(fn, *args)
    if op is not None:
        assert any(inner.name == op for inner in module.walk()), f"JAX no longer emits {op}"
    ChloLegalizeToStablehloPass().apply(xshard_context(), module)
    module.verify()
    assert not any(inner.dialect_name() == "chlo" for inner in module.walk())
    return module_text(module)


def _close(got: np.ndarray, want: np.ndarray, rtol: float) -> None:
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=rtol, atol=rtol, equal_nan=True)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_legalized_op_matches_jax(name: str, dtype: str) -> None:
    fn, op, values = CASES[name]
    if dtype == "float64":
        with jax.enable_x64():
            x = values.astype(np.float64)
            text = _legalized(fn, x, op=op)
            want = np.asarray(jax.jit(fn)(x))
            _close(run_global(text, [x])[0], want, rtol=1e-12)
        return
    x = values.astype(jnp.dtype(dtype))
    text = _legalized(fn, x, op=op)
    rtol = 1e-5 if dtype == "float32" else 1e-2
    _close(run_global(text, [x])[0], np.asarray(jax.jit(fn)(x)), rtol)


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
