"""What a sharding model works with when `shard-partition` asks for an op's per-device form.

The pass has already turned every operand into its local block (resharding where
the operand annotation asked for it); the model emits ops through `insert` and
hands back the local results with `set_results`. Most ops need nothing more than
`clone_local`: the same op on the local operands and local result types.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue

from xshard.diagnostics import DiagnosticError
from xshard.dialects import stablehlo as hlo
from xshard.dialects.shard import AllSliceOp
from xshard.interfaces.annotations import SHARDING_OPTION
from xshard.interfaces.sharding_interface import ShardingRule
from xshard.interfaces.sharding_option import ShardingOption
from xshard.sharding.grid import Grid
from xshard.sharding.shapes import shard_shape
from xshard.sharding.sharding import Sharding, ShardingError

Resharder = Callable[[SSAValue, Sharding, Sharding, Attribute], SSAValue]
"""`(local value, its sharding, wanted sharding, global type) -> local value`."""


def local_type(op: Operation, t: Attribute, s: Sharding | None, grid: Grid) -> Attribute:
    """`t` as each device holds it under `s` (non-tensors and unsharded values unchanged)."""
    if not isinstance(t, TensorType) or s is None:
        return t
    try:
        return _local_tensor_type(t, s, grid)
    except ShardingError as err:
        raise DiagnosticError(op, str(err)) from err


@functools.lru_cache(maxsize=4096)
def _local_tensor_type(t: TensorType, s: Sharding, grid: Grid) -> TensorType:
    """`local_type` of a tensor, once per question: a program holds few distinct
    (type, layout) pairs, and building a type costs more than looking one up."""
    shape = t.get_shape()
    if any(d < 0 for d in shape):
        raise ShardingError(f"shard-partition does not support dynamic shapes, got {t}")
    local = shard_shape(shape, s, grid)
    if None in local:
        raise ShardingError(f"the local shape of {t} under {s} is only known at run time")
    return TensorType(t.element_type, local)


@dataclass
class PartitionContext:
    op: Operation
    operands: tuple[SSAValue, ...]
    """The op's operands, partitioned: each is the local block `option` asks for."""
    operand_shardings: tuple[Sharding | None, ...]
    """The layouts of `operands` (None for non-tensors)."""
    result_shardings: tuple[Sharding | None, ...]
    """The layouts the per-device op must give its results (None for non-tensors)."""
    rule: ShardingRule
    option: ShardingOption
    """How the op's loops are split, and the partial state it carries."""
    grid: Grid
    builder: Builder
    reshard: Resharder = field(repr=False)
    """The pass's collective emitter, for models that reshard inside their partition."""
    results: tuple[SSAValue, ...] | None = None
    outer: Mapping[SSAValue, SSAValue] = field(default_factory=dict, repr=False)
    """Global values defined before the op -> their local counterparts, for the values its
    regions capture (a `linalg.generic` body reading a scalar from outside)."""

    def insert(self, op: Operation) -> Operation:
        return self.builder.insert(op)

    def set_results(self, values: Sequence[SSAValue]) -> None:
        self.results = tuple(values)

    def result_types(self) -> list[Attribute]:
        return [
            local_type(self.op, r.type, s, self.grid)
            for r, s in zip(self.op.results, self.result_shardings, strict=True)
        ]

    def clone_local(self, properties: Mapping[str, Attribute] | None = None) -> Operation:
        """The op on local operands and local result types (properties may be overridden)."""
        op = self.op
        new = type(op).create(
            operands=self.operands,
            result_types=self.result_types(),
            properties={**op.properties, **(properties or {})},
            attributes={k: v for k, v in op.attributes.items() if k != SHARDING_OPTION},
            regions=[self.clone_region(region) for region in op.regions],
        )
        self.insert(new)
        self.set_results(new.results)
        return new

    def clone_region(self, region: Region) -> Region:
        """`region`, its captured values replaced by their local counterparts."""
        new = Region()
        region.clone_into(new, value_mapper=dict(self.outer))
        return new

    def reshard_global(self, value: SSAValue, result: int = 0) -> None:
        """Use the global `value` (computed whole on every device) as result `result`, sliced
        to its result sharding: the fallback for sources that cannot be built locally."""
        s = self.result_shardings[result]
        assert s is not None
        replicated = Sharding.replicated(self.grid.name)
        self.set_results([self.reshard(value, replicated, s, value.type)])

    def device_entry(
        self, values: Sequence[int | float], axes: Sequence[int], element_type: Attribute
    ) -> SSAValue:
        """This device's entry of `values`, one per position in its group over `axes`,
        as a rank-0 tensor: the device's slice (`shard.all_slice`) of a constant table,
        so no process-id arithmetic is needed beyond what `all_slice` lowers to."""
        table = self.insert(
            hlo.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(TensorType(element_type, [len(values)]), values)
            )
        )
        mine = self.insert(
            AllSliceOp(table.results[0], self.grid.name, axes, 0, TensorType(element_type, [1]))
        )
        return self.insert(hlo.ReshapeOp(mine.result, TensorType(element_type, []))).results[0]

    def shard_offset(self, dim: int, result: int = 0) -> SSAValue:
        """Where this device's block of result `result` starts along `dim` (rank-0 tensor of
        the result's element type); needs an even sharding without halos."""
        s = self.result_shardings[result]
        t = self.op.results[result].type
        assert s is not None and isinstance(t, TensorType)
        axes = s.axes_of(dim)
        n = self.grid.group_size(axes) or 1
        extent = t.get_shape()[dim] // n
        return self.device_entry([k * extent for k in range(n)], axes, t.element_type)
