"""What running an op with given loop axes costs in reshards, under the cost model.

Propagation (strategy=aggressive) uses it where the layouts around an op disagree, to
pick the loop axes whose reshards take the least modeled time; `sharding-report`
uses it to show, for each op that reshards, the cost of the option it got and of the
best alternative.

Each tensor the op reads or writes has a layout it is `Known` to have (or to be
wanted in): an operand is resharded from it to what the option reads, a result from
what the option produces to it. A partial result counts the collective that settles
it into the known layout: an all_reduce, or a reduce_scatter where the known layout
splits a dim over the partial axes. An open value (propagation has not closed it)
takes any layout its current one is a prefix of for free: it just grows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import inf

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation, SSAValue

from xshard.interfaces.sharding_interface import ShardingRule
from xshard.interfaces.sharding_option import loop_option, operand_layout, result_sharding
from xshard.sharding.cost_model import CostModel
from xshard.sharding.errors import ShardingError
from xshard.sharding.grid import Grid
from xshard.sharding.sharding import Sharding
from xshard.sharding.tensor_bytes import element_bytes

Axes = tuple[int, ...]

MODEL = CostModel()
"""The default links (NVLink class): what propagation's picks and the report compare."""


@dataclass(frozen=True)
class Known:
    layout: Sharding
    open: bool = False
    """Whether the layout may still grow (only propagation has open values)."""
    shared: frozenset[Sharding] = frozenset()
    """Layouts other readers read it in: a reshard into one is made once for all of
    them (`shard-partition` reuses it), so it costs this reader nothing."""


def splits_further(have: Sharding, want: Sharding) -> bool:
    """`want` only splits `have`'s dims further (neither partial): an open value can take
    it for free, and a value held as `have` is sliced into `want` with no communication."""
    if want.partial_axes or have.partial_axes:
        return False
    rank = max(len(have.split_axes), len(want.split_axes))
    return all(want.axes_of(d)[: len(have.axes_of(d))] == have.axes_of(d) for d in range(rank))


def reshard_time(
    model: CostModel, src: Sharding, dst: Sharding, value: SSAValue, grid: Grid
) -> float:
    """Modeled seconds to reshard `value` from `src` to `dst`; inf where no plan exists."""
    t = value.type
    if src == dst or not isinstance(t, TensorType):
        return 0.0
    shape = [None if d == DYNAMIC_INDEX else d for d in t.get_shape()]
    try:
        return model.reshard_time(src, dst, shape, grid, element_bytes(t))
    except ShardingError:
        return inf


def assignment_cost(
    op: Operation,
    rule: ShardingRule,
    grid: Grid,
    loops: Sequence[Axes],
    known: Callable[[SSAValue], Known | None],
    model: CostModel,
    carried: Sequence[Sharding | None] | None = None,
) -> float:
    """Seconds of the reshards around `op` if it runs with `loops`, carrying the
    partial state of `carried` operand layouts it accepts partial (default: none); a
    tensor `known` says nothing of costs nothing."""
    carried = [None] * len(op.operands) if carried is None else carried
    option = loop_option(rule, grid.name, loops, carried)
    total = 0.0
    for i, v in enumerate(op.operands):
        want = operand_layout(rule, option, i, v)
        k = known(v)
        if want is None or k is None or (k.open and splits_further(k.layout, want)):
            continue
        if want in k.shared:
            continue
        total += reshard_time(model, k.layout, want, v, grid)
    for j, r in enumerate(op.results):
        if not isinstance(r.type, TensorType):
            continue
        produced = result_sharding(rule, option, j)
        k = known(r)
        if k is None or (k.open and splits_further(k.layout, produced)):
            continue
        total += reshard_time(model, produced, k.layout, r, grid)
    return total
