"""`stablehlo.convolution` and its dimension numbers `#stablehlo.conv<...>`.

Pretty form, as upstream and JAX print it:
`%r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1],
reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
precision_config = [...]} : (...) -> ...`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, ParametrizedAttribute
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

from xshard.dialects.parsing import parse_signed_integer
from xshard.dialects.stablehlo.attributes import PrecisionAttr
from xshard.dialects.stablehlo.checks import element_type, fail, shape, shapes_match
from xshard.dialects.stablehlo.syntax import (
    int_list,
    parse_attr_dict,
    parse_function_type,
    parse_int_list,
    print_functional_type,
    resolve,
)
from xshard.dialects.stablehlo.windows import (
    array_values,
    check_padding,
    check_sizes,
    num_windows,
    padding_attr,
    padding_pairs,
)

# ---------------------------------------------------------------- dimension numbers


@dataclass(frozen=True)
class _Layout:
    """One tensor's dims in `#stablehlo.conv`: two named dims and the spatial ones."""

    first: int
    second: int
    spatial: tuple[int, ...]


def _parse_layout(parser: AttrParser, names: str) -> _Layout:
    """`[b, 0, 1, f]`: each of the two `names` once, spatial dims 0..k-1 once each, in
    any order."""
    named: dict[str, int] = {}
    spatial: dict[int, int] = {}

    def entry() -> None:
        index = len(named) + len(spatial)
        pos = parser.pos
        number = parser.parse_optional_integer()
        if number is not None:
            if number < 0 or number in spatial:
                parser.raise_error(f"unexpected or duplicate spatial dimension {number}", pos,
                                   parser.pos)
            spatial[number] = index
            return
        key = parser.parse_identifier()
        if key not in names or key in named:
            parser.raise_error(
                f"unexpected dimension {key}, expecting one of "
                f"{', '.join(n for n in names if n not in named)}", pos, parser.pos,
            )
        named[key] = index

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
    missing = [n for n in names if n not in named]
    if missing:
        parser.raise_error(f"expected dimensions {', '.join(missing)} not specified")
    if sorted(spatial) != list(range(len(spatial))):
        parser.raise_error(f"spatial dimensions must be 0..{len(spatial) - 1}, got "
                           f"{sorted(spatial)}")
    return _Layout(named[names[0]], named[names[1]], tuple(spatial[k] for k in range(len(spatial))))


def _layout_text(layout: _Layout, names: str) -> str:
    rank = 2 + len(layout.spatial)
    entries = ["?"] * rank
    entries[layout.first], entries[layout.second] = names[0], names[1]
    for k, d in enumerate(layout.spatial):
        entries[d] = str(k)
    return "[" + ", ".join(entries) + "]"


def _ints(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


@irdl_attr_definition
class ConvDimensionNumbersAttr(ParametrizedAttribute):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`: which dim of the input
    (lhs), kernel (rhs) and output is the batch (`b`), feature (`f`), kernel input /
    output feature (`i`/`o`) and each spatial dim (`0`, `1`, ...)."""

    name = "stablehlo.conv"

    input_batch_dimension: IntAttr
    input_feature_dimension: IntAttr
    input_spatial_dimensions: DenseArrayBase[I64]
    kernel_input_feature_dimension: IntAttr
    kernel_output_feature_dimension: IntAttr
    kernel_spatial_dimensions: DenseArrayBase[I64]
    output_batch_dimension: IntAttr
    output_feature_dimension: IntAttr
    output_spatial_dimensions: DenseArrayBase[I64]

    @staticmethod
    def from_layouts(lhs: _Layout, rhs: _Layout, out: _Layout) -> ConvDimensionNumbersAttr:
        return ConvDimensionNumbersAttr(
            IntAttr(lhs.first), IntAttr(lhs.second), _ints(lhs.spatial),
            IntAttr(rhs.first), IntAttr(rhs.second), _ints(rhs.spatial),
            IntAttr(out.first), IntAttr(out.second), _ints(out.spatial),
        )

    @property
    def lhs(self) -> _Layout:
        """Input: `first` = batch, `second` = feature."""
        return _Layout(self.input_batch_dimension.data, self.input_feature_dimension.data,
                       self.input_spatial_dimensions.get_values())

    @property
    def rhs(self) -> _Layout:
        """Kernel: `first` = input feature, `second` = output feature."""
        return _Layout(self.kernel_input_feature_dimension.data,
                       self.kernel_output_feature_dimension.data,
                       self.kernel_spatial_dimensions.get_values())

    @property
    def out(self) -> _Layout:
        """Output: `first` = batch, `second` = feature."""
        return _Layout(self.output_batch_dimension.data, self.output_feature_dimension.data,
                       self.output_spatial_dimensions.get_values())

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        attr = parse_conv_dimensions(parser)
        parser.parse_punctuation(">")
        return attr.parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    def text(self) -> str:
        return (f"{_layout_text(self.lhs, 'bf')}x{_layout_text(self.rhs, 'io')}->"
                f"{_layout_text(self.out, 'bf')}")


def parse_conv_dimensions(parser: AttrParser) -> ConvDimensionNumbersAttr:
    """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (upstream `custom<ConvolutionDimensions>`)."""
    lhs = _parse_layout(parser, "bf")
    parser.parse_keyword("x")
    rhs = _parse_layout(parser, "io")
    parser.parse_punctuation("->")
    out = _parse_layout(parser, "bf")
    return ConvDimensionNumbersAttr.from_layouts(lhs, rhs, out)


# ---------------------------------------------------------------- window = {...}

_WINDOW_FIELDS = {
    "stride": "window_strides",
    "pad": "padding",
    "lhs_dilate": "lhs_dilation",
    "rhs_dilate": "rhs_dilation",
    "reverse": "window_reversal",
}


def _parse_bool_or_int(parser: Parser) -> int:
    if parser.parse_optional_keyword("true"):
        return 1
    if parser.parse_optional_keyword("false"):
        return 0
    return parse_signed_integer(parser, 64)


def _parse_window(parser: Parser) -> dict[str, Attribute]:
    """`{stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate = [..],
    reverse = [..]}`, each field optional, in any order."""
    props: dict[str, Attribute] = {}

    def field() -> None:
        pos = parser.pos
        key = parser.parse_identifier()
        if key not in _WINDOW_FIELDS or _WINDOW_FIELDS[key] in props:
            parser.raise_error(f"unexpected or duplicate window field '{key}'", pos, parser.pos)
        parser.parse_punctuation("=")
        if key == "pad":
            pairs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                      lambda: _parse_pair(parser))
            props["padding"] = padding_attr(pairs)
        elif key == "reverse":
            flags = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                      lambda: _parse_bool_or_int(parser))
            props["window_reversal"] = DenseArrayBase.from_list(i1, [int(f != 0) for f in flags])
        else:
            props[_WINDOW_FIELDS[key]] = _ints(parse_int_list(parser))

    parser.parse_comma_separated_list(parser.Delimiter.BRACES, field)
    return props


def _parse_pair(parser: Parser) -> tuple[int, int]:
    pos = parser.pos
    values = parse_int_list(parser)
    if len(values) != 2:
        parser.raise_error(f"expected [low, high], got {len(values)} values", pos, parser.pos)
    return values[0], values[1]


# ---------------------------------------------------------------- the op


@irdl_op_definition
class ConvolutionOp(IRDLOperation):
    """Dot products of `lhs` windows with the kernel `rhs`.
    https://openxla.org/stablehlo/spec#convolution

    Absent window properties take upstream's defaults: stride 1, padding 0, dilations 1,
    no reversal (`window_*` accessors below return the values in effect).
    """

    name = "stablehlo.convolution"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase[I64])
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase[I64])
    rhs_dilation = opt_prop_def(DenseArrayBase[I64])
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr[I64])
    batch_group_count = prop_def(IntegerAttr[I64])
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @property
    def spatial_rank(self) -> int:
        return len(self.dimension_numbers.input_spatial_dimensions)

    @property
    def strides(self) -> tuple[int, ...]:
        return array_values(self.window_strides, 1, self.spatial_rank)

    @property
    def padding_values(self) -> list[tuple[int, int]]:
        return padding_pairs(self.padding, self.spatial_rank)

    @property
    def lhs_dilation_values(self) -> tuple[int, ...]:
        return array_values(self.lhs_dilation, 1, self.spatial_rank)

    @property
    def rhs_dilation_values(self) -> tuple[int, ...]:
        return array_values(self.rhs_dilation, 1, self.spatial_rank)

    @property
    def feature_groups(self) -> int:
        return self.feature_group_count.value.data

    @property
    def batch_groups(self) -> int:
        return self.batch_group_count.value.data

    @classmethod
    def parse(cls, parser: Parser) -> ConvolutionOp:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"dimension_numbers": parse_conv_dimensions(parser)}
        parser.parse_punctuation(",")
        parser.parse_keyword("window")
        parser.parse_punctuation("=")
        props |= _parse_window(parser)
        more_props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=dict(sorted((props | more_props).items())),
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f") dim_numbers = {self.dimension_numbers.text()}, window = {{")
        fields = []
        for key, prop in _WINDOW_FIELDS.items():
            value = self.properties.get(prop)
            if isinstance(value, DenseIntOrFPElementsAttr):
                pairs = padding_pairs(value, self.spatial_rank)
                fields.append(f"{key} = [{', '.join(int_list(p) for p in pairs)}]")
            elif isinstance(value, DenseArrayBase) and prop == "window_reversal":
                flags = ", ".join("true" if v else "false" for v in value.get_values())
                fields.append(f"{key} = [{flags}]")
            elif isinstance(value, DenseArrayBase):
                fields.append(f"{key} = {int_list(value.get_values())}")
        printer.print_string(", ".join(fields) + "}")
        shown = {k: v for k, v in self.properties.items()
                 if k != "dimension_numbers" and k not in _WINDOW_FIELDS.values()}
        printer.print_op_attributes(dict(sorted(shown.items())) | dict(self.attributes))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        lhs_shape, rhs_shape = shape(self.lhs.type), shape(self.rhs.type)
        rank = len(lhs_shape)
        if len(rhs_shape) != rank:
            fail(self, f"lhs and rhs must have the same rank, got {rank} and {len(rhs_shape)}")
        nums = self.dimension_numbers
        for what, layout in (("input", nums.lhs), ("kernel", nums.rhs), ("output", nums.out)):
            if 2 + len(layout.spatial) != rank:
                fail(self, f"dim_numbers give {what} rank {2 + len(layout.spatial)}, the "
                           f"operands have rank {rank}")
        spatial = rank - 2
        check_sizes(self, "window_strides", self.strides, spatial, "spatial rank")
        check_sizes(self, "lhs_dilation", self.lhs_dilation_values, spatial, "spatial rank")
        check_sizes(self, "rhs_dilation", self.rhs_dilation_values, spatial, "spatial rank")
        check_padding(self, self.padding, spatial)
        if self.window_reversal is not None:
            if self.window_reversal.elt_type != i1:
                fail(self, f"window_reversal must be an array<i1>, got {self.window_reversal}")
            if len(self.window_reversal) != spatial:
                fail(self, f"window_reversal must have {spatial} entries (spatial rank), got "
                           f"{len(self.window_reversal)}")
        groups, batch_groups = self.feature_groups, self.batch_groups
        if groups < 1 or batch_groups < 1:
            fail(self, f"feature_group_count and batch_group_count must be positive, got "
                       f"{groups} and {batch_groups}")
        if groups > 1 and batch_groups > 1:
            fail(self, f"feature_group_count ({groups}) or batch_group_count ({batch_groups}) "
                       f"must be 1")
        batch, features = lhs_shape[nums.lhs.first], lhs_shape[nums.lhs.second]
        in_features, out_features = rhs_shape[nums.rhs.first], rhs_shape[nums.rhs.second]
        for what, size, count, name in (
            ("input batch", batch, batch_groups, "batch_group_count"),
            ("input feature", features, groups, "feature_group_count"),
            ("kernel output feature", out_features, batch_groups, "batch_group_count"),
            ("kernel output feature", out_features, groups, "feature_group_count"),
        ):
            if size >= 0 and size % count:
                fail(self, f"{what} dimension ({size}) must be divisible by {name} ({count})")
        if features >= 0 and in_features >= 0 and in_features * groups != features:
            fail(self, f"kernel input feature dimension ({in_features}) must be the input "
                       f"feature dimension ({features}) / feature_group_count ({groups})")
        if element_type(self.lhs.type) != element_type(self.rhs.type) or element_type(
            self.lhs.type
        ) != element_type(self.result.type):
            fail(self, f"lhs, rhs and result must have one element type, got "
                       f"{element_type(self.lhs.type)}, {element_type(self.rhs.type)} and "
                       f"{element_type(self.result.type)}")
        if self.precision_config is not None and len(self.precision_config.data) not in (0, 2):
            fail(self, f"precision_config must have 0 or 2 entries, got "
                       f"{len(self.precision_config.data)}")
        expected = self.expected_result_shape()
        if not shapes_match(expected, shape(self.result.type)):
            fail(self, f"result shape must be {expected}, got {list(shape(self.result.type))}")

    def expected_result_shape(self) -> list[int]:
        """Spec (C25): batch / batch_group_count, the kernel's output features, and the
        number of windows along each spatial dim (-1 where an operand dim is dynamic)."""
        nums = self.dimension_numbers
        lhs_shape, rhs_shape = shape(self.lhs.type), shape(self.rhs.type)
        out = [0] * len(lhs_shape)
        batch = lhs_shape[nums.lhs.first]
        out[nums.out.first] = -1 if batch < 0 else batch // self.batch_groups
        out[nums.out.second] = rhs_shape[nums.rhs.second]
        for k, (dim, window, stride, pad, lhs_dil, rhs_dil) in enumerate(zip(
            nums.lhs.spatial, nums.rhs.spatial, self.strides, self.padding_values,
            self.lhs_dilation_values, self.rhs_dilation_values, strict=True,
        )):
            size = rhs_shape[window]
            out[nums.out.spatial[k]] = -1 if size < 0 else num_windows(
                lhs_shape[dim], size, stride, pad, lhs_dil, rhs_dil
            )
        return out
