"""Contractions and reductions: dot_general, reduce, and the reducer bodies they share
with the reducing collectives (all_reduce, reduce_scatter)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import I64, ArrayAttr, DenseArrayBase, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Commutative, Pure, RecursiveMemoryEffect

from xshard.dialects.stablehlo.attributes import DotAttr, Precision, PrecisionAttr
from xshard.dialects.stablehlo.checks import (
    check_dims_in_range,
    dim_matches,
    element_type,
    fail,
    is_unique,
    shape,
    shapes_match,
)
from xshard.dialects.stablehlo.core import ReturnOp
from xshard.dialects.stablehlo.elementwise import (
    AddOp,
    AndOp,
    BinaryElementwiseOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    OrOp,
    XorOp,
)
from xshard.dialects.stablehlo.syntax import (
    int_list,
    parse_attr_dict,
    parse_function_type,
    parse_int_list,
    parse_keyword_equal,
    print_attr_dict,
    print_functional_type,
    resolve,
)
from xshard.sharding.reduction import ReductionKind

# ---------------------------------------------------------------- reducer bodies

REDUCTION_KINDS: Mapping[type[BinaryElementwiseOp], ReductionKind] = {
    AddOp: ReductionKind.SUM,
    MultiplyOp: ReductionKind.PRODUCT,
    MaximumOp: ReductionKind.MAX,
    MinimumOp: ReductionKind.MIN,
    AndOp: ReductionKind.BITWISE_AND,
    OrOp: ReductionKind.BITWISE_OR,
    XorOp: ReductionKind.BITWISE_XOR,
}
"""The reduction each single-op reducer body computes."""


def reducer_region(
    body_op_class: type[BinaryElementwiseOp], element_types: Sequence[Attribute]
) -> Region:
    """A reducer body applying `body_op_class` to each (accumulator, element) pair.

    Block arguments follow StableHLO's order: the n left values, then the n right values,
    all rank-0 tensors.
    """
    scalar_types = [TensorType(t, []) for t in element_types]
    block = Block(arg_types=[*scalar_types, *scalar_types])
    n = len(scalar_types)
    combined = [body_op_class(block.args[i], block.args[n + i]) for i in range(n)]
    block.add_ops([*combined, ReturnOp(combined)])
    return Region(block)


def single_reducer(body: Region) -> type[BinaryElementwiseOp] | None:
    """The op class of a reducer body that is exactly `return op(lhs, rhs)` on rank-0
    tensors with a commutative StableHLO op; None for any other body.

    These are the bodies upstream prints in `reduce`'s compact `applies` form.
    """
    block = body.blocks.first
    if block is None or len(block.args) != 2 or len(block.ops) != 2:
        return None
    inner, ret = block.ops
    if not (
        isinstance(inner, BinaryElementwiseOp)
        and inner.has_trait(Commutative)
        and isinstance(ret, ReturnOp)
        and tuple(inner.operands) == tuple(block.args)
        and tuple(ret.operands) == tuple(inner.results)
        and inner.lhs.type == inner.rhs.type == inner.result.type
        and not shape(inner.result.type)
    ):
        return None
    return type(inner)


def reduction_kind(op: Operation) -> ReductionKind | None:
    """What a reduce / all_reduce / reduce_scatter computes, if its body is a single
    known op; None for other bodies."""
    if not op.regions:
        return None
    body_class = single_reducer(op.regions[0])
    return REDUCTION_KINDS.get(body_class) if body_class else None


def verify_reducer(op: Operation, body: Region, element_types: Sequence[Attribute]) -> None:
    """Spec: the body has type (tensor<E0>.., tensor<E0>..) -> (tensor<E0>..), one Ei per
    input, and inputs of element type Ei."""
    block = body.blocks.first
    n = len(element_types)
    if block is None:
        fail(op, "expects a non-empty reducer body")
    arg_types = [a.type for a in block.args]
    if len(arg_types) != 2 * n:
        fail(op, f"reducer body must take {2 * n} arguments, got {len(arg_types)}")
    for i, t in enumerate(arg_types):
        if not isinstance(t, TensorType) or t.get_shape():
            fail(op, f"reducer argument {i} must be a rank-0 tensor, got {t}")
    for i in range(n):
        if arg_types[i] != arg_types[n + i]:
            fail(op, f"reducer arguments {i} and {n + i} must have the same type, got "
                     f"{arg_types[i]} and {arg_types[n + i]}")
        if element_type(arg_types[i]) != element_types[i]:
            fail(op, f"reducer argument {i} has element type {element_type(arg_types[i])}, "
                     f"expected {element_types[i]}")
    terminator = block.last_op
    if not isinstance(terminator, ReturnOp):
        fail(op, "reducer body must end with stablehlo.return")
    returned = [v.type for v in terminator.operands]
    if returned != arg_types[:n]:
        fail(op, f"reducer must return ({', '.join(map(str, arg_types[:n]))}), got "
                 f"({', '.join(map(str, returned))})")


# ---------------------------------------------------------------- dot_general


def _parse_lhs_rhs(parser: Parser) -> tuple[list[int], list[int]]:
    lhs = parse_int_list(parser)
    parser.parse_keyword("x")
    return lhs, parse_int_list(parser)


@irdl_op_definition
class DotGeneralOp(IRDLOperation):
    """`%r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT] : (...) -> ...`.

    The result's dimensions are the batching dimensions, then the free lhs dimensions, then
    the free rhs dimensions, each in order. https://openxla.org/stablehlo/spec#dot_general
    """

    name = "stablehlo.dot_general"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    dot_dimension_numbers = prop_def(DotAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        lhs_batching_dims: Sequence[int],
        rhs_batching_dims: Sequence[int],
        lhs_contracting_dims: Sequence[int],
        rhs_contracting_dims: Sequence[int],
        result_type: Attribute | None = None,
        precision_config: Sequence[Precision | str] | None = (Precision.DEFAULT,) * 2,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
        numbers = DotAttr(lhs_batching_dims, rhs_batching_dims, lhs_contracting_dims,
                          rhs_contracting_dims)
        if result_type is None:
            assert isinstance(lhs.type, TensorType)
            result_type = TensorType(
                lhs.type.element_type, _dot_result_shape(numbers, shape(lhs.type), shape(rhs.type))
            )
        props: dict[str, Attribute] = {"dot_dimension_numbers": numbers}
        if precision_config:
            props["precision_config"] = ArrayAttr(
                PrecisionAttr(Precision(p)) for p in precision_config
            )
        super().__init__(
            operands=[lhs, rhs], result_types=[result_type], properties=props,
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> DotGeneralOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        batching: tuple[list[int], list[int]] = ([], [])
        if parser.parse_optional_keyword("batching_dims"):
            parser.parse_punctuation("=")
            batching = _parse_lhs_rhs(parser)
            parser.parse_punctuation(",")
        parse_keyword_equal(parser, "contracting_dims")
        contracting = _parse_lhs_rhs(parser)
        props: dict[str, Attribute] = {
            "dot_dimension_numbers": DotAttr(batching[0], batching[1], *contracting)
        }
        if parser.parse_optional_punctuation(","):
            parse_keyword_equal(parser, "precision")
            precisions = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: PrecisionAttr(parser.parse_str_enum(Precision))
            )
            props["precision_config"] = ArrayAttr(precisions)
        more_props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        return cls.create(
            operands=resolve(parser, [lhs, rhs], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props | more_props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        numbers = self.dot_dimension_numbers
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if numbers.lhs_batching or numbers.rhs_batching:
            printer.print_string(f", batching_dims = {int_list(numbers.lhs_batching)} x "
                                 f"{int_list(numbers.rhs_batching)}")
        printer.print_string(f", contracting_dims = {int_list(numbers.lhs_contracting)} x "
                             f"{int_list(numbers.rhs_contracting)}")
        if self.precision_config is not None and self.precision_config.data:
            names = ", ".join(p.data.value for p in self.precision_config.data)
            printer.print_string(f", precision = [{names}]")
        print_attr_dict(printer, self, elided=("dot_dimension_numbers", "precision_config"))
        printer.print_string(" : ")
        print_functional_type(printer, self)

    def verify_(self) -> None:
        numbers = self.dot_dimension_numbers
        lhs_shape, rhs_shape = shape(self.lhs.type), shape(self.rhs.type)
        for side, batching, contracting, side_shape in (
            ("lhs", numbers.lhs_batching, numbers.lhs_contracting, lhs_shape),
            ("rhs", numbers.rhs_batching, numbers.rhs_contracting, rhs_shape),
        ):
            check_dims_in_range(self, f"{side}_batching_dimensions", batching, len(side_shape))
            check_dims_in_range(
                self, f"{side}_contracting_dimensions", contracting, len(side_shape)
            )
            if not is_unique([*batching, *contracting]):
                fail(self, f"{side} batching and contracting dimensions must be disjoint, got "
                           f"{list(batching)} and {list(contracting)}")
        for kind, lhs_dims, rhs_dims in (
            ("batching", numbers.lhs_batching, numbers.rhs_batching),
            ("contracting", numbers.lhs_contracting, numbers.rhs_contracting),
        ):
            if len(lhs_dims) != len(rhs_dims):
                fail(self, f"lhs and rhs must have the same number of {kind} dimensions, got "
                           f"{list(lhs_dims)} and {list(rhs_dims)}")
            for a, b in zip(lhs_dims, rhs_dims, strict=True):
                if not dim_matches(lhs_shape[a], rhs_shape[b]):
                    fail(self, f"{kind} dimension sizes differ: lhs dimension {a} has "
                               f"{lhs_shape[a]}, rhs dimension {b} has {rhs_shape[b]}")
        if self.precision_config is not None and len(self.precision_config.data) not in (0, 2):
            fail(self, f"precision_config must have 0 or 2 entries, got "
                       f"{len(self.precision_config.data)}")
        expected = _dot_result_shape(numbers, lhs_shape, rhs_shape)
        if not shapes_match(expected, shape(self.result.type)):
            fail(self, f"result shape must be {expected}, got {list(shape(self.result.type))}")


def _dot_result_shape(
    numbers: DotAttr, lhs_shape: Sequence[int], rhs_shape: Sequence[int]
) -> list[int]:
    lhs_used = {*numbers.lhs_batching, *numbers.lhs_contracting}
    rhs_used = {*numbers.rhs_batching, *numbers.rhs_contracting}
    return [
        *(lhs_shape[d] for d in numbers.lhs_batching),
        *(size for d, size in enumerate(lhs_shape) if d not in lhs_used),
        *(size for d, size in enumerate(rhs_shape) if d not in rhs_used),
    ]


# ---------------------------------------------------------------- reduce


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Reduce `inputs` along `dimensions` with the `body` reducer, starting from `init_values`.

    Pretty forms (both upstream's):
    `stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (...) -> ...`
    when the body is a single commutative op, otherwise
    `stablehlo.reduce(%x init: %c), ... across dimensions = [1] : (...) -> (...)
     reducer(%a: tensor<f32>, %b: tensor<f32>) ... { ... }`.
    https://openxla.org/stablehlo/spec#reduce
    """

    name = "stablehlo.reduce"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase[I64])
    results_ = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())
    irdl_options = (SameVariadicOperandSize(),)

    @classmethod
    def create(  # pyright: ignore[reportIncompatibleMethodOverride]
        cls,
        inputs: Sequence[SSAValue | Operation] | None = None,
        init_values: Sequence[SSAValue | Operation] | None = None,
        dimensions: Sequence[int] | None = None,
        body_op_class: type[BinaryElementwiseOp] | None = None,
        **operation_fields: object,
    ) -> ReduceOp:
        """`ReduceOp.create(inputs, init_values, dimensions, AddOp)` builds a reduce whose
        body applies `AddOp` to each input's pair; result types are inferred.

        Called with keywords only (`operands=..., result_types=...`), this is
        `Operation.create`, which xDSL's parser, cloner and rewriter use.
        """
        if inputs is None:
            return super().create(**operation_fields)  # pyright: ignore[reportArgumentType]
        assert init_values is not None and dimensions is not None and body_op_class is not None
        input_values = [SSAValue.get(v) for v in inputs]
        init = [SSAValue.get(v) for v in init_values]
        reduced = set(dimensions)
        element_types = [element_type(v.type) for v in init]
        result_types = [
            TensorType(t, [s for d, s in enumerate(shape(v.type)) if d not in reduced])
            for v, t in zip(input_values, element_types, strict=True)
        ]
        return super().create(
            operands=[*input_values, *init],
            result_types=result_types,
            properties={"dimensions": DenseArrayBase.from_list(i64, list(dimensions))},
            regions=[reducer_region(body_op_class, element_types)],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        pairs: list[tuple[object, object]] = []
        while True:
            parser.parse_optional_punctuation(",")
            if not parser.parse_optional_punctuation("("):
                break
            value = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            init = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            pairs.append((value, init))
        if not pairs:
            parser.raise_error("expected `(%input init: %init)`")
        operands = [p[0] for p in pairs] + [p[1] for p in pairs]

        applies_pos = parser.pos
        body_class = None
        if parser.parse_optional_keyword("applies"):
            body_name = parser.parse_identifier()
            body_class = parser.ctx.get_optional_op(body_name)
            if body_class is None or not (
                issubclass(body_class, BinaryElementwiseOp)
                and body_class.has_trait(Commutative)
            ):
                parser.raise_error(
                    "expected the inner-op to be a commutative binary-op from stablehlo "
                    f"dialect, zero region, producing single result; got '{body_name}'",
                    applies_pos, parser.pos,
                )
        parser.parse_keyword("across")
        parse_keyword_equal(parser, "dimensions")
        dims = DenseArrayBase.from_list(i64, parse_int_list(parser))
        props, attrs = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        fn = parse_function_type(parser)
        values = resolve(parser, operands, fn.inputs.data)  # pyright: ignore[reportArgumentType]
        if body_class is not None:
            region = reducer_region(body_class, [element_type(fn.inputs.data[0])])
        else:
            parser.parse_keyword("reducer")
            lhs_args: list[Parser.Argument] = []
            rhs_args: list[Parser.Argument] = []
            while parser.parse_optional_punctuation("("):
                lhs_args.append(parser.parse_argument())
                parser.parse_punctuation(",")
                rhs_args.append(parser.parse_argument())
                parser.parse_punctuation(")")
            region = parser.parse_region([*lhs_args, *rhs_args])
        return super().create(
            operands=values,
            result_types=list(fn.outputs.data),
            properties={"dimensions": dims} | props,
            attributes=attrs,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_list(
            zip(self.inputs, self.init_values, strict=True),
            lambda pair: (
                printer.print_string("("),
                printer.print_operand(pair[0]),
                printer.print_string(" init: "),
                printer.print_operand(pair[1]),
                printer.print_string(")"),
            ),
        )
        body_class = single_reducer(self.body) if len(self.inputs) == 1 else None
        if body_class is not None:
            printer.print_string(f" applies {body_class.name}")
        printer.print_string(f" across dimensions = {int_list(self.dimensions.get_values())}")
        print_attr_dict(printer, self, elided=("dimensions",))
        printer.print_string(" : ")
        print_functional_type(printer, self)
        if body_class is not None:
            return
        block = self.body.block
        n = len(self.inputs)
        printer.print_string("\n reducer")
        for i in range(n):
            printer.print_string("(")
            printer.print_block_argument(block.args[i])
            printer.print_string(", ")
            printer.print_block_argument(block.args[n + i])
            printer.print_string(") ")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        n = len(self.inputs)
        if n == 0:
            fail(self, "expects at least one input")
        if len(self.results_) != n:
            fail(self, f"expects {n} results (one per input), got {len(self.results_)}")
        input_shape = shape(self.inputs[0].type)
        for i, value in enumerate(self.inputs):
            if not shapes_match(shape(value.type), input_shape):
                fail(self, f"all inputs must have the same shape, input {i} is {value.type}")
        dims = self.dimensions.get_values()
        check_dims_in_range(self, "dimensions", dims, len(input_shape))
        element_types = []
        for i, (value, init) in enumerate(zip(self.inputs, self.init_values, strict=True)):
            if shape(init.type):
                fail(self, f"init value {i} must be a rank-0 tensor, got {init.type}")
            if element_type(init.type) != element_type(value.type):
                fail(self, f"init value {i} has element type {element_type(init.type)}, "
                           f"input {i} has {element_type(value.type)}")
            element_types.append(element_type(value.type))
        verify_reducer(self, self.body, element_types)
        kept = [s for d, s in enumerate(input_shape) if d not in dims]
        for i, (result, elem) in enumerate(zip(self.results_, element_types, strict=True)):
            if not shapes_match(shape(result.type), kept) or element_type(result.type) != elem:
                fail(self, f"result {i} must be {TensorType(elem, kept)}, got {result.type}")
