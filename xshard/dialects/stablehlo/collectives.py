"""The six StableHLO collectives, in the generic form JAX prints them.

Property names and spellings are upstream StableHLO's, e.g.

    %r = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64,
           channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
           replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>,
           use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x16xf32>

How `replica_groups` ids are read (the spec's process-group strategies): with no channel
(or handle <= 0) they are replica ids; with a channel, all_to_all, collective_permute and
collective_broadcast use partition ids; all_reduce, all_gather and reduce_scatter use
flattened ids (`replica * num_partitions + partition`) with `use_global_device_ids`, and
replica ids without it. Ids are checked against the enclosing module's
`mhlo.num_replicas` / `mhlo.num_partitions` when it has them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_result_def,
)

from xshard.dialects.stablehlo.attributes import ChannelHandleAttr
from xshard.dialects.stablehlo.checks import element_type, fail, is_unique, shape, shapes_match
from xshard.dialects.stablehlo.elementwise import AddOp, BinaryElementwiseOp
from xshard.dialects.stablehlo.reduction import reducer_region, verify_reducer

# ---------------------------------------------------------------- id tables


def id_table(rows: Sequence[Sequence[int]]) -> DenseIntOrFPElementsAttr:
    """`replica_groups` / `source_target_pairs` as the i64 matrix StableHLO stores."""
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        raise ValueError(f"every group must have the same size, got sizes {sorted(widths)}")
    width = widths.pop() if widths else 0
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(rows), width]), [i for r in rows for i in r]
    )


def id_rows(table: DenseIntOrFPElementsAttr) -> list[list[int]]:
    """The rows of an id matrix."""
    values = [int(v) for v in table.get_values()]
    dims = table.get_shape()
    width = dims[1] if len(dims) == 2 else 0
    return [values[i : i + width] for i in range(0, len(values), width)] if width else []


def _channel(value: int | ChannelHandleAttr | None) -> dict[str, Attribute]:
    if value is None:
        return {}
    return {"channel_handle": value if isinstance(value, ChannelHandleAttr)
            else ChannelHandleAttr(value)}


def _module_process_counts(op: Operation) -> tuple[int, int] | None:
    """(num_replicas, num_partitions) of the nearest enclosing op that declares them."""
    parent = op.parent_op()
    while parent is not None:
        partitions = parent.attributes.get("mhlo.num_partitions")
        if isinstance(partitions, IntegerAttr):
            replicas = parent.attributes.get("mhlo.num_replicas")
            num_replicas = replicas.value.data if isinstance(replicas, IntegerAttr) else 1
            return num_replicas, partitions.value.data
        parent = parent.parent_op()
    return None


class CollectiveOp(IRDLOperation):
    """Shared checks of the collectives (not an op itself)."""

    channel_handle = opt_prop_def(ChannelHandleAttr)

    USES_GLOBAL_DEVICE_IDS: ClassVar[bool] = False
    """Whether the op has `use_global_device_ids` (all_reduce, all_gather, reduce_scatter)."""

    @property
    def channel_id(self) -> int:
        return self.channel_handle.handle.data if self.channel_handle is not None else 0

    def _id_bound(self) -> tuple[str, int] | None:
        """Which ids the groups hold and how many processes have one, when known."""
        counts = _module_process_counts(self)
        if counts is None:
            return None
        replicas, partitions = counts
        if self.channel_id <= 0:
            return "replica", replicas
        if not self.USES_GLOBAL_DEVICE_IDS:
            return "partition", partitions
        if "use_global_device_ids" in self.properties:
            return "flattened", replicas * partitions
        return "replica", replicas

    def _check_ids(self, name: str, ids: Sequence[int]) -> None:
        for i in ids:
            if i < 0:
                fail(self, f"{name} must hold ids >= 0, got {i}")
        bound = self._id_bound()
        if bound is not None:
            kind, count = bound
            for i in ids:
                if i >= count:
                    fail(self, f"{name} holds {kind} id {i}, but there are {count} "
                               f"(from the module's mhlo.num_replicas/mhlo.num_partitions)")

    def _check_global_ids(self) -> None:
        if "use_global_device_ids" in self.properties and self.channel_id <= 0:
            fail(self, "use_global_device_ids requires a channel_handle with handle > 0")

    def _groups(self, table: DenseIntOrFPElementsAttr) -> list[list[int]]:
        dims = table.get_shape()
        if len(dims) != 2 or not isinstance(table.get_element_type(), IntegerType):
            fail(self, f"replica_groups must be a 2-d integer tensor, got {table.type}")
        groups = id_rows(table)
        flat = [i for g in groups for i in g]
        if not is_unique(flat):
            fail(self, f"replica_groups must not repeat an id, got {groups}")
        self._check_ids("replica_groups", flat)
        return groups

    def _group_size(self, table: DenseIntOrFPElementsAttr) -> int | None:
        """Processes per group, when `replica_groups` alone determines it."""
        groups = self._groups(table)
        if not groups:
            return None
        if (
            self.channel_id > 0
            and self.USES_GLOBAL_DEVICE_IDS
            and "use_global_device_ids" not in self.properties
        ):
            # cross_replica_and_partition: each group of replicas spans every partition
            counts = _module_process_counts(self)
            return len(groups[0]) * counts[1] if counts else None
        return len(groups[0])


def _values(operands: SSAValue | Operation | Sequence[SSAValue | Operation]) -> list[SSAValue]:
    if isinstance(operands, SSAValue | Operation):
        return [SSAValue.get(operands)]
    return [SSAValue.get(v) for v in operands]


def _resized(value: SSAValue, dim: int, size: int) -> TensorType:
    assert isinstance(value.type, TensorType)
    dims = list(value.type.get_shape())
    dims[dim] = size
    return TensorType(value.type.element_type, dims)


def _global_ids(use_global_device_ids: bool) -> dict[str, Attribute]:
    return {"use_global_device_ids": UnitAttr()} if use_global_device_ids else {}


def _check_same_types(op: Operation, operands: Sequence[SSAValue],
                      results: Sequence[SSAValue]) -> None:
    if len(operands) != len(results):
        fail(op, f"expects one result per operand, got {len(operands)} operands and "
                 f"{len(results)} results")
    for i, (a, b) in enumerate(zip(operands, results, strict=True)):
        if a.type != b.type:
            fail(op, f"result {i} must have the operand's type {a.type}, got {b.type}")


# ---------------------------------------------------------------- all_reduce


@irdl_op_definition
class AllReduceOp(CollectiveOp):
    """Within each process group, reduce every operand with `computation`; all members get
    the result. https://openxla.org/stablehlo/spec#all_reduce"""

    name = "stablehlo.all_reduce"

    inputs = var_operand_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    results_ = var_result_def(TensorType)
    computation = region_def("single_block")
    USES_GLOBAL_DEVICE_IDS: ClassVar[bool] = True

    def __init__(
        self,
        operands: SSAValue | Operation | Sequence[SSAValue | Operation],
        *,
        replica_groups: Sequence[Sequence[int]],
        body_op_class: type[BinaryElementwiseOp] = AddOp,
        channel_handle: int | ChannelHandleAttr | None = 1,
        use_global_device_ids: bool = True,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        values = _values(operands)
        super().__init__(
            operands=[values],
            result_types=[[v.type for v in values]],
            properties=_channel(channel_handle)
            | {"replica_groups": id_table(replica_groups)}
            | _global_ids(use_global_device_ids),
            regions=[reducer_region(body_op_class, [element_type(values[0].type)])],
            attributes=attributes,
        )

    def verify_(self) -> None:
        self._check_global_ids()
        self._groups(self.replica_groups)
        _check_same_types(self, self.inputs, self.results_)
        # One binary reducer for every operand (spec C5), unlike `reduce`'s n-ary body.
        elements = {element_type(v.type) for v in self.inputs}
        if len(elements) > 1:
            fail(self, f"operands must share one element type, got {sorted(map(str, elements))}")
        if elements:
            verify_reducer(self, self.computation, [elements.pop()])


# ---------------------------------------------------------------- all_gather


@irdl_op_definition
class AllGatherOp(CollectiveOp):
    """Within each group, concatenate the members' operands along `all_gather_dim`, in group
    order. https://openxla.org/stablehlo/spec#all_gather"""

    name = "stablehlo.all_gather"

    inputs = var_operand_def(TensorType)
    all_gather_dim = prop_def(IntegerAttr[I64])
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    results_ = var_result_def(TensorType)
    USES_GLOBAL_DEVICE_IDS: ClassVar[bool] = True

    def __init__(
        self,
        operands: SSAValue | Operation | Sequence[SSAValue | Operation],
        *,
        all_gather_dim: int,
        replica_groups: Sequence[Sequence[int]],
        channel_handle: int | ChannelHandleAttr | None = 1,
        use_global_device_ids: bool = True,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        values = _values(operands)
        group_size = len(replica_groups[0]) if replica_groups else 1
        super().__init__(
            operands=[values],
            result_types=[[
                _resized(v, all_gather_dim, shape(v.type)[all_gather_dim] * group_size)
                for v in values
            ]],
            properties={"all_gather_dim": IntegerAttr(all_gather_dim, i64)}
            | _channel(channel_handle)
            | {"replica_groups": id_table(replica_groups)}
            | _global_ids(use_global_device_ids),
            attributes=attributes,
        )

    def verify_(self) -> None:
        self._check_global_ids()
        group_size = self._group_size(self.replica_groups)
        dim = self.all_gather_dim.value.data
        if len(self.inputs) != len(self.results_):
            fail(self, f"expects one result per operand, got {len(self.inputs)} operands and "
                       f"{len(self.results_)} results")
        for i, (operand, result) in enumerate(zip(self.inputs, self.results_, strict=True)):
            operand_shape, result_shape = shape(operand.type), shape(result.type)
            if not 0 <= dim < len(operand_shape):
                fail(self, f"all_gather_dim {dim} is out of range [0, {len(operand_shape)})")
            if element_type(operand.type) != element_type(result.type):
                fail(self, f"result {i} must have element type {element_type(operand.type)}")
            expected = list(operand_shape)
            if group_size is not None and operand_shape[dim] >= 0:
                expected[dim] = operand_shape[dim] * group_size
            else:
                expected[dim] = result_shape[dim] if len(result_shape) > dim else -1
            if not shapes_match(expected, result_shape):
                fail(self, f"result {i} must have shape {expected} (operand dimension {dim} "
                           f"times the group size {group_size}), got {list(result_shape)}")


# ---------------------------------------------------------------- reduce_scatter


@irdl_op_definition
class ReduceScatterOp(CollectiveOp):
    """Within each group, reduce the operands with `computation`, split the result along
    `scatter_dimension` and give member i the i-th part.
    https://openxla.org/stablehlo/spec#reduce_scatter"""

    name = "stablehlo.reduce_scatter"

    operand = operand_def(TensorType)
    scatter_dimension = prop_def(IntegerAttr[I64])
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    result = result_def(TensorType)
    computation = region_def("single_block")
    USES_GLOBAL_DEVICE_IDS: ClassVar[bool] = True

    def __init__(
        self,
        operand: SSAValue | Operation,
        *,
        scatter_dimension: int,
        replica_groups: Sequence[Sequence[int]],
        body_op_class: type[BinaryElementwiseOp] = AddOp,
        channel_handle: int | ChannelHandleAttr | None = 1,
        use_global_device_ids: bool = True,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        value = SSAValue.get(operand)
        group_size = len(replica_groups[0]) if replica_groups else 1
        super().__init__(
            operands=[value],
            result_types=[
                _resized(value, scatter_dimension,
                         shape(value.type)[scatter_dimension] // group_size)
            ],
            properties=_channel(channel_handle)
            | {"replica_groups": id_table(replica_groups),
               "scatter_dimension": IntegerAttr(scatter_dimension, i64)}
            | _global_ids(use_global_device_ids),
            regions=[reducer_region(body_op_class, [element_type(value.type)])],
            attributes=attributes,
        )

    def verify_(self) -> None:
        self._check_global_ids()
        group_size = self._group_size(self.replica_groups)
        dim = self.scatter_dimension.value.data
        operand_shape, result_shape = shape(self.operand.type), shape(self.result.type)
        if not 0 <= dim < len(operand_shape):
            fail(self, f"scatter_dimension {dim} is out of range [0, {len(operand_shape)})")
        if element_type(self.operand.type) != element_type(self.result.type):
            fail(self, f"result must have element type {element_type(self.operand.type)}")
        expected = list(operand_shape)
        if group_size is not None and operand_shape[dim] >= 0:
            if operand_shape[dim] % group_size:
                fail(self, f"operand dimension {dim} ({operand_shape[dim]}) is not divisible "
                           f"by the group size {group_size}")
            expected[dim] = operand_shape[dim] // group_size
        else:
            expected[dim] = result_shape[dim] if len(result_shape) > dim else -1
        if not shapes_match(expected, result_shape):
            fail(self, f"result must have shape {expected} (operand dimension {dim} divided by "
                       f"the group size {group_size}), got {list(result_shape)}")
        verify_reducer(self, self.computation, [element_type(self.operand.type)])


# ---------------------------------------------------------------- all_to_all


@irdl_op_definition
class AllToAllOp(CollectiveOp):
    """Within each group, split each operand into `split_count` parts along
    `split_dimension`, send part j to member j, and concatenate what arrives along
    `concat_dimension`. https://openxla.org/stablehlo/spec#all_to_all"""

    name = "stablehlo.all_to_all"

    inputs = var_operand_def(TensorType)
    split_dimension = prop_def(IntegerAttr[I64])
    concat_dimension = prop_def(IntegerAttr[I64])
    split_count = prop_def(IntegerAttr[I64])
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    results_ = var_result_def(TensorType)

    def __init__(
        self,
        operands: SSAValue | Operation | Sequence[SSAValue | Operation],
        *,
        split_dimension: int,
        concat_dimension: int,
        split_count: int,
        replica_groups: Sequence[Sequence[int]],
        channel_handle: int | ChannelHandleAttr | None = 1,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        values = _values(operands)
        result_types = []
        for v in values:
            dims = list(shape(v.type))
            dims[split_dimension] //= split_count
            dims[concat_dimension] *= split_count
            result_types.append(TensorType(element_type(v.type), dims))
        super().__init__(
            operands=[values],
            result_types=[result_types],
            properties=_channel(channel_handle)
            | {"concat_dimension": IntegerAttr(concat_dimension, i64),
               "replica_groups": id_table(replica_groups),
               "split_count": IntegerAttr(split_count, i64),
               "split_dimension": IntegerAttr(split_dimension, i64)},
            attributes=attributes,
        )

    def verify_(self) -> None:
        groups = self._groups(self.replica_groups)
        split_dim = self.split_dimension.value.data
        concat_dim = self.concat_dimension.value.data
        count = self.split_count.value.data
        if count <= 0:
            fail(self, f"split_count must be positive, got {count}")
        if groups and len(groups[0]) != count:
            fail(self, f"group size ({len(groups[0])}) must equal split_count ({count})")
        if len(self.inputs) != len(self.results_):
            fail(self, f"expects one result per operand, got {len(self.inputs)} operands and "
                       f"{len(self.results_)} results")
        for i, (operand, result) in enumerate(zip(self.inputs, self.results_, strict=True)):
            operand_shape = shape(operand.type)
            rank = len(operand_shape)
            for name, dim in (("split_dimension", split_dim), ("concat_dimension", concat_dim)):
                if not 0 <= dim < rank:
                    fail(self, f"{name} {dim} is out of range [0, {rank})")
            if operand_shape[split_dim] >= 0 and operand_shape[split_dim] % count:
                fail(self, f"operand {i} dimension {split_dim} ({operand_shape[split_dim]}) is "
                           f"not divisible by split_count ({count})")
            expected = list(operand_shape)
            if expected[split_dim] >= 0:
                expected[split_dim] //= count
            if expected[concat_dim] >= 0:
                expected[concat_dim] *= count
            if element_type(result.type) != element_type(operand.type) or not shapes_match(
                expected, shape(result.type)
            ):
                fail(self, f"result {i} must be {TensorType(element_type(operand.type), expected)}"
                           f", got {result.type}")


# ---------------------------------------------------------------- collective_permute


@irdl_op_definition
class CollectivePermuteOp(CollectiveOp):
    """Each (source, target) pair sends the source's operand to the target; processes that
    are no target get zeros. https://openxla.org/stablehlo/spec#collective_permute"""

    name = "stablehlo.collective_permute"

    operand = operand_def(TensorType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    def __init__(
        self,
        operand: SSAValue | Operation,
        *,
        source_target_pairs: Sequence[tuple[int, int] | Sequence[int]],
        channel_handle: int | ChannelHandleAttr | None = 1,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        value = SSAValue.get(operand)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties=_channel(channel_handle)
            | {"source_target_pairs": id_table(source_target_pairs)},
            attributes=attributes,
        )

    def verify_(self) -> None:
        table = self.source_target_pairs
        dims = table.get_shape()
        if len(dims) != 2 or dims[1] != 2 or not isinstance(table.get_element_type(),
                                                             IntegerType):
            fail(self, f"source_target_pairs must be an Nx2 integer tensor, got {table.type}")
        pairs = id_rows(table)
        sources, targets = [p[0] for p in pairs], [p[1] for p in pairs]
        if not is_unique(sources):
            fail(self, f"source_target_pairs must not repeat a source, got {pairs}")
        if not is_unique(targets):
            fail(self, f"source_target_pairs must not repeat a target, got {pairs}")
        self._check_ids("source_target_pairs", sources + targets)
        _check_same_types(self, [self.operand], [self.result])


# ---------------------------------------------------------------- collective_broadcast


@irdl_op_definition
class CollectiveBroadcastOp(CollectiveOp):
    """Within each group, every member gets the operand of the group's first process;
    processes in no group get zeros. https://openxla.org/stablehlo/spec#collective_broadcast

    XLA:CPU cannot run it (docs/jax-bridge.md, "collective_broadcast on XLA:CPU").
    """

    name = "stablehlo.collective_broadcast"

    operand = operand_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    def __init__(
        self,
        operand: SSAValue | Operation,
        *,
        replica_groups: Sequence[Sequence[int]],
        channel_handle: int | ChannelHandleAttr | None = 1,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        value = SSAValue.get(operand)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties=_channel(channel_handle) | {"replica_groups": id_table(replica_groups)},
            attributes=attributes,
        )

    def verify_(self) -> None:
        self._groups(self.replica_groups)  # (C1) unique, (C2) 0 <= id < N
        _check_same_types(self, [self.operand], [self.result])  # (C3)
