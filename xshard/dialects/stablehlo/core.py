"""StableHLO ops outside the other groups: constant, iota, partition_id, replica_id,
rng_bit_generator, custom_call and return."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    I32,
    I64,
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FlatSymbolRefAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, IsTerminator, Pure, ReturnLike

from xshard.dialects.parsing import parse_signed_integer
from xshard.dialects.stablehlo.attributes import RngAlgorithm, RngAlgorithmAttr
from xshard.dialects.stablehlo.checks import fail, shape
from xshard.dialects.stablehlo.syntax import (
    parse_attr_dict,
    parse_function_type,
    parse_keyword_equal,
    print_attr_dict,
    print_functional_type,
    resolve,
    split_attr_dict,
)


@irdl_op_definition
class ConstantOp(IRDLOperation, HasFolderInterface):
    """`%c = stablehlo.constant dense<1.0> : tensor<f32>`.

    https://openxla.org/stablehlo/spec#constant
    """

    name = "stablehlo.constant"

    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(
        self, value: DenseIntOrFPElementsAttr, attributes: Mapping[str, Attribute] | None = None
    ):
        super().__init__(
            result_types=[value.type], properties={"value": value}, attributes=attributes
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        props, attrs = parse_attr_dict(parser, cls)
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(f"expected a dense elements attribute, got {value}", pos, parser.pos)
        return cls.create(
            result_types=[value.type], properties=props | {"value": value}, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self, elided=("value",))
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def fold(self) -> Sequence[SSAValue | Attribute]:
        return (self.value,)

    def verify_(self) -> None:
        if self.value.type != self.output.type:
            fail(self, f"value type {self.value.type} does not match result type "
                       f"{self.output.type}")


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`%i = stablehlo.iota dim = 0 : tensor<4x8xi32>`: the index along `iota_dimension`.

    https://openxla.org/stablehlo/spec#iota
    """

    name = "stablehlo.iota"

    iota_dimension = prop_def(IntegerAttr[I64])
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        iota_dimension: int,
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            result_types=[result_type],
            properties={"iota_dimension": IntegerAttr(iota_dimension, i64)},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> IotaOp:
        parse_keyword_equal(parser, "dim")
        dim = parse_signed_integer(parser, 64)
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        return cls.create(
            result_types=[parser.parse_type()],
            properties={"iota_dimension": IntegerAttr(dim, i64)} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dim = {self.iota_dimension.value.data}")
        print_attr_dict(printer, self, elided=("iota_dimension",))
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)

    def verify_(self) -> None:
        rank = len(shape(self.output.type))
        dim = self.iota_dimension.value.data
        if not 0 <= dim < rank:
            fail(self, f"iota_dimension {dim} is out of range [0, {rank})")


_UI32_SCALAR = TensorType(IntegerType(32, Signedness.UNSIGNED), [])


class _ProcessIdOp(IRDLOperation):
    """`%id = stablehlo.<op> : tensor<ui32>`."""

    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(result_types=[_UI32_SCALAR], attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> _ProcessIdOp:
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)

    def verify_(self) -> None:
        if self.output.type != _UI32_SCALAR:
            fail(self, f"result must be tensor<ui32>, got {self.output.type}")


@irdl_op_definition
class PartitionIdOp(_ProcessIdOp):
    """This process's partition id. https://openxla.org/stablehlo/spec#partition_id

    Partitioned modules for XLA want `{mhlo.sharding = "{manual}"}` on it
    (docs/jax-bridge.md); it is kept as an ordinary attribute.
    """

    name = "stablehlo.partition_id"


@irdl_op_definition
class ReplicaIdOp(_ProcessIdOp):
    """This process's replica id. https://openxla.org/stablehlo/spec#replica_id"""

    name = "stablehlo.replica_id"


_CUSTOM_CALL_DEFAULTS: dict[str, Attribute] = {
    "api_version": IntegerAttr(1, i32),
    "called_computations": ArrayAttr([]),
    "has_side_effect": IntegerAttr.from_bool(False),
}


@irdl_op_definition
class RngBitGeneratorOp(IRDLOperation):
    """`%state, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT :
    (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)`: random bits of the
    `output` type from `initial_state`, and the state after them (`jax.random` under
    the `rbg` and `unsafe_rbg` implementations, MaxText's).
    https://openxla.org/stablehlo/spec#rng_bit_generator"""

    name = "stablehlo.rng_bit_generator"

    initial_state = operand_def(TensorType)
    rng_algorithm = prop_def(RngAlgorithmAttr)
    output_state = result_def(TensorType)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        initial_state: SSAValue | Operation,
        output_type: Attribute,
        algorithm: RngAlgorithm = RngAlgorithm.DEFAULT,
    ):
        state = SSAValue.get(initial_state)
        super().__init__(
            operands=[state],
            result_types=[state.type, output_type],
            properties={"rng_algorithm": RngAlgorithmAttr(algorithm)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> RngBitGeneratorOp:
        state = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parse_keyword_equal(parser, "algorithm")
        algorithm = RngAlgorithmAttr(parser.parse_str_enum(RngAlgorithm))
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, [state], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={"rng_algorithm": algorithm} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.initial_state)
        printer.print_string(f", algorithm = {self.rng_algorithm.data.value}")
        print_attr_dict(printer, self, ("rng_algorithm",))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        if self.output_state.type != self.initial_state.type:
            fail(self, f"output_state must have the type of initial_state, "
                       f"{self.initial_state.type}, got {self.output_state.type}")


@irdl_op_definition
class CustomCallOp(IRDLOperation):
    """`%r = stablehlo.custom_call @target(%x) {backend_config = ""} : (...) -> ...`.

    An opaque call XLA resolves by name (e.g. `@Sharding`). Properties left at their
    upstream defaults are not printed in the pretty form.
    https://openxla.org/stablehlo/spec#custom_call
    """

    name = "stablehlo.custom_call"

    inputs = var_operand_def()
    call_target_name = prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)
    backend_config = opt_prop_def(StringAttr | BytesAttr | DictionaryAttr)
    """A string; bytes that are not UTF-8 (JAX's `@InspectSharding` passes a pointer); or,
    for version 4 calls, a dictionary."""
    api_version = opt_prop_def(IntegerAttr[I32])
    called_computations = opt_prop_def(ArrayAttr[FlatSymbolRefAttr])
    operand_layouts = opt_prop_def(ArrayAttr)
    result_layouts = opt_prop_def(ArrayAttr)
    output_operand_aliases = opt_prop_def(ArrayAttr)
    results_ = var_result_def()

    def __init__(
        self,
        call_target_name: str,
        inputs: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        *,
        has_side_effect: bool = False,
        backend_config: str | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        props: dict[str, Attribute] = {"call_target_name": StringAttr(call_target_name)}
        if has_side_effect:
            props["has_side_effect"] = IntegerAttr.from_bool(True)
        if backend_config is not None:
            props["backend_config"] = StringAttr(backend_config)
        super().__init__(
            operands=[inputs], result_types=[result_types], properties=props,
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> CustomCallOp:
        target = parser.parse_symbol_name()
        inputs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, inputs, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={"call_target_name": target} | props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(SymbolRefAttr(self.call_target_name))
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(")")
        print_attr_dict(
            printer, self, elided=("call_target_name",), defaults=_CUSTOM_CALL_DEFAULTS
        )
        printer.print_string(" : ")
        print_functional_type(printer, self)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stablehlo.return %x : tensor<f32>`: ends the body of reduce and of the reducing
    collectives. https://openxla.org/stablehlo/spec#return"""

    name = "stablehlo.return"

    results_ = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    def __init__(self, values: Sequence[SSAValue | Operation]):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        values = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        props, attrs = parse_attr_dict(parser, cls)
        types: list[Attribute] = []
        if values:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(
            operands=resolve(parser, values, types), properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        if self.results_:
            printer.print_string(" ")
            printer.print_list(self.results_, printer.print_operand)
        print_attr_dict(printer, self)
        if self.results_:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.results_], printer.print_attribute)
