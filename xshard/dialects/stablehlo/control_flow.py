"""StableHLO ops that run regions or order computation: while, case, sort,
optimization_barrier.

`while` and `optimization_barrier` parse and print upstream's pretty forms; `case` and
`sort` have none upstream, so JAX prints them generically, as here:

    %r:2 = stablehlo.while(%i = %c0, %x = %arg0) : tensor<i32>, tensor<4xf32>
    cond { ... stablehlo.return %p : tensor<i1> } do { ... stablehlo.return %i1, %x1 : ... }
    %s = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>): ... }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect

from xshard.dialects.stablehlo.checks import element_type, fail, is_bool, shape, shapes_match
from xshard.dialects.stablehlo.core import ReturnOp
from xshard.dialects.stablehlo.syntax import (
    parse_attr_dict,
    print_attr_dict,
    resolve,
    split_attr_dict,
)


def _returned_types(op: IRDLOperation, region: Region, what: str) -> list[Attribute]:
    """The types `region`'s `stablehlo.return` gives back."""
    block = region.blocks.first
    terminator = block.last_op if block is not None else None
    if not isinstance(terminator, ReturnOp):
        fail(op, f"{what} must end with stablehlo.return")
    return [v.type for v in terminator.operands]


def _types_text(types: Sequence[Attribute]) -> str:
    return ", ".join(str(t) for t in types)


@irdl_op_definition
class WhileOp(IRDLOperation):
    """Run `body` on the loop state while `cond` says so; the results are the final state.

    `%r = stablehlo.while(%it = %x) : tensor<i32> cond { ... } do { ... }`: `%it` names
    the block argument both regions get. https://openxla.org/stablehlo/spec#while
    """

    name = "stablehlo.while"

    operand = var_operand_def()
    results_ = var_result_def()
    cond = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        names: list[Parser.UnresolvedArgument] = []
        operands: list[UnresolvedOperand] = []
        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")") is None:
            while True:
                names.append(parser.parse_argument(expect_type=False))
                parser.parse_punctuation("=")
                operands.append(parser.parse_unresolved_operand())
                if parser.parse_optional_punctuation(")") is not None:
                    break
                parser.parse_punctuation(",")
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        values = resolve(parser, operands, types)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        props, others = split_attr_dict(cls, attrs.data if attrs is not None else {})
        regions = []
        for keyword in ("cond", "do"):
            parser.parse_keyword(keyword)
            regions.append(
                parser.parse_region([n.resolve(t) for n, t in zip(names, types, strict=True)])
            )
        return cls.create(
            operands=values, result_types=types, properties=props, attributes=others,
            regions=regions,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(
            zip(self.body.block.args, self.operand, strict=True),
            lambda pair: (
                printer.print_block_argument(pair[0], print_type=False),
                printer.print_string(" = "),
                printer.print_operand(pair[1]),
            ),
        )
        printer.print_string(")")
        if self.operand:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.operand], printer.print_attribute)
        printer.print_op_attributes({**self.properties, **self.attributes}, print_keyword=True)
        # Both regions' arguments are named once, in the header: give the cond block's
        # arguments the names just printed for the body's.
        names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
        for cond_arg, body_arg in zip(self.cond.block.args, self.body.block.args, strict=True):
            names[cond_arg] = names[body_arg]
        printer.print_string("\ncond ")
        printer.print_region(self.cond, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        state = [v.type for v in self.operand]
        for name, region in (("cond", self.cond), ("body", self.body)):
            args = [a.type for a in region.block.args]
            if args != state:
                fail(self, f"{name} must take the loop state ({_types_text(state)}), got "
                           f"({_types_text(args)})")
        cond = _returned_types(self, self.cond, "cond")
        if len(cond) != 1 or not isinstance(cond[0], TensorType) or shape(cond[0]) or not is_bool(
            element_type(cond[0])
        ):
            fail(self, f"cond must return one tensor<i1>, got ({_types_text(cond)})")
        body = _returned_types(self, self.body, "body")
        if body != state:
            fail(self, f"body must return the loop state ({_types_text(state)}), got "
                       f"({_types_text(body)})")
        if [r.type for r in self.results_] != state:
            fail(self, f"result types must be the operand types ({_types_text(state)})")



@irdl_op_definition
class CaseOp(IRDLOperation):
    """Run the branch `index` selects (the last one when `index` is out of range); its
    results are the op's. Branches take no arguments: they read values from above.
    https://openxla.org/stablehlo/spec#case
    """

    name = "stablehlo.case"

    index = operand_def(TensorType)
    results_ = var_result_def()
    branches = var_region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        t = self.index.type
        elem = element_type(t)
        if shape(t) or not isinstance(elem, IntegerType) or elem.width.data != 32:
            fail(self, f"index must be a rank-0 tensor of 32-bit integers, got {t}")
        if not self.branches:
            fail(self, "expects at least one branch")
        results = [r.type for r in self.results_]
        for i, branch in enumerate(self.branches):
            if branch.block.args:
                fail(self, f"branch {i} must take no arguments, got {len(branch.block.args)}")
            returned = _returned_types(self, branch, f"branch {i}")
            if returned != results:
                fail(self, f"branch {i} returns ({_types_text(returned)}), but the results are "
                           f"({_types_text(results)})")


@irdl_op_definition
class SortOp(IRDLOperation):
    """Sort the 1-d slices of `inputs` along `dimension` together, in the order
    `comparator` (a strict "less than" on each input's pair of rank-0 elements) defines.
    https://openxla.org/stablehlo/spec#sort
    """

    name = "stablehlo.sort"

    inputs = var_operand_def(TensorType)
    dimension = opt_prop_def(IntegerAttr[I64])
    is_stable = opt_prop_def(BoolAttr)
    results_ = var_result_def(TensorType)
    comparator = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def sort_dimension(self) -> int:
        """`dimension` in [0, rank): upstream's default is -1, counted from the back."""
        dim = -1 if self.dimension is None else self.dimension.value.data
        return dim + len(shape(self.inputs[0].type)) if dim < 0 else dim

    def verify_(self) -> None:
        if not self.inputs:
            fail(self, "expects at least one input")
        if [v.type for v in self.inputs] != [r.type for r in self.results_]:
            fail(self, "result types must be the input types")
        first = shape(self.inputs[0].type)
        for i, v in enumerate(self.inputs):
            if not shapes_match(shape(v.type), first):
                fail(self, f"all inputs must have the same shape, input {i} is {v.type}")
        rank = len(first)
        dim = -1 if self.dimension is None else self.dimension.value.data
        if not -rank <= dim < rank:
            fail(self, f"dimension {dim} is out of range [{-rank}, {rank})")
        block = self.comparator.block
        expected = [TensorType(element_type(v.type), []) for v in self.inputs for _ in (0, 1)]
        args = [a.type for a in block.args]
        if args != expected:
            fail(self, f"comparator must take ({_types_text(expected)}), got "
                       f"({_types_text(args)})")
        returned = _returned_types(self, self.comparator, "comparator")
        if (
            len(returned) != 1
            or not isinstance(returned[0], TensorType)
            or shape(returned[0])
            or not is_bool(element_type(returned[0]))
        ):
            fail(self, f"comparator must return one tensor<i1>, got ({_types_text(returned)})")


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """The identity on its operands, which also keeps computation from moving across it
    (JAX's rematerialization emits it). https://openxla.org/stablehlo/spec#optimization_barrier

    `%r:2 = stablehlo.optimization_barrier %a, %b : tensor<4xf32>, tensor<i32>`.
    """

    name = "stablehlo.optimization_barrier"

    operand = var_operand_def()
    result = var_result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> OptimizationBarrierOp:
        props, attrs = parse_attr_dict(parser, cls)
        operands = []
        types: list[Attribute] = []
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
        else:
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(
            operands=resolve(parser, operands, types), result_types=types, properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        if not self.operand:
            printer.print_string("()")
            return
        printer.print_string(" ")
        printer.print_list(self.operand, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operand], printer.print_attribute)

    def verify_(self) -> None:
        if [v.type for v in self.operand] != [r.type for r in self.result]:
            fail(self, f"result types ({_types_text([r.type for r in self.result])}) must be "
                       f"the operand types ({_types_text([v.type for v in self.operand])})")
