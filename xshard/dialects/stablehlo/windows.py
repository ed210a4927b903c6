"""Windowed ops: reduce_window, select_and_scatter (the gradient of max pooling), and the
window arithmetic they share with convolution.

Both ops exist in generic form only, as upstream (no custom assembly format) and JAX
print them:
`"stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, ...}> ({...})`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, Region
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
from xdsl.traits import RecursiveMemoryEffect

from xshard.dialects.stablehlo.checks import element_type, fail, shape, shapes_match
from xshard.dialects.stablehlo.core import ReturnOp
from xshard.dialects.stablehlo.reduction import verify_reducer

# ---------------------------------------------------------------- window arithmetic


def array_values(attr: DenseArrayBase | None, default: int, rank: int) -> tuple[int, ...]:
    """An optional `array<i64: ...>` window property, or its upstream default."""
    return tuple(attr.get_values()) if attr is not None else (default,) * rank


def padding_pairs(attr: DenseIntOrFPElementsAttr | None, rank: int) -> list[tuple[int, int]]:
    """`(low, high)` per dim of a `dense<...> : tensor<Nx2xi64>` padding (zeros when absent)."""
    if attr is None:
        return [(0, 0)] * rank
    values = [int(v) for v in attr.get_values()]
    return [(values[2 * i], values[2 * i + 1]) for i in range(len(values) // 2)]


def padding_attr(pairs: Sequence[tuple[int, int]]) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(pairs), 2]), [v for pair in pairs for v in pair]
    )


def check_padding(op: Operation, attr: DenseIntOrFPElementsAttr | None, rank: int) -> None:
    """Spec: `shape(padding) = [rank, 2]`, integer entries."""
    if attr is None:
        return
    if not isinstance(attr.get_element_type(), IntegerType) or attr.get_shape() != (rank, 2):
        fail(op, f"padding must be a {rank}x2 integer tensor, got {attr.type}")


def check_sizes(op: Operation, name: str, values: Sequence[int], rank: int, what: str) -> None:
    """A window list has one positive entry per dim (`what` names the rank)."""
    if len(values) != rank:
        fail(op, f"{name} must have {rank} entries ({what}), got {len(values)}")
    if any(v < 1 for v in values):
        fail(op, f"{name} must be positive, got {list(values)}")


def dilated(size: int, dilation: int) -> int:
    return 0 if size == 0 else (size - 1) * dilation + 1


def num_windows(
    size: int, window: int, stride: int, pad: tuple[int, int], base_dilation: int = 1,
    window_dilation: int = 1,
) -> int:
    """How many windows fit along one dim (spec `num_windows`); -1 for a dynamic size."""
    if size < 0:
        return -1
    padded = pad[0] + dilated(size, base_dilation) + pad[1]
    reach = dilated(window, window_dilation)
    if padded <= 0 or reach > padded:
        return 0
    return (padded - reach) // stride + 1


def _check_same_shapes(op: Operation, name: str, values: Sequence[Attribute]) -> None:
    for i, t in enumerate(values):
        if not shapes_match(shape(t), shape(values[0])):
            fail(op, f"all {name} must have the same shape, {name} {i} is {t}")


# ---------------------------------------------------------------- reduce_window


@irdl_op_definition
class ReduceWindowOp(IRDLOperation):
    """Reduce each window of `inputs` with the `body` reducer, starting from `init_values`;
    padding (and base dilation holes) take the init values.

    Max pooling is `stablehlo.maximum` from -inf over 2x2 windows with stride 2; average
    pooling a sum divided after. https://openxla.org/stablehlo/spec#reduce_window
    """

    name = "stablehlo.reduce_window"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase[I64])
    window_strides = opt_prop_def(DenseArrayBase[I64])
    base_dilations = opt_prop_def(DenseArrayBase[I64])
    window_dilations = opt_prop_def(DenseArrayBase[I64])
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())
    irdl_options = (SameVariadicOperandSize(),)

    @property
    def rank(self) -> int:
        return len(shape(self.inputs[0].type))

    @property
    def strides(self) -> tuple[int, ...]:
        return array_values(self.window_strides, 1, self.rank)

    @property
    def base_dilation_values(self) -> tuple[int, ...]:
        return array_values(self.base_dilations, 1, self.rank)

    @property
    def window_dilation_values(self) -> tuple[int, ...]:
        return array_values(self.window_dilations, 1, self.rank)

    @property
    def padding_values(self) -> list[tuple[int, int]]:
        return padding_pairs(self.padding, self.rank)

    def verify_(self) -> None:
        n = len(self.inputs)
        if n == 0:
            fail(self, "expects at least one input")
        if len(self.results_) != n:
            fail(self, f"expects {n} results (one per input), got {len(self.results_)}")
        _check_same_shapes(self, "inputs", [v.type for v in self.inputs])
        rank = self.rank
        window = self.window_dimensions.get_values()
        check_sizes(self, "window_dimensions", window, rank, "the input rank")
        strides = self.strides
        base, dilation = self.base_dilation_values, self.window_dilation_values
        check_sizes(self, "window_strides", strides, rank, "the input rank")
        check_sizes(self, "base_dilations", base, rank, "the input rank")
        check_sizes(self, "window_dilations", dilation, rank, "the input rank")
        check_padding(self, self.padding, rank)
        element_types = []
        for i, (value, init) in enumerate(zip(self.inputs, self.init_values, strict=True)):
            if shape(init.type):
                fail(self, f"init value {i} must be a rank-0 tensor, got {init.type}")
            if element_type(init.type) != element_type(value.type):
                fail(self, f"init value {i} has element type {element_type(init.type)}, "
                           f"input {i} has {element_type(value.type)}")
            element_types.append(element_type(value.type))
        verify_reducer(self, self.body, element_types)
        expected = [
            num_windows(size, w, s, pad, b, d)
            for size, w, s, pad, b, d in zip(
                shape(self.inputs[0].type), window, strides, self.padding_values, base,
                dilation, strict=True,
            )
        ]
        for i, (result, elem) in enumerate(zip(self.results_, element_types, strict=True)):
            if not shapes_match(shape(result.type), expected) or element_type(result.type) != elem:
                fail(self, f"result {i} must be {TensorType(elem, expected)}, got {result.type}")


# ---------------------------------------------------------------- select_and_scatter


def _verify_select(op: Operation, select: Region, element: Attribute) -> None:
    """Spec (C9): `select` has type `(tensor<E>, tensor<E>) -> tensor<i1>`."""
    block = select.blocks.first
    scalar = TensorType(element, [])
    if block is None or [a.type for a in block.args] != [scalar, scalar]:
        got = "no block" if block is None else ", ".join(str(a.type) for a in block.args)
        fail(op, f"select must take ({scalar}, {scalar}), got ({got})")
    terminator = block.last_op
    if not isinstance(terminator, ReturnOp) or [v.type for v in terminator.operands] != [
        TensorType(i1, [])
    ]:
        fail(op, "select must return one tensor<i1> with stablehlo.return")


@irdl_op_definition
class SelectAndScatterOp(IRDLOperation):
    """In each window of `operand`, pick one element with `select` (a `GE` compare picks
    the first maximum) and combine the window's `source` value into the result there with
    `scatter`; the result starts as `init_value` everywhere.

    JAX's gradient of max pooling. https://openxla.org/stablehlo/spec#select_and_scatter
    """

    name = "stablehlo.select_and_scatter"

    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    window_dimensions = opt_prop_def(DenseArrayBase[I64])
    window_strides = opt_prop_def(DenseArrayBase[I64])
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)
    select = region_def("single_block")
    scatter = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    @property
    def rank(self) -> int:
        return len(shape(self.operand.type))

    @property
    def window(self) -> tuple[int, ...]:
        return array_values(self.window_dimensions, 1, self.rank)

    @property
    def strides(self) -> tuple[int, ...]:
        return array_values(self.window_strides, 1, self.rank)

    @property
    def padding_values(self) -> list[tuple[int, int]]:
        return padding_pairs(self.padding, self.rank)

    def verify_(self) -> None:
        element = element_type(self.operand.type)
        if element_type(self.source.type) != element:
            fail(self, f"source has element type {element_type(self.source.type)}, operand "
                       f"has {element}")
        if shape(self.init_value.type) or element_type(self.init_value.type) != element:
            fail(self, f"init_value must be a rank-0 tensor of the operand's element type, "
                       f"got {self.init_value.type}")
        rank = self.rank
        check_sizes(self, "window_dimensions", self.window, rank, "the operand rank")
        check_sizes(self, "window_strides", self.strides, rank, "the operand rank")
        check_padding(self, self.padding, rank)
        _verify_select(self, self.select, element)
        verify_reducer(self, self.scatter, [element])
        expected = [
            num_windows(size, w, s, pad)
            for size, w, s, pad in zip(
                shape(self.operand.type), self.window, self.strides, self.padding_values,
                strict=True,
            )
        ]
        if not shapes_match(shape(self.source.type), expected):
            fail(self, f"source shape must be {expected} (the number of windows), got "
                       f"{list(shape(self.source.type))}")
        if self.result.type != self.operand.type:
            fail(self, f"result type must be the operand type {self.operand.type}, got "
                       f"{self.result.type}")
