"""CHLO, StableHLO's "client" ops: the ones JAX emits for special functions, top-k and
ragged dots.

XLA reads them, but they are not StableHLO: `chlo-legalize-to-stablehlo` decomposes
them before sharding (see `docs/dialects/chlo.md`). Pretty forms are upstream's
(`stablehlo/dialect/ChloOps.td`):

    %e = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
    %n = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %values, %indices = chlo.top_k(%x, k = 3)
        : tensor<4x16xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)

`chlo.ragged_dot` has no pretty form: JAX prints it generically, with the attributes
`#chlo.ragged_dot<...>` and `#chlo<precision DEFAULT>`. Only the ops JAX emits (and their
siblings with simple real forms) are here: no broadcasting ops (JAX emits them only for
dynamic shapes), no `scan` (JAX 0.10 has the lowering but never takes it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xshard.dialects.parsing import (
    dim_fields_text,
    parse_dim_fields,
    parse_signed_integer,
)
from xshard.dialects.stablehlo.attributes import Precision
from xshard.dialects.stablehlo.checks import (
    check_dims_in_range,
    dim_matches,
    element_type,
    fail,
    is_complex,
    is_float,
    is_integer,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.syntax import parse_attr_dict, print_attr_dict


class UnaryOp(IRDLOperation):
    """`%r = chlo.<op> %x : tensor<...> -> tensor<...>`, elementwise."""

    ALLOWS_COMPLEX: ClassVar[bool] = False
    """Whether complex operands are valid (upstream's HLO_AnyFpOrComplexTensor)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand],
            result_types=[result_type or self.result_type_for(operand.type)],
            attributes=attributes,
        )

    @staticmethod
    def result_type_for(operand_type: Attribute) -> Attribute:
        return operand_type

    @classmethod
    def parse(cls, parser: Parser) -> UnaryOp:
        operand = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(operand, operand_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        elem = element_type(self.operand.type)
        if not (is_float(elem) or (self.ALLOWS_COMPLEX and is_complex(elem))):
            kinds = "float or complex" if self.ALLOWS_COMPLEX else "float"
            fail(self, f"operand element type must be {kinds}, got {elem}")
        expected = self.result_type_for(self.operand.type)
        if self.result.type != expected:
            fail(self, f"result type must be {expected}, got {self.result.type}")


class _FloatOrComplexOp(UnaryOp):
    ALLOWS_COMPLEX: ClassVar[bool] = True


class _PredicateOp(UnaryOp):
    """A test on each element: the result is a tensor of i1 of the operand's shape."""

    @staticmethod
    def result_type_for(operand_type: Attribute) -> Attribute:
        return TensorType(i1, shape(operand_type))


@irdl_op_definition
class SquareOp(_FloatOrComplexOp):
    """x * x (`jnp.square`, `jnp.var`)."""

    name = "chlo.square"


@irdl_op_definition
class TanOp(_FloatOrComplexOp):
    name = "chlo.tan"


@irdl_op_definition
class ErfOp(UnaryOp):
    """The Gauss error function."""

    name = "chlo.erf"


@irdl_op_definition
class ErfcOp(UnaryOp):
    """1 - erf(x), computed without cancellation (exact `jax.nn.gelu`)."""

    name = "chlo.erfc"


@irdl_op_definition
class ErfInvOp(UnaryOp):
    """The inverse of erf (`jax.random.normal`)."""

    name = "chlo.erf_inv"


@irdl_op_definition
class LgammaOp(UnaryOp):
    """log |Γ(x)|."""

    name = "chlo.lgamma"


@irdl_op_definition
class DigammaOp(UnaryOp):
    """Γ'(x) / Γ(x)."""

    name = "chlo.digamma"


@irdl_op_definition
class IsInfOp(_PredicateOp):
    name = "chlo.is_inf"


@irdl_op_definition
class IsNegInfOp(_PredicateOp):
    name = "chlo.is_neg_inf"


@irdl_op_definition
class IsPosInfOp(_PredicateOp):
    name = "chlo.is_pos_inf"


@irdl_op_definition
class SinhOp(_FloatOrComplexOp):
    name = "chlo.sinh"


@irdl_op_definition
class CoshOp(_FloatOrComplexOp):
    name = "chlo.cosh"


@irdl_op_definition
class AsinOp(_FloatOrComplexOp):
    name = "chlo.asin"


@irdl_op_definition
class AcosOp(_FloatOrComplexOp):
    name = "chlo.acos"


@irdl_op_definition
class AtanOp(_FloatOrComplexOp):
    name = "chlo.atan"


@irdl_op_definition
class AsinhOp(_FloatOrComplexOp):
    name = "chlo.asinh"


@irdl_op_definition
class AcoshOp(_FloatOrComplexOp):
    name = "chlo.acosh"


@irdl_op_definition
class AtanhOp(_FloatOrComplexOp):
    name = "chlo.atanh"


@irdl_op_definition
class BesselI1eOp(_FloatOrComplexOp):
    """e^-|x| I1(x), the exponentially scaled modified Bessel function of order 1
    (`jax.scipy.special.i1e`, `i1`)."""

    name = "chlo.bessel_i1e"


@irdl_op_definition
class ConjOp(_FloatOrComplexOp):
    """The complex conjugate; JAX emits it for complex `triangular_solve(conjugate_a=True)`."""

    name = "chlo.conj"


class BinaryOp(IRDLOperation):
    """`%r = chlo.<op> %a, %b : tensor<...>, tensor<...> -> tensor<...>`, elementwise; both
    operands and the result have one type (upstream's HLO_CompatibleOperandsAndResultType)."""

    ELEMENTS: ClassVar[tuple[str, Callable[[Attribute], bool]]] = ("float", is_float)
    """What the element type must be, and the test for it."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type], attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> BinaryOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        parser.parse_punctuation("->")
        return cls.create(
            operands=[parser.resolve_operand(lhs, lhs_type), parser.resolve_operand(rhs, rhs_type)],
            result_types=[parser.parse_type()],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list([self.lhs.type, self.rhs.type], printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        kind, test = self.ELEMENTS
        elem = element_type(self.lhs.type)
        if not test(elem):
            fail(self, f"operand element type must be {kind}, got {elem}")
        types = (self.lhs.type, self.rhs.type, self.result.type)
        if any(t != self.lhs.type for t in types):
            listed = ", ".join(str(t) for t in types)
            fail(self, f"operands and result must have one type, got {listed}")


@irdl_op_definition
class NextAfterOp(BinaryOp):
    """The next representable float after x towards y, as C's `nextafter`
    (`jnp.nextafter`; diffrax)."""

    name = "chlo.next_after"


@irdl_op_definition
class PolygammaOp(BinaryOp):
    """The n-th derivative of digamma at x, `chlo.polygamma %n, %x`
    (`jax.scipy.special.polygamma`)."""

    name = "chlo.polygamma"


@irdl_op_definition
class ZetaOp(BinaryOp):
    """Hurwitz's zeta ζ(x, q) = Σ_k (q + k)^-x, `chlo.zeta %x, %q`
    (`jax.scipy.special.zeta`)."""

    name = "chlo.zeta"


@irdl_op_definition
class MulhiOp(BinaryOp):
    """The high half of the double-width product of two integers (`jax.lax.mulhi`, the
    Philox random number generators)."""

    name = "chlo.mulhi"

    ELEMENTS: ClassVar[tuple[str, Callable[[Attribute], bool]]] = ("integer", is_integer)


@irdl_op_definition
class TopKOp(IRDLOperation):
    """The `k` largest entries along the last dim and their indices, largest first
    (`jax.lax.top_k`); with `is_stable` (the default), equal entries keep index order.

    `%v, %i = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)`.
    """

    name = "chlo.top_k"

    operand = operand_def(TensorType)
    k = prop_def(IntegerAttr[I64])
    is_stable = opt_prop_def(BoolAttr)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, k: int):
        operand = SSAValue.get(operand)
        assert isinstance(operand.type, TensorType)
        dims = [*operand.type.get_shape()[:-1], k]
        super().__init__(
            operands=[operand],
            result_types=[TensorType(operand.type.element_type, dims), TensorType(i32, dims)],
            properties={"k": IntegerAttr(k, i64)},
        )

    @property
    def stable(self) -> bool:
        return self.is_stable is None or bool(self.is_stable.value.data)

    @classmethod
    def parse(cls, parser: Parser) -> TopKOp:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"k": IntegerAttr(parse_signed_integer(parser, 64), i64)}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("is_stable")
            parser.parse_punctuation("=")
            props["is_stable"] = parser.parse_attribute()
        parser.parse_punctuation(")")
        more, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        return cls.create(
            operands=[parser.resolve_operand(operand, operand_type)],
            result_types=result_types,
            properties=props | more,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data}")
        if self.is_stable is not None:
            printer.print_string(", is_stable = ")
            printer.print_attribute(self.is_stable)
        printer.print_string(")")
        print_attr_dict(printer, self, elided=("k", "is_stable"))
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(")")

    def verify_(self) -> None:
        operand_shape = shape(self.operand.type)
        k = self.k.value.data
        if not operand_shape:
            fail(self, "operand's rank must be at least 1")
        if k < 0:
            fail(self, f"k must be non-negative, got {k}")
        if operand_shape[-1] >= 0 and operand_shape[-1] < k:
            fail(self, f"operand's last dimension must be at least {k}")
        dims = [*operand_shape[:-1], k]
        for what, value, elem in (
            ("values", self.values, element_type(self.operand.type)),
            ("indices", self.indices, i32),
        ):
            if not shapes_match(shape(value.type), dims) or element_type(value.type) != elem:
                fail(self, f"{what} must be {TensorType(elem, dims)}, got {value.type}")


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#chlo<precision DEFAULT>`: `ragged_dot`'s operand precision (XLA's PrecisionConfig)."""

    name = "chlo.precision"


_RAGGED_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
    "lhs_ragged_dimensions",
    "rhs_group_dimensions",
)


@irdl_attr_definition
class RaggedDotAttr(ParametrizedAttribute):
    """`ragged_dot`'s dimension numbers: `dot_general`'s, the lhs's ragged dim and the rhs's
    group dim. Printed as upstream prints them, empty fields left out:
    `#chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
    lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>`.
    """

    name = "chlo.ragged_dot"

    lhs_batching_dimensions: DenseArrayBase[I64]
    rhs_batching_dimensions: DenseArrayBase[I64]
    lhs_contracting_dimensions: DenseArrayBase[I64]
    rhs_contracting_dimensions: DenseArrayBase[I64]
    lhs_ragged_dimensions: DenseArrayBase[I64]
    rhs_group_dimensions: DenseArrayBase[I64]

    def dims(self, field: str) -> tuple[int, ...]:
        """One field (`lhs_batching`, ..., `rhs_group`) as a tuple."""
        return getattr(self, f"{field}_dimensions").get_values()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields = parse_dim_fields(parser, _RAGGED_FIELDS, "#chlo.ragged_dot")
        return tuple(DenseArrayBase.from_list(i64, fields.get(key, [])) for key in _RAGGED_FIELDS)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            dim_fields_text([(key, getattr(self, key).get_values()) for key in _RAGGED_FIELDS])
        )


@irdl_op_definition
class RaggedDotOp(IRDLOperation):
    """A `dot_general` whose lhs has one ragged dim, cut into groups of `group_sizes` rows
    (`jax.lax.ragged_dot`, mixture-of-experts layers; JAX emits it when lowering for TPU
    and GPU). Upstream's three modes, by the kind of the ragged dim:

    - non-contracting: `[b,m,k], [g,b,k,n], [b,g] -> [b,m,n]`, rows of group i times
      rhs group i;
    - contracting: `[b,m,k], [b,k,n], [b,g] -> [g,b,m,n]`, one product per group;
    - batch: `[b,m,k], [b,k,n], [g] -> [b,m,n]`, a plain batched product.

    Generic form only, as JAX prints it.
    """

    name = "chlo.ragged_dot"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    group_sizes = operand_def(TensorType)
    ragged_dot_dimension_numbers = prop_def(RaggedDotAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @property
    def ragged_dim(self) -> int:
        return self.ragged_dot_dimension_numbers.dims("lhs_ragged")[0]

    @property
    def mode(self) -> str:
        """`batch`, `contracting` or `non-contracting`: the kind of the lhs's ragged dim."""
        numbers = self.ragged_dot_dimension_numbers
        if self.ragged_dim in numbers.dims("lhs_batching"):
            return "batch"
        if self.ragged_dim in numbers.dims("lhs_contracting"):
            return "contracting"
        return "non-contracting"

    def group_prefix(self) -> list[int]:
        """The lhs dims that index `group_sizes`'s leading dims (all but its last): the
        batching dims, then the contracting (or free) dims before the ragged one; in batch
        mode the batching dims before it."""
        numbers = self.ragged_dot_dimension_numbers
        batching, contracting = numbers.dims("lhs_batching"), numbers.dims("lhs_contracting")
        ragged = self.ragged_dim
        if self.mode == "batch":
            return list(batching[: batching.index(ragged)])
        if self.mode == "contracting":
            return [*batching, *contracting[: contracting.index(ragged)]]
        used = {*batching, *contracting}
        return [*batching, *(d for d in range(ragged) if d not in used)]

    def result_shape(self) -> list[int]:
        """Upstream's inferred shape: [g] in contracting mode, then the batching dims, the
        free lhs dims, the free rhs dims."""
        numbers = self.ragged_dot_dimension_numbers
        lhs_shape, rhs_shape = shape(self.lhs.type), shape(self.rhs.type)
        lhs_used = {*numbers.dims("lhs_batching"), *numbers.dims("lhs_contracting")}
        rhs_used = {*numbers.dims("rhs_batching"), *numbers.dims("rhs_contracting"),
                    *numbers.dims("rhs_group")}
        groups = [shape(self.group_sizes.type)[-1]] if self.mode == "contracting" else []
        return [
            *groups,
            *(lhs_shape[d] for d in numbers.dims("lhs_batching")),
            *(size for d, size in enumerate(lhs_shape) if d not in lhs_used),
            *(size for d, size in enumerate(rhs_shape) if d not in rhs_used),
        ]

    def verify_(self) -> None:
        numbers = self.ragged_dot_dimension_numbers
        if len(numbers.dims("lhs_ragged")) != 1:
            fail(self, "there must be exactly one ragged dimension in the lhs")
        check_dims_in_range(self, "lhs_ragged_dimensions", numbers.dims("lhs_ragged"),
                            len(shape(self.lhs.type)))
        self._verify_dot_dims()
        self._verify_groups()
        if self.precision_config is not None and len(self.precision_config.data) not in (0, 2):
            fail(self, f"precision_config must have 0 or 2 entries, got "
                       f"{len(self.precision_config.data)}")
        expected = self.result_shape()
        if not shapes_match(expected, shape(self.result.type)):
            fail(self, f"result shape must be {expected}, got {list(shape(self.result.type))}")

    def _verify_dot_dims(self) -> None:
        numbers = self.ragged_dot_dimension_numbers
        lhs_shape, rhs_shape = shape(self.lhs.type), shape(self.rhs.type)
        for side, side_shape, extra in (("lhs", lhs_shape, ()), ("rhs", rhs_shape, ("group",))):
            dims: list[int] = []
            for kind in ("batching", "contracting", *extra):
                name = f"{side}_{kind}_dimensions"
                check_dims_in_range(self, name, numbers.dims(f"{side}_{kind}"), len(side_shape))
                dims.extend(numbers.dims(f"{side}_{kind}"))
            if len(set(dims)) != len(dims):
                fail(self, f"{side} batching, contracting and group dimensions must be "
                           f"disjoint, got {dims}")
        for kind in ("batching", "contracting"):
            lhs_dims, rhs_dims = numbers.dims(f"lhs_{kind}"), numbers.dims(f"rhs_{kind}")
            if len(lhs_dims) != len(rhs_dims):
                fail(self, f"lhs and rhs must have the same number of {kind} dimensions, got "
                           f"{list(lhs_dims)} and {list(rhs_dims)}")
            for a, b in zip(lhs_dims, rhs_dims, strict=True):
                if not dim_matches(lhs_shape[a], rhs_shape[b]):
                    fail(self, f"{kind} dimension sizes differ: lhs dimension {a} has "
                               f"{lhs_shape[a]}, rhs dimension {b} has {rhs_shape[b]}")

    def _verify_groups(self) -> None:
        sizes_shape = shape(self.group_sizes.type)
        if not is_integer(element_type(self.group_sizes.type)) or not sizes_shape:
            fail(self, f"group_sizes must be a tensor of integers of rank at least 1, got "
                       f"{self.group_sizes.type}")
        lhs_shape = shape(self.lhs.type)
        prefix = [lhs_shape[d] for d in self.group_prefix()]
        if len(sizes_shape) != 1 and not shapes_match(sizes_shape[:-1], prefix):
            fail(self, f"group_sizes must have shape {[*prefix, sizes_shape[-1]]} or "
                       f"[{sizes_shape[-1]}], got {list(sizes_shape)}")
        group_dims = self.ragged_dot_dimension_numbers.dims("rhs_group")
        if self.mode != "non-contracting":
            if group_dims:
                fail(self, "there must be no rhs group dimension when the ragged dimension "
                           "is batching or contracting")
            return
        if len(group_dims) != 1:
            fail(self, "there must be exactly one rhs group dimension when the ragged "
                       "dimension is non-contracting")
        groups = shape(self.rhs.type)[group_dims[0]]
        if not dim_matches(groups, sizes_shape[-1]):
            fail(self, f"rhs group dimension must have size {sizes_shape[-1]}, got {groups}")


CHLO = Dialect(
    "chlo",
    [
        SquareOp,
        TanOp,
        ErfOp,
        ErfcOp,
        ErfInvOp,
        LgammaOp,
        DigammaOp,
        IsInfOp,
        IsNegInfOp,
        IsPosInfOp,
        SinhOp,
        CoshOp,
        AsinOp,
        AcosOp,
        AtanOp,
        AsinhOp,
        AcoshOp,
        AtanhOp,
        BesselI1eOp,
        ConjOp,
        NextAfterOp,
        PolygammaOp,
        ZetaOp,
        MulhiOp,
        TopKOp,
        RaggedDotOp,
    ],
    [PrecisionAttr, RaggedDotAttr],
)
