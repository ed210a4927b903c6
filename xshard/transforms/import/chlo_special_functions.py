"""The real special functions of `chlo-legalize-to-stablehlo`, as StableHLO arithmetic.

Each decomposition is upstream's (`ChloLegalizeToStablehlo.cpp`,
`ChloDecompositionPatterns*.td`), so that XLA computes the same numbers from the
legalized module as from JAX's CHLO: Cephes' and Eigen's erf, Giles' erf_inv, Lanczos'
lgamma and digamma, the real forms of the hyperbolic and inverse trigonometric functions,
Cephes' Chebyshev series for bessel_i1e, Johansson's Euler-Maclaurin sum for zeta, and
polygamma through zeta. `FLOAT_FORMS` says which applies to which op and width.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xshard.dialects import chlo
from xshard.dialects import stablehlo as hlo

_MAX_FINITE: dict[type[Attribute], float] = {
    Float16Type: 65504.0,
    BFloat16Type: 3.3895313892515355e38,
    Float32Type: 3.4028234663852886e38,
    Float64Type: sys.float_info.max,
}


@dataclass
class Emit:
    """Builds StableHLO on tensors of one type (`like`'s), inserted before the CHLO op."""

    builder: Builder
    like: TensorType

    def op(self, op: Operation) -> SSAValue:
        return self.builder.insert(op).results[0]

    def const(self, value: float) -> SSAValue:
        """A rank-0 constant, broadcast to `like`'s shape unless that is rank 0 too."""
        scalar = TensorType(self.like.element_type, [])
        c = self.op(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(scalar, [value])))
        if not self.like.get_shape():
            return c
        return self.op(hlo.BroadcastInDimOp(c, [], self.like))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(hlo.AddOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(hlo.SubtractOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(hlo.MultiplyOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(hlo.DivideOp(a, b))

    def unary(self, cls: type[hlo.UnaryElementwiseOp], x: SSAValue) -> SSAValue:
        return self.op(cls(x))

    def less(self, a: SSAValue, b: SSAValue, direction: str = "LT") -> SSAValue:
        return self.op(hlo.CompareOp(a, b, direction))

    def select(self, pred: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(hlo.SelectOp(pred, a, b))

    def poly(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """Horner's scheme, highest power first."""
        p = self.const(coefficients[0])
        for c in coefficients[1:]:
            p = self.add(self.mul(p, x), self.const(c))
        return p


Decomposition = Callable[..., SSAValue]
"""`(emit, *operands) -> result`."""


# ---------------------------------------------------------------- erf, erfc


def _erfc_f64_ge_one(e: Emit, x: SSAValue) -> SSAValue:
    """Cephes: erfc for |x| >= 1, in f64."""
    p = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
         4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
         9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)
    q = (1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
         9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
         1.65666309194161350182e3, 5.57535340817727675546e2)
    r = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
         6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)
    s = (1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
         1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)
    z = e.unary(hlo.NegateOp, e.mul(x, x))
    exp_z = e.unary(hlo.ExponentialOp, z)
    ax = e.unary(hlo.AbsOp, x)
    below_8 = e.div(e.mul(exp_z, e.poly(ax, p)), e.poly(ax, q))
    above_8 = e.div(e.mul(exp_z, e.poly(ax, r)), e.poly(ax, s))
    approx = e.select(e.less(ax, e.const(8.0)), below_8, above_8)
    zero = e.const(0.0)
    clamped = e.select(e.less(z, e.const(-7.09782712893383996843e2)), zero, approx)
    return e.select(e.less(x, zero), e.sub(e.const(2.0), clamped), clamped)


def _erf_f64_le_one(e: Emit, x: SSAValue) -> SSAValue:
    """Cephes: erf for |x| <= 1, in f64."""
    t = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
         7.00332514112805075473e3, 5.55923013010394962768e4)
    u = (1.0, 3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
         2.26290000613890934246e4, 4.92673942608635921086e4)
    x2 = e.mul(x, x)
    return e.div(e.mul(x, e.poly(x2, t)), e.poly(x2, u))


def _erfc_f32_ge_one(e: Emit, x: SSAValue) -> SSAValue:
    """Cephes: erfc for |x| >= 1, in f32."""
    p = (2.326819970068386e-2, -1.387039388740657e-1, 3.687424674597105e-1,
         -5.824733027278666e-1, 6.210004621745983e-1, -4.944515323274145e-1,
         3.404879937665872e-1, -2.741127028184656e-1, 5.638259427386472e-1)
    r = (-1.047766399936249e1, 1.297719955372516e1, -7.495518717768503e0,
         2.921019019210786e0, -1.015265279202700e0, 4.218463358204948e-1,
         -2.820767439740514e-1, 5.641895067754075e-1)
    x2 = e.mul(x, x)
    z = e.unary(hlo.NegateOp, x2)
    ax = e.unary(hlo.AbsOp, x)
    one = e.const(1.0)
    inv_x2 = e.div(one, x2)
    scale = e.mul(e.unary(hlo.ExponentialOp, z), e.div(one, ax))
    two = e.const(2.0)
    poly = e.select(e.less(ax, two), e.poly(inv_x2, p), e.poly(inv_x2, r))
    approx = e.mul(scale, poly)
    zero = e.const(0.0)
    clamped = e.select(e.less(z, e.const(-88.72283905206835)), zero, approx)
    return e.select(e.less(x, zero), e.sub(two, clamped), clamped)


def _erf_f32_le_one(e: Emit, x: SSAValue) -> SSAValue:
    """Cephes: erf for |x| <= 1, in f32."""
    t = (7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3,
         -2.685381193529856e-2, 1.128358514861418e-1, -3.761262582423300e-1,
         1.128379165726710e0)
    return e.mul(x, e.poly(e.mul(x, x), t))


def _erf_f32(e: Emit, x: SSAValue) -> SSAValue:
    """Eigen's rational approximation on [-4, 4], clamped to [-1, 1]."""
    alpha = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
             -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
             -1.60960333262415e-02)
    beta = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
            -7.37332916720468e-03, -1.42647390514189e-02)
    x = e.op(hlo.ClampOp(e.const(-4.0), x, e.const(4.0)))
    x2 = e.mul(x, x)
    erf = e.div(e.mul(x, e.poly(x2, alpha)), e.poly(x2, beta))
    return e.op(hlo.ClampOp(e.const(-1.0), erf, e.const(1.0)))


def _erf_f64(e: Emit, x: SSAValue) -> SSAValue:
    one = e.const(1.0)
    near = _erf_f64_le_one(e, x)
    far = e.sub(one, _erfc_f64_ge_one(e, x))
    return e.select(e.less(e.unary(hlo.AbsOp, x), one), near, far)


def _erfc(ge_one: Decomposition, le_one: Decomposition) -> Decomposition:
    def erfc(e: Emit, x: SSAValue) -> SSAValue:
        far = ge_one(e, x)
        one = e.const(1.0)
        near = e.sub(one, le_one(e, x))
        return e.select(e.less(e.unary(hlo.AbsOp, x), one), near, far)

    return erfc


# ---------------------------------------------------------------- erf_inv


def _erf_inv_tail(e: Emit, x: SSAValue, p: SSAValue) -> SSAValue:
    """p(w) * x, except erf_inv(±1) = ±inf (where the polynomial is indeterminate)."""
    infinite = e.mul(x, e.const(math.inf))
    return e.select(e.less(e.unary(hlo.AbsOp, x), e.const(1.0), "EQ"), infinite, e.mul(p, x))


def _erf_inv_w(e: Emit, x: SSAValue) -> SSAValue:
    """w = -log(1 - x²), as -log1p(-x²)."""
    return e.unary(hlo.NegateOp, e.unary(hlo.LogPlusOneOp, e.mul(x, e.unary(hlo.NegateOp, x))))


def _erf_inv_f32(e: Emit, x: SSAValue) -> SSAValue:
    """Giles' single-precision approximation: a polynomial in w - 2.5 below w = 5, in
    sqrt(w) - 3 above."""
    low = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
           -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
    high = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
            -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
    w = _erf_inv_w(e, x)
    lt = e.less(w, e.const(5.0))
    w = e.select(lt, e.sub(w, e.const(2.5)), e.sub(e.unary(hlo.SqrtOp, w), e.const(3.0)))
    p = e.select(lt, e.const(low[0]), e.const(high[0]))
    for a, b in zip(low[1:], high[1:], strict=True):
        p = e.add(e.select(lt, e.const(a), e.const(b)), e.mul(p, w))
    return _erf_inv_tail(e, x, p)


def _erf_inv_f64(e: Emit, x: SSAValue) -> SSAValue:
    """Giles' double-precision approximation: three polynomials (23, 19 and 17 terms,
    highest power first) in w - 3.125 below w = 6.25, sqrt(w) - 3.25 below 16, sqrt(w) - 5
    above; the shorter ones end early."""
    low = (-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
           1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
           6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
           2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
           1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
           4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
           0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
           0.24015818242558961693, 1.6536545626831027356)
    mid = (2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
           1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
           2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
           6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
           0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
           -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
           3.0838856104922207635)
    high = (-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
            -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
            2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
            -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
            7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
            1.0103004648645343977, 4.8499064014085844221)
    w = _erf_inv_w(e, x)
    lt625 = e.less(w, e.const(6.25))
    lt16 = e.less(w, e.const(16.0))
    root_shift = e.select(lt16, e.const(3.25), e.const(5.0))
    w = e.select(lt625, e.sub(w, e.const(3.125)),
                 e.sub(e.unary(hlo.SqrtOp, w), root_shift))

    def coefficient(i: int) -> SSAValue:
        c = e.const(low[i])
        if i < len(mid):
            c = e.select(lt625, c, e.const(mid[i]))
        if i < len(high):
            c = e.select(lt16, c, e.const(high[i]))
        return c

    p = coefficient(0)
    for i in range(1, len(high)):
        p = e.add(coefficient(i), e.mul(p, w))
    for i in range(len(high), len(mid)):
        p = e.select(lt16, e.add(coefficient(i), e.mul(p, w)), p)
    for i in range(len(mid), len(low)):
        p = e.select(lt625, e.add(coefficient(i), e.mul(p, w)), p)
    return _erf_inv_tail(e, x, p)


# ---------------------------------------------------------------- lgamma, digamma

_LANCZOS_GAMMA = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478
_LANCZOS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
            771.3234287776530788486528258894, -176.61502916214059906584551354,
            12.507343278686904814458936853, -0.13857109526572011689554707,
            9.984369578019570859563e-6, 1.50563273514931155834e-7)


def _lanczos_z(e: Emit, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(reflect, z): reflect where x < 1/2; z = -x there, x - 1 elsewhere."""
    reflect = e.less(x, e.const(0.5))
    z = e.select(reflect, e.unary(hlo.NegateOp, x), e.sub(x, e.const(1.0)))
    return reflect, z


def _lanczos_log_t(e: Emit, z: SSAValue) -> tuple[SSAValue, SSAValue]:
    """t = z + g + 1/2 and log(t), the latter as log(g + 1/2) + log1p(z / (g + 1/2))."""
    g_half = e.const(_LANCZOS_GAMMA + 0.5)
    t = e.add(g_half, z)
    log_t = e.add(
        e.const(math.log(_LANCZOS_GAMMA + 0.5)),
        e.unary(hlo.LogPlusOneOp, e.div(z, g_half)),
    )
    return t, log_t


def _lgamma(e: Emit, x: SSAValue) -> SSAValue:
    reflect, z = _lanczos_z(e, x)
    a = e.const(_LANCZOS_BASE)
    for k, c in enumerate(_LANCZOS, start=1):
        a = e.add(a, e.div(e.const(c), e.add(z, e.const(k))))
    t, log_t = _lanczos_log_t(e, z)
    # (z + 1/2) log t - t, computed as (z + 1/2 - t / log t) log t: no overflow to inf.
    half = e.const(0.5)
    r = e.mul(e.sub(e.add(z, half), e.div(t, log_t)), log_t)
    lgamma = e.add(e.add(e.const((math.log(2) + math.log(math.pi)) / 2), r),
                   e.unary(hlo.LogOp, a))
    # Reflection: lgamma(x) = log(pi) - lgamma(1 - x) - log|sin(pi x)|, with
    # |sin(pi x)| = sin(pi * frac), frac = |x| - floor|x| folded into [0, 1/2].
    ax = e.unary(hlo.AbsOp, x)
    frac = e.sub(ax, e.unary(hlo.FloorOp, ax))
    frac = e.select(e.less(half, frac), e.sub(e.const(1.0), frac), frac)
    log_sin = e.unary(hlo.LogOp, e.unary(hlo.SineOp, e.mul(e.const(math.pi), frac)))
    reflected = e.sub(e.sub(e.const(math.log(math.pi)), log_sin), lgamma)
    reflected = e.select(e.op(hlo.IsFiniteOp(log_sin)), reflected,
                         e.unary(hlo.NegateOp, log_sin))
    lgamma = e.select(reflect, reflected, lgamma)
    infinite = e.less(e.unary(hlo.AbsOp, x), e.const(math.inf), "EQ")
    return e.select(infinite, e.const(math.inf), lgamma)


def _digamma(e: Emit, x: SSAValue) -> SSAValue:
    reflect, z = _lanczos_z(e, x)
    zero = e.const(0.0)
    a = e.const(_LANCZOS_BASE)
    a_prime = zero
    for k, c in enumerate(_LANCZOS, start=1):
        zk = e.add(z, e.const(k))
        coefficient = e.const(c)
        a_prime = e.sub(a_prime, e.div(coefficient, e.mul(zk, zk)))
        a = e.add(a, e.div(coefficient, zk))
    t, log_t = _lanczos_log_t(e, z)
    digamma = e.sub(e.add(log_t, e.div(a_prime, a)), e.div(e.const(_LANCZOS_GAMMA), t))
    # Reflection: digamma(x) = digamma(1 - x) - pi cot(pi x), x first moved into
    # [-1/2, 1/2] (cot has period 1) so that pi x keeps its precision.
    reduced = e.add(x, e.unary(hlo.AbsOp, e.unary(hlo.FloorOp, e.add(x, e.const(0.5)))))
    pi = e.const(math.pi)
    angle = e.mul(pi, reduced)
    cot = e.div(e.mul(pi, e.unary(hlo.CosineOp, angle)), e.unary(hlo.SineOp, angle))
    digamma = e.select(reflect, e.sub(digamma, cot), digamma)
    pole = e.op(hlo.AndOp(e.less(x, zero, "LE"), e.less(x, e.unary(hlo.FloorOp, x), "EQ")))
    return e.select(pole, e.const(math.nan), digamma)


# ---------------------------------------------------------------- hyperbolic, inverse trig


def _exp_half(e: Emit, x: SSAValue, sign: float) -> SSAValue:
    """e^(sign * x + log(1/2)): e^x / 2 without overflowing where e^x does."""
    log_half = e.unary(hlo.LogOp, e.const(0.5))
    arg = e.add(x, log_half) if sign > 0 else e.sub(log_half, x)
    return e.unary(hlo.ExponentialOp, arg)


def _cosh(e: Emit, x: SSAValue) -> SSAValue:
    return e.add(_exp_half(e, x, 1), _exp_half(e, x, -1))


def _sinh(e: Emit, x: SSAValue) -> SSAValue:
    large = e.sub(_exp_half(e, x, 1), _exp_half(e, x, -1))
    # Below 1: (expm1(x) + expm1(x) / (expm1(x) + 1)) / 2 avoids cancelling e^x - e^-x.
    expm1 = e.unary(hlo.ExponentialMinusOneOp, x)
    one = e.const(1.0)
    small = e.mul(e.const(0.5), e.add(expm1, e.div(expm1, e.add(expm1, one))))
    return e.select(e.less(e.unary(hlo.AbsOp, x), one), small, large)


def _atan(e: Emit, x: SSAValue) -> SSAValue:
    return e.op(hlo.Atan2Op(x, e.const(1.0)))


def _one_minus_square(e: Emit, x: SSAValue) -> SSAValue:
    """sqrt((1 - x)(1 + x)): sqrt(1 - x²) without cancellation near |x| = 1."""
    one = e.const(1.0)
    return e.unary(hlo.SqrtOp, e.mul(e.sub(one, x), e.add(one, x)))


def _asin(e: Emit, x: SSAValue) -> SSAValue:
    half = e.op(hlo.Atan2Op(x, e.add(e.const(1.0), _one_minus_square(e, x))))
    return e.add(half, half)


def _acos(e: Emit, x: SSAValue) -> SSAValue:
    return e.op(hlo.Atan2Op(_one_minus_square(e, x), x))


def _asinh(e: Emit, x: SSAValue) -> SSAValue:
    ax = e.unary(hlo.AbsOp, x)
    max_finite = e.const(_MAX_FINITE[type(e.like.element_type)])
    huge = e.less(ax, e.unary(hlo.SqrtOp, max_finite), "GE")
    log2_plus = e.add(e.unary(hlo.LogOp, e.const(2.0)), e.unary(hlo.LogOp, ax))
    ax2 = e.mul(ax, ax)
    one = e.const(1.0)
    moderate = e.unary(
        hlo.LogPlusOneOp,
        e.add(ax, e.div(ax2, e.add(one, e.unary(hlo.SqrtOp, e.add(one, ax2))))),
    )
    return e.mul(e.unary(hlo.SignOp, x), e.select(huge, log2_plus, moderate))


def _acosh(e: Emit, x: SSAValue) -> SSAValue:
    two = e.const(2.0)
    huge = e.less(x, e.div(e.const(_MAX_FINITE[type(e.like.element_type)]), two), "GE")
    log2_plus = e.add(e.unary(hlo.LogOp, two), e.unary(hlo.LogOp, x))
    one = e.const(1.0)
    below = e.unary(hlo.SqrtOp, e.sub(x, one))
    moderate = e.unary(
        hlo.LogPlusOneOp,
        e.mul(below, e.add(e.unary(hlo.SqrtOp, e.add(x, one)), below)),
    )
    return e.select(huge, log2_plus, moderate)


def _atanh(e: Emit, x: SSAValue) -> SSAValue:
    outside = e.less(e.unary(hlo.AbsOp, x), e.const(1.0), "GT")
    log_ratio = e.sub(e.unary(hlo.LogPlusOneOp, x),
                      e.unary(hlo.LogPlusOneOp, e.unary(hlo.NegateOp, x)))
    return e.select(outside, e.const(math.nan), e.mul(log_ratio, e.const(0.5)))


# ---------------------------------------------------------------- bessel_i1e


def _chebyshev(e: Emit, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
    """Clenshaw's recurrence for a Chebyshev series (Cephes' `chbevl`), first term first."""
    b0 = e.const(0.0)
    b1 = b2 = b0
    for c in coefficients:
        b2, b1 = b1, b0
        b0 = e.add(e.sub(e.mul(x, b1), b2), e.const(c))
    return e.mul(e.sub(b0, b2), e.const(0.5))


def _bessel_i1e(below_8: Sequence[float], above_8: Sequence[float]) -> Decomposition:
    """Cephes' `i1e`: |x| times a series in |x|/2 - 2 up to 8, a series in 32/|x| - 2 over
    sqrt|x| above, with the sign of x."""

    def bessel_i1e(e: Emit, x: SSAValue) -> SSAValue:
        z = e.unary(hlo.AbsOp, x)
        two = e.const(2.0)
        near = e.mul(z, _chebyshev(e, e.sub(e.mul(e.const(0.5), z), two), below_8))
        far = e.div(_chebyshev(e, e.sub(e.div(e.const(32.0), z), two), above_8),
                    e.unary(hlo.SqrtOp, z))
        small = e.less(z, e.const(8.0), "LE")
        return e.mul(e.unary(hlo.SignOp, x), e.select(small, near, far))

    return bessel_i1e


_I1E_BELOW_8 = (
    2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
    3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
    9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
    -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
    4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
    -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
    2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
    -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1E_ABOVE_8 = (
    7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
    3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
    -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
    7.78576235018280120474e-1)
"""Cephes' coefficients in f64; f32 uses the last 17 and 7 of them."""


# ---------------------------------------------------------------- zeta, polygamma

_ZETA_TERMS = (-7.1661652561756670113e18, 1.8152105401943546773e17, -4.5979787224074726105e15,
               1.1646782814350067249e14, -2.950130727918164224e12, 7.47242496e10,
               -1.8924375803183791606e9, 47900160.0, -1209600.0, 30240.0, -720.0, 12.0)
"""(2k)! / B_2k, the Euler-Maclaurin tail's coefficients (12 terms)."""

_SMALLEST: dict[type[Attribute], float] = {Float32Type: 2.0**-149, Float64Type: 2.0**-1074}
"""The smallest subnormal of each width zeta is computed in."""


def _zeta_sum(e: Emit, x: SSAValue, q: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(Σ_{k<10} (q + k)^-x, a = q + 10, a^-x): the series' head, where the tail starts."""
    one = e.const(1.0)
    neg_x = e.unary(hlo.NegateOp, x)
    a = q
    head = e.op(hlo.PowerOp(q, neg_x))
    for _ in range(9):
        a = e.add(a, one)
        head = e.add(head, e.op(hlo.PowerOp(a, neg_x)))
    a = e.add(a, one)
    return head, a, e.op(hlo.PowerOp(a, neg_x))


def _zeta_tail(
    e: Emit, x: SSAValue, a: SSAValue, a_pow: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """Euler-Maclaurin from a on (Johansson, arXiv:1309.2877, (5)): the integral
    a^-x a / (x - 1) and the Bernoulli terms a^-x (1/2 + Σ_j B_2j/(2j)! x(x+1)...(x+2j-2)
    / a^(2j-1)), the sum by Horner's rule (fewer overflows than Cephes' naive one)."""
    inv_a2 = e.div(e.const(1.0), e.mul(a, a))
    horner = e.const(0.0)
    for i, c in enumerate(_ZETA_TERMS[:-1]):
        rising = e.mul(e.add(x, e.const(2 * len(_ZETA_TERMS) - 2 - 2 * i)),
                       e.add(x, e.const(2 * len(_ZETA_TERMS) - 3 - 2 * i)))
        horner = e.mul(rising, e.mul(inv_a2, e.add(horner, e.const(1 / c))))
    integral = e.div(e.mul(a_pow, a), e.sub(x, e.const(1.0)))
    bernoulli = e.mul(a_pow, e.add(e.const(0.5), e.mul(
        e.div(x, a), e.add(e.const(1 / _ZETA_TERMS[-1]), horner))))
    return integral, bernoulli


def _zeta(e: Emit, x: SSAValue, q: SSAValue) -> SSAValue:
    head, a, a_pow = _zeta_sum(e, x, q)
    integral, bernoulli = _zeta_tail(e, x, a, a_pow)
    accurate = e.add(e.add(head, integral), bernoulli)
    # The head alone where a^-x is negligible next to it.
    negligible = e.less(e.unary(hlo.AbsOp, a_pow), e.mul(
        e.unary(hlo.AbsOp, head), e.const(_SMALLEST[type(e.like.element_type)])))
    return _zeta_domain(e, x, q, e.select(negligible, head, accurate))


def _zeta_domain(e: Emit, x: SSAValue, q: SSAValue, zeta: SSAValue) -> SSAValue:
    """NaN for x < 1 and for q <= 0 with x not an integer; at the poles (integer q <= 0)
    inf for even integer x, NaN otherwise; inf at x = 1 (the harmonic series)."""
    zero, one, nan, inf = e.const(0.0), e.const(1.0), e.const(math.nan), e.const(math.inf)
    zeta = e.select(e.less(x, one), nan, zeta)
    q_le_zero = e.less(q, zero, "LE")
    floor_x = e.unary(hlo.FloorOp, x)
    x_is_int = e.less(x, floor_x, "EQ")
    x_not_int = e.less(x, floor_x, "NE")
    zeta = e.select(e.op(hlo.AndOp(q_le_zero, x_not_int)), nan, zeta)
    pole = e.op(hlo.AndOp(q_le_zero, e.less(q, e.unary(hlo.FloorOp, q), "EQ")))
    x_even = e.less(e.op(hlo.RemainderOp(x, e.const(2.0))), zero, "EQ")
    at_pole = e.select(e.op(hlo.AndOp(x_is_int, x_even)), inf, nan)
    zeta = e.select(pole, at_pole, zeta)
    return e.select(e.less(x, one, "EQ"), inf, zeta)


def _polygamma(e: Emit, n: SSAValue, x: SSAValue) -> SSAValue:
    """(-1)^(n+1) n! zeta(n + 1, x) for natural n > 0, digamma at n = 0, NaN otherwise."""
    one, two, zero = e.const(1.0), e.const(2.0), e.const(0.0)
    sign = e.sub(e.mul(two, e.op(hlo.RemainderOp(n, two))), one)
    n_plus_one = e.add(n, one)
    factorial = e.unary(hlo.ExponentialOp, _lgamma(e, n_plus_one))
    polygamma = e.mul(e.mul(sign, factorial), _zeta(e, n_plus_one, x))
    polygamma = e.select(e.less(n, zero, "EQ"), _digamma(e, x), polygamma)
    not_natural = e.op(hlo.OrOp(e.less(n, e.unary(hlo.FloorOp, n), "NE"), e.less(n, zero)))
    return e.select(not_natural, e.const(math.nan), polygamma)


# ---------------------------------------------------------------- the table

FLOAT_FORMS: dict[type[Operation], tuple[Decomposition, Decomposition, bool]] = {
    # op: (f32 form, f64 form, whether f16/bf16 are computed in f32)
    chlo.ErfOp: (_erf_f32, _erf_f64, True),
    chlo.ErfcOp: (_erfc(_erfc_f32_ge_one, _erf_f32_le_one),
                  _erfc(_erfc_f64_ge_one, _erf_f64_le_one), True),
    chlo.ErfInvOp: (_erf_inv_f32, _erf_inv_f64, True),
    chlo.LgammaOp: (_lgamma, _lgamma, True),
    chlo.DigammaOp: (_digamma, _digamma, True),
    chlo.CoshOp: (_cosh, _cosh, True),
    chlo.SinhOp: (_sinh, _sinh, True),
    chlo.AtanOp: (_atan, _atan, False),
    chlo.AsinOp: (_asin, _asin, False),
    chlo.AcosOp: (_acos, _acos, False),
    chlo.AsinhOp: (_asinh, _asinh, False),
    chlo.AcoshOp: (_acosh, _acosh, False),
    chlo.AtanhOp: (_atanh, _atanh, False),
    chlo.BesselI1eOp: (_bessel_i1e(_I1E_BELOW_8[-17:], _I1E_ABOVE_8[-7:]),
                       _bessel_i1e(_I1E_BELOW_8, _I1E_ABOVE_8), True),
    chlo.ZetaOp: (_zeta, _zeta, True),
    chlo.PolygammaOp: (_polygamma, _polygamma, True),
}
"""Real-argument decompositions by element width, of the ops with float operands."""


