"""`stablehlo.fft`, which JAX emits for `jnp.fft` (Fourier layers, long convolutions)."""

from __future__ import annotations

from xdsl.dialects.builtin import I64, ComplexType, DenseArrayBase, TensorType
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xshard.dialects.stablehlo.attributes import FftType, FftTypeAttr
from xshard.dialects.stablehlo.checks import element_type, fail, shape
from xshard.dialects.stablehlo.syntax import (
    int_list,
    parse_attr_dict,
    parse_function_type,
    parse_i64_array,
    parse_keyword_equal,
    print_attr_dict,
    print_functional_type,
    resolve,
)


@irdl_op_definition
class FftOp(IRDLOperation):
    """`%r = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<4x16xf32>) ->
    tensor<4x9xcomplex<f32>>`: the transform over the trailing `fft_length` dims, the
    others a batch. A real transform (RFFT) keeps `n // 2 + 1` of the last dim's `n`
    frequencies, and its inverse (IRFFT) makes `n` reals of them.
    https://openxla.org/stablehlo/spec#fft"""

    name = "stablehlo.fft"

    operand = operand_def(TensorType)
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> FftOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parse_keyword_equal(parser, "type")
        kind = FftTypeAttr(parser.parse_str_enum(FftType))
        parser.parse_punctuation(",")
        parse_keyword_equal(parser, "length")
        length = parse_i64_array(parser)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, [operand], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={"fft_type": kind, "fft_length": length} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", type = {self.fft_type.data.value}")
        printer.print_string(f", length = {int_list(self.fft_length.get_values())}")
        print_attr_dict(printer, self, ("fft_type", "fft_length"))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        length = list(self.fft_length.get_values())
        kind, n = self.fft_type.data, len(length)
        source, made = shape(self.operand.type), shape(self.result.type)
        if not 1 <= n <= min(3, len(source)):
            fail(self, f"fft_length must name 1 to 3 of the operand's {len(source)} dims, "
                       f"got {int_list(length)}")
        if len(made) != len(source) or made[:-n] != source[:-n]:
            fail(self, f"result batch dims must be the operand's, got {self.operand.type} -> "
                       f"{self.result.type}")
        for what, t, real in (("operand", self.operand.type, kind == FftType.RFFT),
                              ("result", self.result.type, kind == FftType.IRFFT)):
            if isinstance(element_type(t), ComplexType) == real:
                fail(self, f"{kind.value} wants a {'real' if real else 'complex'} {what}, "
                           f"got {t}")
        kept = [*length[:-1], length[-1] // 2 + 1]  # a real transform's frequencies
        spectrum, signal = (made, source) if kind != FftType.IRFFT else (source, made)
        want = length if kind in (FftType.FFT, FftType.IFFT) else kept
        if list(signal[-n:]) != length or list(spectrum[-n:]) != want:
            fail(self, f"{kind.value} of length {int_list(length)} does not take "
                       f"{self.operand.type} to {self.result.type}")
