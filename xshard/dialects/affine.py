"""xDSL's `affine` dialect plus `affine.delinearize_index`, which xDSL lacks and which
upstream's `test-grid-process-multi-index-op-lowering` emits.

`affine.delinearize_index %i into (%b0, 4) : index, index` splits a linear index
into coordinates on a row-major basis (SSA values or constants), as MLIR's op.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.affine import Affine
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i64
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

_DYNAMIC = -(2**63)


@irdl_op_definition
class DelinearizeIndexOp(IRDLOperation):
    name = "affine.delinearize_index"

    linear_index = operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase)
    multi_index = var_result_def(IndexType)

    def __init__(self, linear_index: SSAValue, basis: Sequence[SSAValue | int]):
        static = [_DYNAMIC if isinstance(b, SSAValue) else b for b in basis]
        super().__init__(
            operands=[linear_index, [b for b in basis if isinstance(b, SSAValue)]],
            properties={"static_basis": DenseArrayBase.from_list(i64, static)},
            result_types=[[IndexType()] * len(basis)],
        )

    def verify_(self) -> None:
        static = self.static_basis.get_values()
        if sum(b == _DYNAMIC for b in static) != len(self.dynamic_basis):
            raise VerifyException("'affine.delinearize_index' op mismatched basis operands")
        if len(self.multi_index) not in (len(static), len(static) + 1):
            raise VerifyException(
                "'affine.delinearize_index' op should return an index for each basis element"
            )

    @classmethod
    def parse(cls, parser: Parser) -> DelinearizeIndexOp:
        linear = parser.parse_operand()
        parser.parse_keyword("into")

        def element() -> SSAValue | int:
            value = parser.parse_optional_operand()
            return value if value is not None else parser.parse_integer()

        basis = parser.parse_comma_separated_list(parser.Delimiter.PAREN, element)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls(linear, basis)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.linear_index)
        printer.print_string(" into (")
        dynamic = iter(self.dynamic_basis)
        items = [next(dynamic) if b == _DYNAMIC else b for b in self.static_basis.get_values()]
        printer.print_list(
            items, lambda b: printer.print_operand(b) if isinstance(b, SSAValue)
            else printer.print_string(str(b))
        )
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.multi_index.types, printer.print_attribute)


AffineWithDelinearize = Dialect(
    "affine", [*Affine.operations, DelinearizeIndexOp], [*Affine.attributes]
)
