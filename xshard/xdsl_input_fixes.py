"""Fixes for xDSL 0.74 crashes and silent wrap-arounds on bad input.

Found by `tools/fuzz_frontend.py` (see docs/fuzzing.md). Each fix turns what xDSL did
with a malformed or out-of-range input (a Python exception, which xshard's tools report
as an internal error, or a value quietly changed) into a located error, with MLIR's
message where MLIR has one:

- integers in custom syntax (`grid_axes = [...]`, `halo_sizes = [...]` and every
  declarative `[...]` integer array): outside the element type's signed range,
  `integer value too large` (xDSL raised `struct.error`/`ValueError`, or wrapped
  32768 to -32768);
- shape dimensions beyond int64 (`tensor<9223372036854775808xf32>`, a grid
  `shape = 2x9223372036854775808`, which became `2x?`): `invalid dimension`;
- dense literals: an integer element out of its type's range, `integer constant out
  of range for type`; an integer too large for a float type, `unexpected decimal
  integer literal for a floating point value`; a float beyond its type's range
  rounds to infinity, as MLIR's APFloat conversion does (xDSL raised
  `OverflowError`); a type with more than `MAX_DENSE_ELEMENTS` elements, which xDSL
  would expand element by element (`MemoryError`), is refused (and the literal's
  type is checked against a constraint built once, not once per literal);
- a declarative op whose parsed pieces do not fit its definition (variadic operand
  groups of different sizes under `SameVariadicOperandSize`, e.g. `tcp.slice`);
- linalg named ops with too few operands for their body; `linalg.transpose`,
  `broadcast` and `reduce` with a dimension beyond int64, `linalg.reduce` with one
  outside the input's rank, `linalg.transpose` with a permutation that is not one;
- `tosa.const` whose value's shape or element type is not its result's (which the
  verifier passed, and a pass then crashed on);
- affine maps: a product with a symbolic side (`s0 * s1`, which upstream's
  `test-grid-all-slice-op-lowering` writes) is read as MLIR reads it (xDSL raised
  `NotImplementedError`); a product of two dimension expressions is MLIR's error.

`apply()` is idempotent; importing `xshard` applies it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from types import TracebackType
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BytesAttr,
    ComplexType,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    RankedStructure,
    ShapedType,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import BroadcastOp, ReduceOp, TransposeOp
from xdsl.dialects.tosa import ConstOp as TosaConstOp
from xdsl.dialects.utils import dynamic_index_list
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr
from xdsl.irdl import base, irdl_op_init
from xdsl.irdl.declarative_assembly_format import DenseArrayAttributeVariable, FormatProgram
from xdsl.parser import AttrParser, Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError, VerifyException

from xshard.dialects.parsing import integer_range, parse_bounded_integer, parse_signed_integer

MAX_DENSE_ELEMENTS = 1 << 26
"""The most elements a dense literal's type may have: xDSL keeps one Python object per
element, even for a splat (2**26 f32 take 4 s and 1.6 GB)."""

_INT64_MAX = (1 << 63) - 1
_INDEX_RANGE = (-(1 << 63), 1 << 64)
"""What an `index` value may be written as: 64 bits, signed or not, as a signless i64."""
_PATCHED = "xshard_input_fix"


def _patch(owner: Any, name: str, make: Callable[[Any], Any], wrap: Callable = lambda f: f):
    """Replace `owner.name` by `make(original)`, once."""
    original = owner.__dict__[name]
    if getattr(original, _PATCHED, False) or getattr(
        getattr(original, "__func__", None), _PATCHED, False
    ):
        return
    inner = getattr(original, "__func__", original)
    replacement = functools.update_wrapper(make(inner), inner)  # keeps earlier patches' marks
    setattr(replacement, _PATCHED, True)
    setattr(owner, name, wrap(replacement))


def _raised_in(err: BaseException, function: Callable[..., Any]) -> bool:
    """Whether the innermost frame of `err`'s traceback runs `function`."""
    tb: TracebackType | None = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code is function.__code__


# Integers in custom syntax ####################################################


def _dense_array_parse_attr(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_attr(self: DenseArrayAttributeVariable, parser: Parser) -> Any:
        type = self.elt_type
        if not isinstance(type, IntegerType) or type.width.data == 1:
            return original(self, parser)
        low, high = integer_range(type)

        def element() -> int:
            return parse_bounded_integer(parser, low, high)

        if self.is_optional:
            values = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, element)
            if values is None:
                return None
        else:
            values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, element)
        return DenseArrayBase(type, BytesAttr(type.pack(values)))

    return parse_attr


def _dynamic_index(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_dynamic_index_without_type(parser: Parser) -> Any:
        value = parser.parse_optional_unresolved_operand()
        return value if value is not None else parse_signed_integer(parser, 64, allow_boolean=False)

    return parse_dynamic_index_without_type


def _shape_dimension(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_shape_dimension(self: AttrParser, allow_dynamic: bool = True) -> int:
        start = self.pos
        dim = original(self, allow_dynamic)
        if dim > _INT64_MAX:
            self.raise_error("invalid dimension", start, self.pos)
        return dim

    return parse_shape_dimension


# Dense literals ###############################################################


@functools.cache
def _dense_literal_constraint() -> Any:
    return base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


def _dense_literal_type(original: Callable[..., Any]) -> Callable[..., Any]:
    """xDSL's check of a dense literal's type, with its constraint built once (xDSL
    rebuilt it for every literal, a fifth of a pipeline's time on constant-heavy
    programs), and a size limit."""

    def parse_dense_literal_type(self: AttrParser) -> Any:
        start = self.pos
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _dense_literal_constraint().verifies(type):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or "
                "complex type"
            )
        if DYNAMIC_INDEX in type.get_shape():
            self.raise_error("Dense literal attribute should have a static shape.")
        count = math.prod(type.get_shape())
        if count > MAX_DENSE_ELEMENTS:
            self.raise_error(
                f"dense literal of {count} elements: xshard reads at most "
                f"{MAX_DENSE_ELEMENTS} (2**{MAX_DENSE_ELEMENTS.bit_length() - 1})",
                start,
                self.pos,
            )
        return type

    return parse_dense_literal_type


def _round_to_type(value: float, type: AnyFloat) -> float:
    """`value` as `type` holds it: beyond its largest finite value, an infinity."""
    try:
        type.pack((value,))
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


def _element_to_type(original: Callable[..., Any]) -> Callable[..., Any]:
    def to_type(self: Any, parser: AttrParser, type: Any) -> Any:
        value = self.value
        if isinstance(type, IntegerType | IndexType) and isinstance(value, int):
            low, high = type.value_range() if isinstance(type, IntegerType) else _INDEX_RANGE
            if not low <= value < high:
                parser.raise_error("integer constant out of range for type", at_position=self.span)
        if isinstance(type, AnyFloat):
            try:
                return _round_to_type(original(self, parser, type), type)
            except OverflowError:  # float() of an integer beyond every float
                parser.raise_error(
                    "unexpected decimal integer literal for a floating point value",
                    at_position=self.span,
                )
        return original(self, parser, type)

    return to_type


def _float_attr_init(original: Callable[..., Any]) -> Callable[..., Any]:
    def __init__(self: FloatAttr, data: Any, type: Any) -> None:
        if isinstance(data, float) and isinstance(type, AnyFloat):
            data = _round_to_type(data, type)
        original(self, data, type)

    return __init__


def _int_or_float_attr(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_optional_builtin_int_or_float_attr(self: AttrParser) -> Any:
        start = self.pos
        try:
            attr = original(self)
        except OverflowError:  # float() of an integer beyond every float
            self.raise_error(
                "unexpected decimal integer literal for a floating point value", start, start
            )
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
            low, high = _INDEX_RANGE  # xDSL checks the range of integer types only
            if not low <= attr.value.data < high:
                self.raise_error("integer constant out of range for attribute", start, start)
        return attr

    return parse_optional_builtin_int_or_float_attr


# Ops ##########################################################################


def _format_parse(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse(self: FormatProgram, parser: Parser, op_type: type) -> Any:
        start = parser.pos
        try:
            return original(self, parser, op_type)
        except ValueError as err:
            if not _raised_in(err, irdl_op_init):
                raise
            parser.raise_error(f"'{op_type.name}' op {err}", start, parser.pos)

    return parse


def _named_op_parse(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse(cls: type[NamedOperation], parser: Parser) -> Any:
        start = parser.pos
        try:
            return original(cls, parser)
        except IndexError as err:  # its body reads an argument the operands do not give
            parser.raise_error(
                f"custom op '{cls.name}' has too few operands for its region ({err})",
                start,
                parser.pos,
            )

    return parse


def _dims_parse(original: Callable[..., Any]) -> Callable[..., Any]:
    """linalg ops that read their `dimensions`/`permutation` with xDSL's unbounded
    integer parser and store them in an i64 array."""

    def parse(cls: type, parser: Parser) -> Any:
        start = parser.pos
        try:
            return original(cls, parser)
        except ValueError as err:
            if not _raised_in(err, IntegerType.get_normalized_value):
                raise
            parser.raise_error("integer value too large", start, parser.pos)

    return parse


def _reduce_verify(original: Callable[..., Any]) -> Callable[..., Any]:
    """MLIR's checks of `dimensions`, which xDSL indexes the shapes with unchecked."""

    def verify_(self: ReduceOp) -> None:
        dims = self.properties.get("dimensions")
        if len(self.operands) == 2 and isinstance(dims, DenseArrayBase):
            values = dims.get_values()
            if any(b <= a for a, b in zip(values, values[1:], strict=False)):
                raise VerifyException(
                    "'linalg.reduce' op attribute 'dimensions' failed to satisfy constraint: "
                    "i64 dense array attribute should be in increasing order"
                )
            input_type = self.operands[0].type
            rank = input_type.get_num_dims() if isinstance(input_type, ShapedType) else None
            if rank is not None and any(not 0 <= d < rank for d in values):
                raise VerifyException(
                    "'linalg.reduce' op dimensions for reduction should be in the range "
                    f"[0, {rank - 1}]."
                )
        original(self)

    return verify_


def _transpose_verify(original: Callable[..., Any]) -> Callable[..., Any]:
    """MLIR's permutation check, which xDSL skips before indexing the shapes with it
    (an IndexError, or, for a negative entry, a silently accepted op)."""

    def verify_(self: TransposeOp) -> None:
        permutation = self.properties.get("permutation")
        if isinstance(permutation, DenseArrayBase):
            values = permutation.get_values()
            if sorted(values) != list(range(len(values))):
                raise VerifyException("'linalg.transpose' op permutation is not valid")
        original(self)

    return verify_


def _tosa_const_verify(original: Callable[..., Any]) -> Callable[..., Any]:
    """MLIR's `AllShapesMatch<values, output>` and element type check, which xDSL lacks
    (a `tensor<0xf32>` value behind a `tensor<1xf32>` result crashed the partitioner)."""

    def verify_(self: TosaConstOp) -> None:
        original(self)
        values, output = self.values.get_type(), self.output.type
        if isinstance(output, ShapedType) and values.get_shape() != output.get_shape():
            raise VerifyException(
                "'tosa.const' op failed to verify that all of {values, output} have same shape"
            )
        if isinstance(output, ShapedType) and values.element_type != output.element_type:
            raise VerifyException("'tosa.const' op expected same attr/result element types")

    return verify_


# Affine maps ##################################################################


def _affine_binop(original: Callable[..., Any]) -> Callable[..., Any]:
    def create(self: AffineParser, lhs: AffineExpr, rhs: AffineExpr, binop: Any) -> Any:
        if binop.text != "*" or AffineConstantExpr in {type(lhs), type(rhs)}:
            return original(self, lhs, rhs, binop)
        if lhs.used_dims() and rhs.used_dims():
            raise ParseError(
                binop.span,
                "non-affine expression: at least one of the multiply operands has to be "
                "either a constant or symbolic",
            )
        return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, lhs, rhs)

    return create


def apply() -> None:
    """Patch xDSL's parser and the ops above; each patch is applied once."""
    _patch(DenseArrayAttributeVariable, "parse_attr", _dense_array_parse_attr)
    _patch(dynamic_index_list, "parse_dynamic_index_without_type", _dynamic_index)
    _patch(AttrParser, "parse_shape_dimension", _shape_dimension)
    _patch(AttrParser, "_parse_dense_literal_type", _dense_literal_type)
    _patch(AttrParser._TensorLiteralElement, "to_type", _element_to_type)  # pyright: ignore[reportPrivateUsage]
    _patch(FloatAttr, "__init__", _float_attr_init)
    _patch(AttrParser, "parse_optional_builtin_int_or_float_attr", _int_or_float_attr)
    _patch(FormatProgram, "parse", _format_parse)
    _patch(NamedOperation, "parse", _named_op_parse, classmethod)
    for linalg_op in (TransposeOp, BroadcastOp, ReduceOp):
        _patch(linalg_op, "parse", _dims_parse, classmethod)
    _patch(ReduceOp, "verify_", _reduce_verify)
    _patch(TransposeOp, "verify_", _transpose_verify)
    _patch(TosaConstOp, "verify_", _tosa_const_verify)
    _patch(AffineParser, "_create_binop_expr", _affine_binop)


apply()
