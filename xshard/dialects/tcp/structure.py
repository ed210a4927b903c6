"""Groups and custom ops: regions that hold other TCP ops."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    StringAttr,
)
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    lazy_traits_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminates a group; yields its results."""

    name = "tcp.yield"

    ins = var_operand_def()

    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(GroupOp, IsolatedGroupOp)))
    assembly_format = "$ins attr-dict `:` type($ins)"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


def _verify_group(op: GroupOp | IsolatedGroupOp) -> None:
    yield_op = op.body.block.last_op
    assert isinstance(yield_op, YieldOp)  # SingleBlockImplicitTerminator checked it
    if len(yield_op.ins) != len(op.outs):
        raise VerifyException(
            f"'{op.name}' op failed to verify that the number of yielded values is same as "
            "the number of results"
        )
    for i, (value, result) in enumerate(zip(yield_op.ins, op.outs, strict=True)):
        if value.type != result.type:
            raise VerifyException(
                f"'{op.name}' op failed to verify that the type of operand #{i} of "
                "terminator matches the corresponding result type"
            )


@irdl_op_definition
class GroupOp(IRDLOperation):
    """Groups ops (a fusion decision) in a region that may use values from outside."""

    name = "tcp.group"

    outs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp))
    assembly_format = "attr-dict-with-keyword $body `:` type($outs)"

    def verify_(self) -> None:
        _verify_group(self)


@irdl_op_definition
class IsolatedGroupOp(IRDLOperation):
    """Like `tcp.group`, but isolated from above: outside values come in as `ins`."""

    name = "tcp.isolated_group"

    ins = var_operand_def()
    outs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), IsolatedFromAbove())
    assembly_format = "$ins attr-dict-with-keyword $body `:` type($ins) `->` type($outs)"

    def verify_(self) -> None:
        arg_types = [a.type for a in self.body.block.args]
        in_types = [v.type for v in self.ins]
        if arg_types != in_types:
            raise VerifyException(
                f"'{self.name}' op block argument types ({', '.join(map(str, arg_types))}) "
                f"must match the input types ({', '.join(map(str, in_types))})"
            )
        _verify_group(self)


@irdl_op_definition
class CustomOp(IRDLOperation):
    """An opaque op known by name (`op_name`); extra attributes are its parameters."""

    name = "tcp.custom_op"

    inputs = var_operand_def()
    op_name = prop_def(StringAttr)
    outputs = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $op_name `)` $inputs attr-dict `:` type($inputs) `->` type($outputs)"
