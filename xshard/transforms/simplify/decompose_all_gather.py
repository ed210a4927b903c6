"""`shard-decompose-all-gather`: an `all_gather` whose only user is a `dot_general`
that takes the gathered dim as a free or batch dim is split into one step per device
of the group, so that a step's communication can overlap the previous step's matmul
("collective matmul"; NVIDIA Fuser's broadcast-based allgather, XLA's windowed
einsum, which XLA does on TPU only).

A free dim of an operand is one dim of the result, so the result splits along it
the same way: step `i`'s chunk gives the result's rows `[i*c, (i+1)*c)`. So does a
batch dim, when each step also cuts the other operand's paired batch dim to the
step's chunk (a contracted dim would make each step a partial sum instead).

- `strategy=broadcast`: at step `i` the group's device `i` broadcasts its shard
  (`shard.broadcast`, root = `i` within each group) and every device multiplies it;
  the N step results are concatenated in step order.
- `strategy=ring`: every device multiplies the chunk it holds, then passes it to the
  next device of the ring (`shard.shift ... rotate`), N-1 passes: at step `s` device
  `d` holds chunk `(d - s) mod N`, so its result goes to rows `(d - s) mod N` of a
  zero tensor by `dynamic_update_slice` at an offset from `partition_id`. Only for a
  group along one grid axis (a shift moves along one axis).
- `strategy=auto`: per gather, whichever of none / broadcast / ring has the least
  modeled time (`xshard.sharding.overlap_cost`, with the links and flop rate of
  `target`); `report=true` prints each choice and the times behind it as `//` lines.

The steps are unrolled rather than a loop: XLA's scheduler sees N independent
collectives and matmuls it may reorder and overlap, and N is a grid axis (small).
Each step's communication is emitted before the previous step's matmul, the order
an in-order executor overlaps. A gather with any other user is left alone: that
user would still need the whole gathered value, so nothing would be saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.dialects import stablehlo as hlo
from xshard.dialects.shard import AllGatherOp, BroadcastOp, ShiftOp, lookup_grid
from xshard.sharding.grid import Grid
from xshard.sharding.overlap_cost import Form, OverlapModel
from xshard.sharding.tensor_bytes import element_bytes
from xshard.transforms.analysis.table import comment_table, write_report
from xshard.transforms.export.convert_shard_to_stablehlo import Target
from xshard.transforms.export.device_index import PartitionIndex, constant, group_index
from xshard.xdsl_compat.dense_splat import splat_attr

Strategy = Literal["broadcast", "ring", "auto"]
Overlap = Literal["none", "broadcast", "ring", "auto"]
"""`xshard-spmd{overlap=...}`: none skips this pass."""
_FORMS: tuple[Form, ...] = ("none", "broadcast", "ring")


@dataclass(frozen=True)
class _Match:
    gather: AllGatherOp
    dot: hlo.DotGeneralOp
    operand: int
    """Which operand of `dot` the gather feeds (0: lhs, 1: rhs)."""
    out_dim: int
    """The result dim that the gathered dim becomes."""
    other_dim: int | None
    """Where the gathered dim is a batch dim: the other operand's batch dim paired
    with it, which each step cuts to the step's chunk too."""
    steps: int
    grid_shape: tuple[int, ...]

    @property
    def axes(self) -> tuple[int, ...]:
        return self.gather.grid_axes_tuple()

    @property
    def chunk(self) -> int:
        return self.gather.input.type.get_shape()[self.gather.gather_axis.value.data]


def _static(t: object) -> bool:
    return isinstance(t, TensorType) and all(s >= 0 for s in t.get_shape())


def _match(gather: AllGatherOp) -> _Match | None:
    use = gather.result.get_unique_use()
    if use is None or not isinstance(dot := use.operation, hlo.DotGeneralOp):
        return None
    if not all(_static(v.type) for v in (*dot.operands, gather.input, dot.result)):
        return None
    numbers = dot.dot_dimension_numbers
    lhs_bound = (*numbers.lhs_batching, *numbers.lhs_contracting)
    if use.index == 0:
        batch, other_batch, contracting = (
            numbers.lhs_batching,
            numbers.rhs_batching,
            numbers.lhs_contracting,
        )
        before = len(batch)
    else:
        batch, other_batch, contracting = (
            numbers.rhs_batching,
            numbers.lhs_batching,
            numbers.rhs_contracting,
        )
        before = len(other_batch) + dot.lhs.type.get_num_dims() - len(lhs_bound)
    bound = (*batch, *contracting)
    dim = gather.gather_axis.value.data
    if dim in contracting:
        return None
    if dim in batch:  # result dim k; the other operand's batch dim k is cut alike
        out_dim = batch.index(dim)
        other_dim: int | None = other_batch[out_dim]
    else:
        out_dim, other_dim = before + sum(1 for d in range(dim) if d not in bound), None
    grid = lookup_grid(gather, gather.grid)
    if grid is None or None in (shape := grid.shape_tuple()):
        return None
    steps = prod(shape[a] for a in gather.grid_axes_tuple())
    if steps <= 1:
        return None
    return _Match(gather, dot, use.index, out_dim, other_dim, steps, shape)  # type: ignore[arg-type]


def _with_dim(t: TensorType, dim: int, size: int) -> TensorType:
    shape = list(t.get_shape())
    shape[dim] = size
    return TensorType(t.element_type, shape)


class _Builder:
    """Inserts the steps before the dot, which they replace."""

    def __init__(self, m: _Match):
        self.m = m

    def emit(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.m.dot))
        return op.results[0]

    def step_dot(self, chunk: SSAValue, start: int | SSAValue) -> SSAValue:
        """The dot on the chunk whose rows start at `start` of the gathered dim: `chunk`
        rows of the result's `out_dim` (the other operand cut alike on a batch dim)."""
        m = self.m
        operands = list(m.dot.operands)
        operands[m.operand] = chunk
        if m.other_dim is not None:
            other = operands[1 - m.operand]
            shape = list(other.type.get_shape())  # type: ignore[attr-defined]
            sizes = _with_dim(other.type, m.other_dim, m.chunk).get_shape()  # type: ignore[arg-type]
            if isinstance(start, int):
                starts = [start if d == m.other_dim else 0 for d in range(len(shape))]
                limits = [start + m.chunk if d == m.other_dim else n for d, n in enumerate(shape)]
                operands[1 - m.operand] = self.emit(hlo.SliceOp(other, starts, limits))
            else:
                zero = constant(self.emit, 0)
                starts = [start if d == m.other_dim else zero for d in range(len(shape))]
                operands[1 - m.operand] = self.emit(hlo.DynamicSliceOp(other, starts, sizes))
        return self.emit(
            hlo.DotGeneralOp.create(
                operands=operands,
                result_types=[_with_dim(m.dot.result.type, m.out_dim, m.chunk)],
                properties=dict(m.dot.properties),
                attributes=dict(m.dot.attributes),
            )
        )


def _root(step: int, axes: tuple[int, ...], shape: tuple[int, ...]) -> list[int]:
    """The in-group coordinates of the group's device number `step` (first axis most
    significant, the order all_gather concatenates in)."""
    digits = []
    for a in reversed(axes):
        digits.append(step % shape[a])
        step //= shape[a]
    return digits[::-1]


def _broadcast_steps(m: _Match) -> SSAValue:
    b = _Builder(m)
    g = m.gather

    def cast(step: int) -> SSAValue:
        return b.emit(BroadcastOp(g.input, g.grid, m.axes, _root(step, m.axes, m.grid_shape)))

    received = cast(0)
    parts = []
    for step in range(m.steps):
        following = cast(step + 1) if step + 1 < m.steps else None
        parts.append(b.step_dot(received, step * m.chunk))
        received = following  # type: ignore[assignment]
    return b.emit(hlo.ConcatenateOp(parts, m.out_dim, m.dot.result.type))


def _ring_steps(m: _Match) -> SSAValue:
    b = _Builder(m)
    g, (axis,) = m.gather, m.axes
    result_type = m.dot.result.type
    n = m.steps
    linear = PartitionIndex(m.dot.parent_block()).linear()  # type: ignore[arg-type]
    position = group_index(b.emit, linear, m.grid_shape, m.axes)
    zero, size, rows = (constant(b.emit, v) for v in (0, n, m.chunk))
    acc = b.emit(hlo.ConstantOp(splat_attr(result_type, 0)))
    held = g.input
    for step in range(n):
        passed = ShiftOp(held, g.grid, m.axes, axis, 1, rotate=True) if step + 1 < n else None
        if passed is not None:
            b.emit(passed)
        chunk_index = position
        if step:  # (position - step) mod n, kept non-negative
            shifted = b.emit(hlo.AddOp(position, constant(b.emit, n - step)))
            chunk_index = b.emit(hlo.RemainderOp(shifted, size))
        offset = b.emit(hlo.MultiplyOp(chunk_index, rows))
        part = b.step_dot(held, offset)
        starts = [offset if d == m.out_dim else zero for d in range(result_type.get_num_dims())]
        acc = b.emit(hlo.DynamicUpdateSliceOp(acc, part, starts))
        held = passed.result if passed is not None else held
    return acc


def _flops(m: _Match) -> float:
    """2 x (result elements) x (contracted extent) of the whole dot."""
    numbers = m.dot.dot_dimension_numbers
    lhs_shape = m.dot.lhs.type.get_shape()
    contracted = prod(lhs_shape[d] for d in numbers.lhs_contracting)
    return 2.0 * prod(m.dot.result.type.get_shape()) * contracted


OVERLAP_COLUMNS = ("all_gather input", "steps", "none µs", "broadcast µs", "ring µs", "choice")


def _modeled(m: _Match, target: Target) -> tuple[Form, tuple[str, ...]]:
    """The form of least modeled time for `m`, and the `OVERLAP_COLUMNS` row saying why."""
    g = m.gather
    grid = Grid(g.grid.root_reference.data, m.grid_shape)
    chunk_bytes = prod(g.input.type.get_shape()) * element_bytes(g.input.type)
    costs = OverlapModel.for_target(target).costs(
        chunk_bytes, _flops(m), m.steps, m.axes, grid, ring=len(m.axes) == 1
    )
    best, times = costs.best(), costs.times()
    row = (
        f"{g.input.type} over @{grid.name} {list(m.axes)}",
        str(m.steps),
        *(f"{times[f] * 1e6:.1f}" if f in times else "-" for f in _FORMS),
        best,
    )
    return best, row


def overlap_rows(module: ModuleOp, target: Target) -> list[tuple[str, ...]]:
    """Per all_gather this pass can decompose: the modeled times of each form and the
    one `strategy=auto` picks (what `comm-report{overlap=...}` prints)."""
    matches = (_match(o) for o in module.walk() if isinstance(o, AllGatherOp))
    return [_modeled(m, target)[1] for m in matches if m is not None]


@dataclass(frozen=True)
class DecomposeAllGatherPass(ModulePass):
    """Overlap an all-gather with its matmul.

    Options: `strategy` = broadcast (default) | ring | auto; `target` = cpu (default)
    | gpu, the links and flop rate `auto` models; `report` = false (default) | true:
    print `auto`'s modeled times and choice as `//` lines; `file`: append them there."""

    name = "shard-decompose-all-gather"

    strategy: Strategy = "broadcast"
    target: Target = "cpu"
    report: bool = False
    file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rows: list[tuple[str, ...]] = []
        for gather in [o for o in op.walk() if isinstance(o, AllGatherOp)]:
            m = _match(gather)
            if m is None:
                continue
            form = self.strategy
            if form == "auto":
                form, row = _modeled(m, self.target)
                rows.append(row)
            if form == "none" or (form == "ring" and len(m.axes) != 1):
                continue
            result = _broadcast_steps(m) if form == "broadcast" else _ring_steps(m)
            m.dot.result.replace_all_uses_with(result)
            Rewriter.erase_op(m.dot)
            Rewriter.erase_op(gather)
        if self.report and rows:
            options = f"strategy=auto target={self.target}"
            title = f"// shard-decompose-all-gather{{{options}}}: modeled times"
            lines = [title, *comment_table(OVERLAP_COLUMNS, rows)]
            write_report("".join(line + "\n" for line in lines), self.file)
