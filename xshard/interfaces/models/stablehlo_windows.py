"""Sharding models of the windowed StableHLO ops (reduce_window, select_and_scatter), and
the window and halo arithmetic they share with convolution's (`stablehlo_convolution.py`).

A windowed dim split into even blocks gives each device its block of the result exactly
when the input is `stride` times as long as the result, there is no base dilation and
the padding `(lo, hi)` is non-negative with `lo <= reach - stride` (reach: the dilated
window's extent). Device j's windows then start `lo` cells before its block and end
`reach - stride - lo` cells after it: it fetches those halos from its neighbours
(`shard.update_halo`, the op's padding value past the global edges) and runs the op
unpadded on its halo'd block (`window_halo`). This covers "same" windows of stride 1
(halos `(lo, hi)`), strided "SAME" ones (flax pads a 3x3 stride-2 window `(0, 1)`: halo
`(0, 1)`) and windows that tile the dim (stride = reach, no padding: no halo). Every
other windowed dim is not indexed by a loop, so `shard-partition` gathers it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap

from xshard.diagnostics import DiagnosticError
from xshard.dialects import shard
from xshard.dialects import stablehlo as hlo
from xshard.dialects.stablehlo.windows import dilated, padding_attr
from xshard.interfaces.annotations import SHARDING_OPTION
from xshard.interfaces.models.common import KINDS_ALL, dims_map
from xshard.interfaces.partition_context import PartitionContext
from xshard.interfaces.sharding_interface import (
    NO_PARTIAL,
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.interfaces.sharding_model import register_model
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.sharding import Sharding
from xshard.xdsl_compat.dense_splat import splat_attr

Halo = tuple[int, int]

# ---------------------------------------------------------------- window arithmetic


def window_halo(
    size: int, out_size: int, window: int, stride: int, pad: Halo, base_dilation: int = 1,
    window_dilation: int = 1,
) -> Halo | None:
    """The `(lo, hi)` halo with which an even block of this dim computes its block of the
    result (see the module docstring; `(0, 0)` when windows tile the dim), None if none
    does. `size == out_size * stride` makes the global padding cover the halos."""
    reach = dilated(window, window_dilation)
    lo, hi = pad
    if base_dilation != 1 or size < 0 or size != out_size * stride or min(lo, hi) < 0:
        return None
    return (lo, reach - stride - lo) if lo <= reach - stride else None


# ---------------------------------------------------------------- per-device forms


def local_operand(ctx: PartitionContext, index: int) -> tuple[SSAValue, Sharding]:
    """Operand `index`'s local block and its layout: an even split, as the option gives
    every operand (the halo arithmetic below relies on it)."""
    s = ctx.operand_shardings[index] or Sharding.replicated(ctx.grid.name)
    assert not (s.halo_sizes or s.sharded_dims_offsets), s
    return ctx.operands[index], s


def with_halos(
    ctx: PartitionContext, value: SSAValue, s: Sharding, halos: Mapping[int, Halo],
    pad_value: SSAValue | None = None,
) -> SSAValue:
    """The halo-free block `value` (under `s`) grown by `halos[d]` along each split dim
    `d`: `pad_value` (default zero) past the global edges, the neighbours' cells
    elsewhere (`shard.update_halo` leaves the outer halos of a group's first and last
    devices)."""
    wanted = {d: h for d, h in halos.items() if h != (0, 0) and s.axes_of(d)}
    if not wanted:
        return value
    t = value.type
    assert isinstance(t, TensorType)
    for d, (lo, hi) in wanted.items():
        if max(lo, hi) > t.get_shape()[d]:
            raise DiagnosticError(
                ctx.op,
                f"'{ctx.op.name}' split along dim {d} needs halos ({lo}, {hi}) wider than the "
                f"{t.get_shape()[d]} cells of each block: use fewer shards",
            )
    if pad_value is None:
        zero = splat_attr(TensorType(t.element_type, []), 0)
        pad_value = ctx.insert(hlo.ConstantOp(zero)).results[0]
    rank = t.get_num_dims()
    low = [wanted.get(d, (0, 0))[0] for d in range(rank)]
    high = [wanted.get(d, (0, 0))[1] for d in range(rank)]
    padded = ctx.insert(hlo.PadOp(value, pad_value, low, high)).results[0]
    sizes = [v for d in s.split_dims for v in wanted.get(d, (0, 0))]
    return ctx.insert(
        shard.UpdateHaloOp(padded, ctx.grid.name, s.split_axes, sizes)
    ).results[0]


def emit_local(
    ctx: PartitionContext, operands: Sequence[SSAValue], properties: Mapping[str, Attribute]
) -> None:
    """`ctx.op` on `operands` (halo'd where the model arranged it), its properties
    overridden by `properties`, giving the local results."""
    op = ctx.op
    new = type(op).create(
        operands=operands,
        result_types=ctx.result_types(),
        properties={**op.properties, **properties},
        attributes={k: v for k, v in op.attributes.items() if k != SHARDING_OPTION},
        regions=[ctx.clone_region(region) for region in op.regions],
    )
    ctx.insert(new)
    ctx.set_results(new.results)


def split_padding(
    pads: Sequence[Halo], dims: Sequence[int], s: Sharding, halos: Sequence[Halo | None]
) -> dict[str, Attribute]:
    """The local `padding` property: none along split dims whose halos bring the data
    instead; no override when that changes nothing."""
    local = [
        (0, 0) if halo is not None and s.axes_of(d) else pad
        for pad, d, halo in zip(pads, dims, halos, strict=True)
    ]
    return {} if local == list(pads) else {"padding": padding_attr(local)}


# ---------------------------------------------------------------- reduce_window


def _reduce_window_halos(op: hlo.ReduceWindowOp) -> list[Halo | None]:
    in_shape = op.inputs[0].type.get_shape()  # type: ignore[union-attr]
    out_shape = op.results_[0].type.get_shape()  # type: ignore[union-attr]
    return [
        window_halo(size, out, w, s, pad, b, d)
        for size, out, w, s, pad, b, d in zip(
            in_shape, out_shape, op.window_dimensions.get_values(), op.strides,
            op.padding_values, op.base_dilation_values, op.window_dilation_values, strict=True,
        )
    ]


def parallel_loops(splittable: Sequence[bool]) -> tuple[int, AffineMap]:
    """One parallel loop per dim that may be split: the loop count, and the map of a
    tensor with these dims (the others not indexed)."""
    loops: list[int | None] = []
    count = 0
    for ok in splittable:
        loops.append(count if ok else None)
        count += ok
    return count, dims_map(count, loops)


class ReduceWindowModel:
    """Loops: the input dims that may be split (`window_halo`), shared with the results.

    Partial inputs: a body that is one known combiner (add, max, min) distributes over
    it, as `reduce`'s: each window of a sum of blocks is the sum of their windows. The
    init values are accumulators: each window, and each padded cell, holds the init once,
    so a partial result takes its init partial alike (the init on one device, the
    identity on the others; for max and min, the init everywhere).
    """

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.ReduceWindowOp)
        halos = _reduce_window_halos(op)
        n, m = parallel_loops([h is not None for h in halos])
        kind = hlo.reduction_kind(op)
        partial = NO_PARTIAL
        if kind in KINDS_ALL:
            partial = PartialRule(PartialFlow.PASS_THROUGH, frozenset({kind}), operands=(0,))
        count = len(op.inputs)
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)),
            (m,) * count + (dims_map(n, []),) * count,
            (m,) * count,
            partial,
            accumulators=tuple(range(count, 2 * count)),
            min_blocks=halo_blocks(halos),
        )

    def partition(self, op: Operation, ctx: PartitionContext) -> None:
        """Each input block gets the halos its windows reach (the init value past
        the global edges), and the op runs on it unpadded along those dims."""
        assert isinstance(op, hlo.ReduceWindowOp)
        halos = _reduce_window_halos(op)
        count = len(op.inputs)
        inputs, s = [], None
        for i in range(count):
            value, s = local_operand(ctx, i)
            init = ctx.operands[count + i]
            inputs.append(with_halos(ctx, value, s, dict(_present(halos)), init))
        assert s is not None
        padding = split_padding(op.padding_values, range(len(halos)), s, halos)
        emit_local(ctx, [*inputs, *ctx.operands[count:]], padding)


def halo_blocks(halos: Sequence[Halo | None]) -> tuple[tuple[int, int], ...]:
    """`ShardingRule.min_blocks` of the loops `parallel_loops` makes of these dims: a
    halo is fetched from one neighbour, so a block must be at least as wide."""
    loops = [h for h in halos if h is not None]
    return tuple((loop, max(h)) for loop, h in enumerate(loops) if max(h) > 0)


def _present(halos: Sequence[Halo | None]) -> list[tuple[int, Halo]]:
    return [(d, h) for d, h in enumerate(halos) if h is not None]


# ---------------------------------------------------------------- select_and_scatter


class SelectAndScatterModel:
    """Loops: the dims whose windows tile them (`window_halo` is `(0, 0)`: window =
    stride, no low padding, including window 1 with stride 1), shared by operand, source
    and result: each window, its selection and its scatter stay inside one block.
    Overlapping windows would scatter into the neighbours' blocks, so those dims are not
    indexed.

    Partial source (sum): with a `scatter` that adds, each result element is the init
    plus the source values selected for it, linear in the source with the init folded in
    once (an accumulator); the operand, which the selection reads, must be settled.
    """

    def rule(self, op: Operation) -> ShardingRule:
        assert isinstance(op, hlo.SelectAndScatterOp)
        in_shape = op.operand.type.get_shape()  # type: ignore[union-attr]
        out_shape = op.source.type.get_shape()  # type: ignore[union-attr]
        n, m = parallel_loops([
            window_halo(size, out, w, s, pad) == (0, 0)
            for size, out, w, s, pad in zip(
                in_shape, out_shape, op.window, op.strides, op.padding_values, strict=True
            )
        ])
        partial = NO_PARTIAL
        if hlo.single_reducer(op.scatter) is hlo.AddOp:
            partial = PartialRule(PartialFlow.ONE_OPERAND, frozenset({ReductionKind.SUM}),
                                  operands=(1,))
        return ShardingRule(
            tuple(Loop.parallel() for _ in range(n)), (m, m, dims_map(n, [])), (m,), partial,
            accumulators=(2,),
        )


register_model(hlo.ReduceWindowOp)(ReduceWindowModel())
register_model(hlo.SelectAndScatterOp)(SelectAndScatterModel())
