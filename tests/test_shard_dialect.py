"""The Python API of the `shard` dialect: builders, accessors and verifier errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, f32, f64
from xdsl.dialects.test import TestOp
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import VerifyException

from xshard.context import xshard_context
from xshard.dialects.shard import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    BroadcastOp,
    GatherOp,
    GridOp,
    GridShapeOp,
    NeighborsLinearIndicesOp,
    ProcessLinearIndexOp,
    ProcessMultiIndexOp,
    RecvOp,
    ReduceOp,
    ReduceScatterOp,
    ScatterOp,
    SendOp,
    ShardingOp,
    ShardOp,
    ShardShapeOp,
    ShiftOp,
    UpdateHaloOp,
    group_size,
    lookup_grid,
)
from xshard.sharding.reduction import ReductionKind
from xshard.xdsl_compat.printing import text as _text


def _module(*ops) -> ModuleOp:
    return ModuleOp(list(ops))


def _function(block: Block) -> func.FuncOp:
    block.add_op(func.ReturnOp())
    return func.FuncOp("f", (block.arg_types, ()), Region(block))


def test_grid_shape_tuple_marks_dynamic_axes():
    grid = GridOp("g", [2, None, 4])
    assert grid.shape_tuple() == (2, None, 4)
    assert grid.shape.get_values() == (2, DYNAMIC_INDEX, 4)
    assert grid.rank == 3
    assert _text(grid) == "shard.grid @g(shape = 2x?x4)"


def test_group_size_is_the_product_over_the_axes():
    assert group_size((0, 2), (2, 3, 4)) == 8
    assert group_size((), (2, 3, 4)) == 1
    assert group_size((1,), (2, DYNAMIC_INDEX)) == DYNAMIC_INDEX


def test_lookup_grid_uses_the_nearest_symbol_table():
    outer = GridOp("g", [2])
    inner = GridOp("g", [8])
    query = ProcessLinearIndexOp("g")
    outer_query = ProcessLinearIndexOp("g")
    _module(outer, outer_query, ModuleOp([inner, query]))
    assert lookup_grid(query, "g") is inner
    assert lookup_grid(outer_query, "g") is outer
    assert lookup_grid(query, "missing") is None
    assert lookup_grid(ProcessLinearIndexOp("g"), "g") is None  # detached: no table


def test_sharding_from_parts_and_accessors():
    sharding = ShardingOp.from_parts(
        "g", [[0], [], [1, 2]], partial_axes=(3,), partial_kind=ReductionKind.MAX
    )
    assert sharding.split_axes_lists() == ((0,), (), (1, 2))
    assert sharding.partial_axes_tuple() == (3,)
    assert sharding.partial_kind() == ReductionKind.MAX
    assert _text(sharding).endswith(
        "shard.sharding @g split_axes = [[0], [], [1, 2]] partial = max [3] : !shard.sharding"
    )
    _module(GridOp("g", [2, 2, 2, 2]), sharding).verify()


def test_sharding_without_partial_axes_stores_no_partial_property():
    sharding = ShardingOp.from_parts("g", [[0]], halo_sizes=(1, 2))
    assert sharding.partial_axes is None and sharding.partial_type is None
    assert sharding.partial_axes_tuple() == ()
    assert sharding.partial_kind() == ReductionKind.SUM
    assert sharding.mixed_halo_sizes() == (1, 2)
    assert "partial" not in _text(sharding)


def test_sharding_mixed_values_keep_ssa_positions():
    value = TestOp(result_types=[TensorType(f32, [1])]).results[0]
    sharding = ShardingOp("g", [[0]], sharded_dims_offsets=(0, value, 4))
    assert sharding.static_sharded_dims_offsets.get_values() == (0, DYNAMIC_INDEX, 4)
    assert sharding.mixed_sharded_dims_offsets() == (0, value, 4)


@pytest.mark.parametrize(
    ("split", "partial", "message"),
    [
        ([[0], [1]], (1,), "grid axis duplicated"),
        ([[0]], (0,), "grid axis duplicated"),
        ([[0]], (5,), "0-based grid axis index 5 is out of bounds"),
        ([[-1]], (), "grid axis is expected to be non-negative"),
    ],
)
def test_sharding_verifier_rejects_bad_axes(split, partial, message):
    module = _module(GridOp("g", [2, 2]), ShardingOp.from_parts("g", split, partial))
    with pytest.raises(VerifyException, match=message):
        module.verify()


def test_sharding_verifier_needs_the_grid():
    with pytest.raises(VerifyException, match='Undefined required grid symbol "g".'):
        _module(ShardingOp.from_parts("g", [[0]])).verify()


def test_shard_op_builder():
    block = Block(arg_types=[TensorType(f32, [4, 8])])
    with ImplicitBuilder(block):
        sharding = ShardingOp.from_parts("g", [[0]])
        plain = ShardOp(block.args[0], sharding.result)
        users = ShardOp(plain.result, sharding.result, annotate_for_users=True)
    assert plain.annotate_for_users is None
    assert users.annotate_for_users is not None
    assert users.result.type == block.args[0].type
    assert "annotate_for_users" in _text(users)


def _collectives_module() -> ModuleOp:
    """Every collective built through its constructor, on a 2x4 grid."""
    grid = GridOp("g", [2, 4])
    func_block = Block(arg_types=[TensorType(f32, [4, 8])])
    x = func_block.args[0]
    with ImplicitBuilder(func_block):
        root = TestOp(result_types=[ProcessLinearIndexOp("g").result.type]).results[0]
        AllGatherOp(x, "g", [1], 0, TensorType(f32, [16, 8]))
        AllReduceOp(x, "g", [0, 1], ReductionKind.MAX, TensorType(f64, [4, 8]))
        AllSliceOp(x, grid, [1], 1, TensorType(f32, [4, 2]))
        AllToAllOp(x, "g", [1], 0, 1, TensorType(f32, [1, 32]))
        BroadcastOp(x, "g", [0], [root])
        GatherOp(x, "g", [1], 1, [3], TensorType(f32, [4, 32]))
        RecvOp(x, "g", [0])
        RecvOp(x, "g", [0, 1], source=[1, 3])
        ReduceOp(x, "g", [1], [2], ReductionKind.MIN)
        ReduceScatterOp(x, "g", [0], 0, TensorType(f32, [2, 8]))
        ScatterOp(x, "g", [0], 1, [0], TensorType(f32, [4, 4]))
        SendOp(x, "g", [1], [root])
        ShiftOp(x, "g", [1], 1, -1, rotate=True)
        GridShapeOp(grid)
        ProcessMultiIndexOp("g", [1])
        NeighborsLinearIndicesOp("g", [root, root], [0])
        UpdateHaloOp(x, "g", [[0]], [1, 1])
        ShardShapeOp([4, 8], ShardingOp.from_parts("g", [[0]]).result, [root, 0])
    return _module(grid, _function(func_block))


def test_collective_builders_give_valid_ir_that_round_trips():
    module = _collectives_module()
    module.verify()
    text = _text(module)
    reparsed = Parser(xshard_context(allow_unregistered=True), text).parse_module()
    reparsed.verify()
    assert _text(reparsed) == text


def test_builders_store_upstream_properties():
    module = _collectives_module()
    ops = {op.name: op for op in module.walk()}
    assert ops["shard.all_reduce"].reduction.data == ReductionKind.MAX
    assert ops["shard.all_gather"].grid_axes_tuple() == (1,)
    assert ops["shard.shift"].rotate is not None
    recvs = [op for op in module.walk() if isinstance(op, RecvOp)]
    assert recvs[0].source is None
    assert recvs[1].source is not None and recvs[1].source.get_values() == (1, 3)
    assert len(ops["shard.grid_shape"].results) == 2


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda x: AllGatherOp(x, "g", [1], 0, TensorType(f32, [8, 8])),
            "Dimension size mismatch for result axis 0. Expected 16, but got 8.",
        ),
        (
            lambda x: AllSliceOp(x, "g", [0, 1], 0, TensorType(f32, [1, 8])),
            "Operand dimension size 4 is not divisible by collective device group size 8",
        ),
        (lambda x: BroadcastOp(x, "g", [1], [4]), 'Out of bounds coordinate 0 for in-group'),
        (lambda x: ShiftOp(x, "g", [0], 1, 1), "Invalid shift axis 1."),
        (lambda x: AllReduceOp(x, "g", [0, 0]), "Grid axes contains duplicate elements."),
    ],
)
def test_collective_verifier_errors(build, message):
    block = Block(arg_types=[TensorType(f32, [4, 8])])
    with ImplicitBuilder(block):
        build(block.args[0])
    module = _module(GridOp("g", [2, 4]), _function(block))
    with pytest.raises(VerifyException, match=message):
        module.verify()


def test_all_axes_query_needs_the_grid_op():
    with pytest.raises(ValueError, match="grid op is needed"):
        GridShapeOp("g")


DOC = Path(__file__).parents[1] / "docs" / "dialects" / "shard.md"
DOC_EXAMPLES = re.findall(r"```mlir\n(.*?)```", DOC.read_text(), re.S)


def _parse(text: str) -> ModuleOp:
    module = Parser(xshard_context(), text).parse_module()
    module.verify()
    return module


@pytest.mark.parametrize("example", DOC_EXAMPLES)
def test_doc_examples_verify_and_round_trip(example: str):
    printed = _text(_parse(example))
    assert _text(_parse(printed)) == printed


def test_doc_canonicalization_example_shows_the_real_output():
    before, after = DOC_EXAMPLES[-2:]
    module = _parse(before)
    CanonicalizePass().apply(xshard_context(), module)
    assert _text(module) == _text(_parse(after))
