"""`test-grid-all-slice-op-lowering`: upstream's test pass of that name, under its
name, so that upstream RUN lines run unchanged.

Each `shard.all_slice` becomes local slicing, with no communication: the device's
coordinates on the group's axes (`shard.process_multi_index`) linearized on the
group's shape (`affine.apply`, `s0 * s1 + s2` for two axes), the slice axis's size
(`tensor.dim`) checked divisible by the group size (`cf.assert`) and divided by it,
a `tensor.extract_slice` at linear index times that size, and a `tensor.cast` to
the op's type where the slice's all-dynamic type differs.

Sizes known statically (static grid axes and tensor dims) are folded as the ops are
built, constants to the right of `arith.muli`: mlir-opt's rewrite driver folds
them, and xshard's `test-grid-simplifications` folds `grid_shape` only, so with the
fold here the upstream pipeline gives the same ops. Only dynamic grid axes are
queried with `shard.grid_shape`. A group of no grid axes is one device: the op
becomes its input (cast to its type); mlir-opt-22 divides by the whole grid there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, cf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from xshard.dialects.shard import AllSliceOp, GridShapeOp, ProcessMultiIndexOp, lookup_grid

ASSERT_MESSAGE = (
    "Slicing a tensor with axis size that is not exactly divisible by the grid "
    "process group size is not supported."
)

Index = int | SSAValue
"""A size or index: an `int` when known statically, else the value computing it."""


class _Builder:
    """Ops to insert before the all_slice, with constants folded as they are built."""

    def __init__(self) -> None:
        self.constants: dict[tuple[int, Attribute], arith.ConstantOp] = {}
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def constant(self, v: int, type: Attribute, name: str) -> SSAValue:
        """One constant per value, named as mlir-opt names it; all go before the other
        ops, where mlir-opt's folder hoists them."""
        if (v, type) not in self.constants:
            self.constants[v, type] = arith.ConstantOp(IntegerAttr(v, type))
            self.constants[v, type].result.name_hint = name
        return self.constants[v, type].result

    def value(self, v: Index) -> SSAValue:
        if isinstance(v, SSAValue):
            return v
        return self.constant(v, IndexType(), f"c{v}")

    def all_ops(self) -> list[Operation]:
        return [*self.constants.values(), *self.ops]

    def muli(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if isinstance(a, int):  # commutative: the constant goes right
            a, b = b, a
        if b == 1:
            return a
        return self.add(arith.MuliOp(a, self.value(b)))

    def divui(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a // b
        if b == 1:
            return a
        return self.add(arith.DivUIOp(self.value(a), self.value(b)))

    def divisible(self, a: Index, b: Index) -> SSAValue:
        """`a % b == 0` as an i1, a `true` constant when known statically."""
        if isinstance(a, int) and isinstance(b, int):
            known: bool | None = a % b == 0
        else:
            known = True if b == 1 else None
        if known is not None:
            return self.constant(int(known), i1, "true" if known else "false")
        remainder = self.add(arith.RemUIOp(self.value(a), self.value(b)))
        return self.add(arith.CmpiOp(remainder, self.value(0), "eq"))

    def linearize(self, index: Sequence[SSAValue], shape: Sequence[Index]) -> SSAValue:
        """Row-major linear index of `index` on `shape`, one `affine.apply` over symbols
        for several axes (`((s0 * s1 + s2) * s3 + s4)`)."""
        if len(index) == 1:
            return index[0]
        operands: list[SSAValue] = [index[0]]
        expr: AffineExpr = AffineExpr.symbol(0)
        for i, size in zip(index[1:], shape[1:], strict=True):
            operands += [self.value(size), i]
            # xDSL's `*` refuses symbol * symbol (semi-affine); the op takes it
            scaled = AffineBinaryOpExpr(
                AffineBinaryOpKind.Mul, expr, AffineExpr.symbol(len(operands) - 2)
            )
            expr = scaled + AffineExpr.symbol(len(operands) - 1)
        amap = AffineMap(0, len(operands), (expr,))
        return self.add(affine.ApplyOp(operands, AffineMapAttr(amap)))

    def dim(self, source: SSAValue, axis: int) -> Index:
        assert isinstance(source.type, TensorType)
        size = source.type.get_shape()[axis]
        if size != DYNAMIC_INDEX:
            return size
        return self.add(tensor.DimOp(source, self.value(axis)))


def _lower(op: AllSliceOp) -> None:
    grid = lookup_grid(op, op.grid)
    assert grid is not None, "the verifier checked the symbol"
    axes = op.grid_axes_tuple()
    source, result_type = op.input, op.result.type
    if not axes:
        if source.type == result_type:
            Rewriter.replace_op(op, [], [source])
        else:
            Rewriter.replace_op(op, tensor.CastOp(source, result_type))  # type: ignore[arg-type]
        return
    b = _Builder()
    coordinates = ProcessMultiIndexOp(grid, axes)
    b.ops.append(coordinates)
    grid_shape = grid.shape_tuple()
    dynamic_axes = [a for a in axes if grid_shape[a] is None]
    queried = iter(())
    if dynamic_axes:
        query = GridShapeOp(grid, dynamic_axes)
        b.ops.append(query)
        queried = iter(query.results)
    group_shape: list[Index] = [
        size if size is not None else next(queried) for size in (grid_shape[a] for a in axes)
    ]
    group_size: Index = group_shape[0]
    for size in group_shape[1:]:
        group_size = b.muli(group_size, size)

    slice_axis = op.slice_axis.value.data
    axis_size = b.dim(source, slice_axis)
    cf_assert = cf.AssertOp(b.divisible(axis_size, group_size), ASSERT_MESSAGE)
    b.ops.append(cf_assert)
    slice_size = b.divui(axis_size, group_size)
    linear = b.linearize(coordinates.results, group_shape)
    rank = len(source.type.get_shape())  # type: ignore[union-attr]
    sizes = [slice_size if d == slice_axis else b.dim(source, d) for d in range(rank)]
    offsets: list[Index] = [0] * rank
    offsets[slice_axis] = b.value(b.muli(linear, slice_size))
    sliced_type = TensorType(result_type.get_element_type(), [DYNAMIC_INDEX] * rank)  # type: ignore[union-attr]
    result = b.add(
        tensor.ExtractSliceOp(
            source, offsets, [b.value(s) for s in sizes], [1] * rank, sliced_type
        )
    )
    if sliced_type != result_type:
        result = b.add(tensor.CastOp(result, result_type))  # type: ignore[arg-type]
    Rewriter.replace_op(op, b.all_ops(), [result])


@dataclass(frozen=True)
class TestGridAllSliceOpLoweringPass(ModulePass):
    """Lower shard.all_slice to tensor slices.

    Through process queries and `tensor.extract_slice`.
    """

    name = "test-grid-all-slice-op-lowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for collective in [o for o in op.walk() if isinstance(o, AllSliceOp)]:
            _lower(collective)
