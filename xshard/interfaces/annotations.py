"""Reading and writing sharding annotations (`shard.sharding` + `shard.shard`) in IR.

The passes reason about `xshard.sharding.Sharding` values; this module is the
one place that translates between them and the shard dialect's ops.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DictionaryAttr,
    IntegerType,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue, Use

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import (
    GridAxesArrayAttr,
    ShardingOp,
    ShardingType,
    ShardOp,
    lookup_grid,
)
from xshard.sharding.reduction import ReductionKind
from xshard.sharding.sharding import Sharding, ShardingError


def sharding_of(sharding_value: SSAValue, user: Operation) -> Sharding:
    """The static sharding a `!shard.sharding` value denotes."""
    op = sharding_value.owner
    if not isinstance(op, ShardingOp):
        raise DiagnosticError(
            user, "sharding must come from a 'shard.sharding' op in the same function"
        )
    if op.operands:  # halo sizes or offsets given as values
        raise DiagnosticError(
            op, "shardings with dynamic halo sizes or offsets are not supported here"
        )
    try:
        return _static_sharding(
            op.grid,
            op.split_axes,
            op.partial_axes,
            op.partial_type,
            op.static_halo_sizes,
            op.static_sharded_dims_offsets,
        )
    except ShardingError as err:
        raise DiagnosticError(op, str(err)) from err


@functools.lru_cache(maxsize=4096)
def _static_sharding(*properties: Attribute | None) -> Sharding:
    """A static `shard.sharding`'s value, from its (immutable, hashable) properties:
    passes read the same few layouts thousands of times."""
    grid, split_axes, partial_axes, partial_type, halos, offsets = properties
    assert isinstance(grid, SymbolRefAttr) and isinstance(split_axes, GridAxesArrayAttr)
    return Sharding.of(
        grid.root_reference.data,
        split_axes.as_tuples(),
        () if partial_axes is None else partial_axes.get_values(),  # type: ignore[attr-defined]
        ReductionKind.SUM if partial_type is None else partial_type.data,  # type: ignore[attr-defined]
        halo_sizes=halos.get_values(),  # type: ignore[union-attr]
        sharded_dims_offsets=offsets.get_values(),  # type: ignore[union-attr]
    )


def sharding_op(s: Sharding) -> ShardingOp:
    """A `shard.sharding` op stating `s`, made from its layout's properties: propagation
    writes the same few layouts thousands of times, and building the op from Python
    values each time cost more than the rest of the pass."""
    return ShardingOp.create(properties=dict(_sharding_properties(s)), result_types=[_SHARDING])


@functools.lru_cache(maxsize=4096)
def _sharding_properties(s: Sharding) -> tuple[tuple[str, Attribute], ...]:
    """The properties of `s`'s `shard.sharding` op (attributes are immutable, so shared)."""
    op = ShardingOp.from_parts(
        s.grid,
        s.split_axes or ((),),
        partial_axes=s.partial_axes,
        partial_kind=s.partial_kind,
        halo_sizes=s.halo_sizes,  # type: ignore[arg-type]
        sharded_dims_offsets=s.sharded_dims_offsets,  # type: ignore[arg-type]
    )
    return tuple(op.properties.items())


_SHARDING = ShardingType()
_FOR_USERS = UnitAttr()


def annotation(value: SSAValue, s: Sharding, for_users: bool) -> tuple[ShardingOp, ShardOp]:
    """The two ops that annotate `value` with `s`; insert them together."""
    sharding = sharding_op(s)
    return sharding, shard_op(value, sharding.result, for_users)


def shard_op(value: SSAValue, sharding: SSAValue, for_users: bool) -> ShardOp:
    """A `shard.shard` of `value` to the layout `sharding` states."""
    return ShardOp.create(
        operands=[value, sharding],
        result_types=[value.type],
        properties={"annotate_for_users": _FOR_USERS} if for_users else {},
    )


def reading_uses(value: SSAValue) -> list[Use]:
    """The uses of `value` by ops other than `shard.shard`, through the annotations it
    passes (each one value with its annotated result)."""
    found: list[Use] = []
    for use in value.uses:
        if isinstance(use.operation, ShardOp):
            found += reading_uses(use.operation.result)
        else:
            found.append(use)
    return found


def is_result_annotation(op: Operation) -> bool:
    """A `shard.shard` that states its value's layout (not one asked by its users)."""
    return isinstance(op, ShardOp) and op.annotate_for_users is None


def result_annotation(value: SSAValue) -> ShardOp | None:
    """The first `shard.shard` that states `value`'s layout, if any."""
    for use in value.uses:
        if is_result_annotation(use.operation):
            return use.operation  # type: ignore[return-value]
    return None


def base_value(value: SSAValue) -> SSAValue:
    """The value under a chain of `shard.shard` annotations."""
    while isinstance(value.owner, ShardOp):
        value = value.owner.src
    return value


OPEN_DIMS = "xshard.open_dims"
"""Discardable attribute of a `shard.shard` for users (a sharding constraint): the dims
propagation may split further (JAX's `P.UNCONSTRAINED`, Shardy's open `{?}` dims), after
the axes the annotation gives. Every other dim is exactly as written:
`shard.shard %h to %s annotate_for_users {xshard.open_dims = array<i64: 0>} : ...`."""


def open_dims(op: ShardOp) -> frozenset[int]:
    """The dims of `op`'s annotation that propagation may refine (`OPEN_DIMS`)."""
    attr = op.attributes.get(OPEN_DIMS)
    if attr is None:
        return frozenset()
    if not isinstance(attr, DenseArrayBase) or not isinstance(attr.elt_type, IntegerType):
        raise DiagnosticError(op, f"'{OPEN_DIMS}' must be an array<i64: ...> of dims")
    dims = frozenset(attr.get_values())
    rank = op.result.type.get_num_dims() if isinstance(op.result.type, TensorType) else 0
    if any(not 0 <= d < rank for d in dims):
        raise DiagnosticError(op, f"'{OPEN_DIMS}' names a dim outside 0..{rank - 1}")
    return dims  # type: ignore[return-value]


def set_open_dims(op: ShardOp, dims: Iterable[int]) -> None:
    op.attributes[OPEN_DIMS] = DenseArrayBase.from_list(i64, sorted(dims))


SHARDING_OPTION = "shard.sharding_option"
"""Discardable attribute holding the RFC's sharding option on an op:
`{shard.sharding_option = {grid = @g, loops = #shard<axisarray[[], [0]]>}}`, grid axes per loop."""


def sharding_option_of(op: Operation) -> tuple[str, tuple[tuple[int, ...], ...]] | None:
    """The (grid, axes per loop) the user fixed on `op`, if any."""
    attr = op.attributes.get(SHARDING_OPTION)
    if attr is None:
        return None
    if not isinstance(attr, DictionaryAttr):
        raise DiagnosticError(
            op, f"'{SHARDING_OPTION}' must be a dictionary {{grid = @g, loops = ...}}"
        )
    grid = attr.data.get("grid")
    loops = attr.data.get("loops")
    if (
        not isinstance(grid, SymbolRefAttr)
        or grid.nested_references.data
        or not isinstance(loops, GridAxesArrayAttr)
    ):
        raise DiagnosticError(
            op, f"'{SHARDING_OPTION}' needs 'grid = @name' and 'loops = #shard<axisarray[...]>'"
        )
    found = lookup_grid(op, grid)
    if found is None:
        raise DiagnosticError(
            op, f"'{SHARDING_OPTION}' names an undefined grid @{grid.root_reference.data}"
        )
    axes = loops.as_tuples()
    for axis in (a for loop in axes for a in loop):
        if not 0 <= axis < found.rank:
            raise DiagnosticError(
                op,
                f"'{SHARDING_OPTION}' uses grid axis {axis}, "
                f"but @{found.sym_name.data} has rank {found.rank}",
            )
    return grid.root_reference.data, axes
