"""StableHLO attributes used by the subset: enums, `#stablehlo.dot`, `#stablehlo.gather`,
`#stablehlo.scatter`, `#stablehlo.channel_handle`.

Spellings follow upstream StableHLO (`StablehloAttrs.td`, `StablehloEnums.td`) so that
text printed here is read by jaxlib's MLIR parser and XLA.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, DenseArrayBase, IntAttr, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xshard.dialects.parsing import (
    dim_fields_text,
    parse_dim_fields,
    parse_signed_integer,
    parse_signed_integer_list,
)


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


class Transpose(StrEnum):
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<comparison_direction GT>`."""

    name = "stablehlo.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<comparison_type FLOAT>`."""

    name = "stablehlo.comparison_type"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<precision DEFAULT>`."""

    name = "stablehlo.precision"


@irdl_attr_definition
class RngAlgorithmAttr(EnumAttribute[RngAlgorithm], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<rng_algorithm DEFAULT>`."""

    name = "stablehlo.rng_algorithm"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<fft_type RFFT>`."""

    name = "stablehlo.fft_type"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<transpose NO_TRANSPOSE>`: how `triangular_solve` reads its matrix."""

    name = "stablehlo.transpose"


def _i64_array(values: Sequence[int] | DenseArrayBase) -> DenseArrayBase:
    if isinstance(values, DenseArrayBase):
        return values
    return DenseArrayBase.from_list(i64, list(values))


_DOT_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
)


@irdl_attr_definition
class DotAttr(ParametrizedAttribute):
    """Dimension numbers of `stablehlo.dot_general`.

    Prints as upstream does, leaving out empty fields:
    `#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>`.
    """

    name = "stablehlo.dot"

    lhs_batching_dimensions: DenseArrayBase[I64]
    rhs_batching_dimensions: DenseArrayBase[I64]
    lhs_contracting_dimensions: DenseArrayBase[I64]
    rhs_contracting_dimensions: DenseArrayBase[I64]

    def __init__(
        self,
        lhs_batching_dimensions: Sequence[int] | DenseArrayBase = (),
        rhs_batching_dimensions: Sequence[int] | DenseArrayBase = (),
        lhs_contracting_dimensions: Sequence[int] | DenseArrayBase = (),
        rhs_contracting_dimensions: Sequence[int] | DenseArrayBase = (),
    ):
        super().__init__(
            _i64_array(lhs_batching_dimensions),
            _i64_array(rhs_batching_dimensions),
            _i64_array(lhs_contracting_dimensions),
            _i64_array(rhs_contracting_dimensions),
        )

    @property
    def lhs_batching(self) -> tuple[int, ...]:
        return self.lhs_batching_dimensions.get_values()

    @property
    def rhs_batching(self) -> tuple[int, ...]:
        return self.rhs_batching_dimensions.get_values()

    @property
    def lhs_contracting(self) -> tuple[int, ...]:
        return self.lhs_contracting_dimensions.get_values()

    @property
    def rhs_contracting(self) -> tuple[int, ...]:
        return self.rhs_contracting_dimensions.get_values()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields = parse_dim_fields(parser, _DOT_FIELDS, "#stablehlo.dot")
        return tuple(_i64_array(fields.get(key, ())) for key in _DOT_FIELDS)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            dim_fields_text([(key, getattr(self, key).get_values()) for key in _DOT_FIELDS])
        )


@irdl_attr_definition
class ChannelHandleAttr(ParametrizedAttribute):
    """`#stablehlo.channel_handle<handle = 1, type = 1>`.

    A handle > 0 makes a collective cross-partition; `type = 1` is DEVICE_TO_DEVICE,
    the type JAX gives every collective.
    """

    name = "stablehlo.channel_handle"

    handle: IntAttr
    type: IntAttr

    def __init__(self, handle: int | IntAttr, type: int | IntAttr = 1):
        super().__init__(
            handle if isinstance(handle, IntAttr) else IntAttr(handle),
            type if isinstance(type, IntAttr) else IntAttr(type),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("handle")
            parser.parse_punctuation("=")
            handle = parse_signed_integer(parser, 64)
            parser.parse_punctuation(",")
            parser.parse_keyword("type")
            parser.parse_punctuation("=")
            kind = parse_signed_integer(parser, 64)
        return (IntAttr(handle), IntAttr(kind))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<handle = {self.handle.data}, type = {self.type.data}>")

    def verify(self) -> None:
        if self.type.data < 0:
            raise VerifyException(
                f"#stablehlo.channel_handle type must be >= 0, got {self.type.data}"
            )


class _DimensionNumbersAttr(ParametrizedAttribute):
    """A struct of dimension lists and one `index_vector_dim`, printed as upstream prints
    it: fields in declaration order, empty lists and `index_vector_dim = 0` left out;
    read in any order."""

    LISTS: ClassVar[tuple[str, ...]]
    """The list fields, in upstream's order (`index_vector_dim` comes last)."""

    index_vector_dim: IntAttr

    def list_field(self, name: str) -> tuple[int, ...]:
        value = getattr(self, name)
        assert isinstance(value, DenseArrayBase)
        return value.get_values()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        lists: dict[str, list[int]] = {}
        index_vector_dim: int | None = None

        def parse_field() -> None:
            nonlocal index_vector_dim
            key = parser.parse_identifier()
            if key not in (*cls.LISTS, "index_vector_dim"):
                parser.raise_error(f"unknown field '{key}' in #{cls.name}, expected one of "
                                   f"{', '.join((*cls.LISTS, 'index_vector_dim'))}")
            if key in lists or (key == "index_vector_dim" and index_vector_dim is not None):
                parser.raise_error(f"duplicate field '{key}' in #{cls.name}")
            parser.parse_punctuation("=")
            if key == "index_vector_dim":
                index_vector_dim = parse_signed_integer(parser, 64)
            else:
                lists[key] = parse_signed_integer_list(parser, 64)

        parser.parse_punctuation("<")
        if parser.parse_optional_punctuation(">") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_field)
            parser.parse_punctuation(">")
        return (
            IntAttr(index_vector_dim or 0),
            *(_i64_array(lists.get(key, ())) for key in cls.LISTS),
        )

    def print_parameters(self, printer: Printer) -> None:
        fields = [
            f"{key} = [{', '.join(str(v) for v in values)}]"
            for key in self.LISTS
            if (values := self.list_field(key))
        ]
        if self.index_vector_dim.data:
            fields.append(f"index_vector_dim = {self.index_vector_dim.data}")
        with printer.in_angle_brackets():
            printer.print_string(", ".join(fields))


@irdl_attr_definition
class GatherDimensionNumbersAttr(_DimensionNumbersAttr):
    """Dimension numbers of `stablehlo.gather`:
    `#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
    index_vector_dim = 1>`. https://openxla.org/stablehlo/spec#gather"""

    name = "stablehlo.gather"
    LISTS: ClassVar[tuple[str, ...]] = (
        "offset_dims",
        "collapsed_slice_dims",
        "operand_batching_dims",
        "start_indices_batching_dims",
        "start_index_map",
    )

    offset_dims: DenseArrayBase[I64]
    collapsed_slice_dims: DenseArrayBase[I64]
    operand_batching_dims: DenseArrayBase[I64]
    start_indices_batching_dims: DenseArrayBase[I64]
    start_index_map: DenseArrayBase[I64]

    def __init__(
        self,
        offset_dims: Sequence[int] = (),
        collapsed_slice_dims: Sequence[int] = (),
        operand_batching_dims: Sequence[int] = (),
        start_indices_batching_dims: Sequence[int] = (),
        start_index_map: Sequence[int] = (),
        index_vector_dim: int = 0,
    ):
        super().__init__(
            IntAttr(index_vector_dim),
            *(_i64_array(v) for v in (offset_dims, collapsed_slice_dims, operand_batching_dims,
                                      start_indices_batching_dims, start_index_map)),
        )


@irdl_attr_definition
class ScatterDimensionNumbersAttr(_DimensionNumbersAttr):
    """Dimension numbers of `stablehlo.scatter`:
    `#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
    scatter_dims_to_operand_dims = [0], index_vector_dim = 1>`.
    https://openxla.org/stablehlo/spec#scatter"""

    name = "stablehlo.scatter"
    LISTS: ClassVar[tuple[str, ...]] = (
        "update_window_dims",
        "inserted_window_dims",
        "input_batching_dims",
        "scatter_indices_batching_dims",
        "scatter_dims_to_operand_dims",
    )

    update_window_dims: DenseArrayBase[I64]
    inserted_window_dims: DenseArrayBase[I64]
    input_batching_dims: DenseArrayBase[I64]
    scatter_indices_batching_dims: DenseArrayBase[I64]
    scatter_dims_to_operand_dims: DenseArrayBase[I64]

    def __init__(
        self,
        update_window_dims: Sequence[int] = (),
        inserted_window_dims: Sequence[int] = (),
        input_batching_dims: Sequence[int] = (),
        scatter_indices_batching_dims: Sequence[int] = (),
        scatter_dims_to_operand_dims: Sequence[int] = (),
        index_vector_dim: int = 0,
    ):
        super().__init__(
            IntAttr(index_vector_dim),
            *(_i64_array(v) for v in (update_window_dims, inserted_window_dims,
                                      input_batching_dims, scatter_indices_batching_dims,
                                      scatter_dims_to_operand_dims)),
        )


@irdl_attr_definition
class OutputOperandAliasAttr(ParametrizedAttribute):
    """`#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0,
    operand_tuple_indices = []>`: a custom call's result (at that tuple path) reuses an
    operand's buffer, as JAX's LAPACK kernels write their results in place."""

    name = "stablehlo.output_operand_alias"

    output_tuple_indices: DenseArrayBase
    operand_index: IntAttr
    operand_tuple_indices: DenseArrayBase

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def indices(key: str) -> DenseArrayBase:
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            return _i64_array(parse_signed_integer_list(parser, 64))

        with parser.in_angle_brackets():
            output = indices("output_tuple_indices")
            parser.parse_punctuation(",")
            parser.parse_keyword("operand_index")
            parser.parse_punctuation("=")
            operand = parse_signed_integer(parser, 64)
            parser.parse_punctuation(",")
            inner = indices("operand_tuple_indices")
        return (output, IntAttr(operand), inner)

    def print_parameters(self, printer: Printer) -> None:
        def text(values: DenseArrayBase) -> str:
            return f"[{', '.join(str(v) for v in values.get_values())}]"

        printer.print_string(
            f"<output_tuple_indices = {text(self.output_tuple_indices)}, "
            f"operand_index = {self.operand_index.data}, "
            f"operand_tuple_indices = {text(self.operand_tuple_indices)}>"
        )
