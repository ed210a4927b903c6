"""The resharding planner: exact plans for the cases upstream and the issue name, clear
refusals, and a sweep that runs every plan on per-device numpy blocks."""

import re
from collections import Counter
from fractions import Fraction
from itertools import chain, combinations, permutations

import numpy as np
import pytest

from xshard.sharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    Grid,
    MakePartial,
    ReduceScatter,
    ReductionKind,
    ReshardError,
    Sharding,
    UpdateHalo,
    plan_reshard,
    step_cost,
)
from xshard.sharding.simulate import SimulationError, apply_step, assemble, distribute

G22 = Grid("g", (2, 2))
G24 = Grid("g", (2, 4))
G222 = Grid("g", (2, 2, 2))
MAX, MIN = ReductionKind.MAX, ReductionKind.MIN


def run_plan(src, dst, grid, x, seed=0):
    """Plan, then run the plan on blocks of `x` and read the result back as `dst`."""
    plan = plan_reshard(src, dst, x.shape, grid)
    blocks = distribute(x, src, grid, np.random.default_rng(seed))
    for step, shape in zip(plan.steps, plan.local_shapes[:-1], strict=True):
        assert {b.shape for b in blocks.values()} == {shape}
        blocks = apply_step(blocks, step, grid)
    assert {b.shape for b in blocks.values()} == {plan.local_shapes[-1]}
    return plan, assemble(blocks, dst, grid, x.shape)


def steps(src, dst, grid, shape=(8, 8)):
    return list(plan_reshard(src, dst, shape, grid).steps)


# 22.1.8's single-step reshards that it gets right (mlir-shard.md §6.2): same step here
@pytest.mark.parametrize(
    "src, dst, expected",
    [
        ([[0]], [], AllGather((0,), 0)),
        ([], [[0]], AllSlice((0,), 0)),
        ([[0]], [[], [0]], AllToAll((0,), 1, 0)),
        ([[0, 1]], [[0]], AllGather((1,), 0)),
        ([[0]], [[0, 1]], AllSlice((1,), 0)),
        ([[0], [1]], [[], [1]], AllGather((0,), 0)),
        ([[0], [1]], [[0]], AllGather((1,), 1)),
    ],
)
def test_single_step_reshards_match_upstream(src, dst, expected):
    assert steps(Sharding.of(G22, src), Sharding.of(G22, dst), G22) == [expected]


def test_unsplit_several_axes_is_one_all_gather():
    assert steps(Sharding.of(G22, [[0, 1]]), Sharding.of(G22, []), G22) == [AllGather((0, 1), 0)]


def test_split_several_axes_is_one_all_slice():
    assert steps(Sharding.of(G22, []), Sharding.of(G22, [[0, 1]]), G22) == [AllSlice((0, 1), 0)]


def test_cases_that_22_1_8_gets_wrong_reach_the_target():
    x = np.arange(64.0).reshape(8, 8)
    for src, dst in [([[0], [1]], [[1], [0]]), ([[0], [1]], [[], [1, 0]]), ([[0, 1]], [[0], [1]])]:
        _, result = run_plan(Sharding.of(G22, src), Sharding.of(G22, dst), G22, x)
        np.testing.assert_array_equal(result, x)


def test_22_1_8_swap_plan_is_caught_by_the_simulator():
    """The oracle is not trivially satisfied: 22.1.8's one all_to_all for a swap fails."""
    x = np.arange(64.0).reshape(8, 8)
    src, dst = Sharding.of(G22, [[0], [1]]), Sharding.of(G22, [[1], [0]])
    blocks = apply_step(distribute(x, src, G22), AllToAll((0,), 1, 0), G22)
    with pytest.raises(SimulationError):
        assemble(blocks, dst, G22, x.shape)


def test_swap_uses_all_to_alls_only():
    plan = plan_reshard(Sharding.of(G24, [[0], [1]]), Sharding.of(G24, [[1], [0]]), (16, 16), G24)
    assert all(isinstance(step, AllToAll) for step in plan.steps)
    gather_then_slice = plan_reshard(
        Sharding.of(G24, [[0], [1]]), Sharding.of(G24, [[0]]), (16, 16), G24
    )
    assert plan.cost < gather_then_slice.cost


def test_partial_to_replicated_is_all_reduce():
    src = Sharding.of(G24, [], [0, 1])
    assert steps(src, Sharding.of(G24, []), G24) == [AllReduce((0, 1))]
    assert steps(src, Sharding.of(G24, [], [1]), G24) == [AllReduce((0,))]


@pytest.mark.parametrize("kind", [ReductionKind.SUM, MAX, MIN, ReductionKind.PRODUCT])
def test_partial_to_split_is_reduce_scatter(kind):
    src = Sharding.of(G24, [], [1], kind)
    plan = plan_reshard(src, Sharding.of(G24, [[], [1]]), (8, 8), G24)
    assert list(plan.steps) == [ReduceScatter((1,), 1, kind)]
    x = np.arange(1.0, 65.0).reshape(8, 8)
    np.testing.assert_allclose(run_plan(src, Sharding.of(G24, [[], [1]]), G24, x)[1], x)


def test_partial_reduce_scatters_as_the_next_minor_axis():
    src = Sharding.of(G24, [[0]], [1])
    assert steps(src, Sharding.of(G24, [[0, 1]]), G24) == [ReduceScatter((1,), 0)]


def test_halo_change_is_update_halo():
    grid = Grid("g", (4,))
    src = Sharding.of(grid, [[0]], halo_sizes=[1, 1])
    dst = Sharding.of(grid, [[0]], halo_sizes=[2, 2])
    plan = plan_reshard(src, dst, (16, 8), grid)
    assert list(plan.steps) == [UpdateHalo(((0,),), (1, 1), (2, 2))]
    assert plan.local_shapes == ((6, 8), (8, 8))
    x = np.arange(128.0).reshape(16, 8)
    np.testing.assert_array_equal(run_plan(src, dst, grid, x)[1], x)


def test_halos_are_dropped_and_restored_around_a_split_change():
    src = Sharding.of(G22, [[0], [1]], halo_sizes=[1, 1, 2, 1])
    dst = Sharding.of(G22, [[1]], halo_sizes=[1, 2])
    plan, result = run_plan(src, dst, G22, np.arange(64.0).reshape(8, 8))
    assert plan.steps[0] == UpdateHalo(((0,), (1,)), (1, 1, 2, 1), ())
    assert plan.steps[-1] == UpdateHalo(((1,),), (), (1, 2))
    np.testing.assert_array_equal(result, np.arange(64.0).reshape(8, 8))


def test_all_reduce_keeps_halos():
    src = Sharding.of(G24, [[0]], [1], halo_sizes=[1, 1])
    dst = Sharding.of(G24, [[0]], halo_sizes=[1, 1])
    plan, result = run_plan(src, dst, G24, np.arange(64.0).reshape(8, 8))
    assert list(plan.steps) == [AllReduce((1,))]
    np.testing.assert_array_equal(result, np.arange(64.0).reshape(8, 8))


def test_equal_layouts_need_no_step():
    s = Sharding.of(G24, [[1]], sharded_dims_offsets=[0, 1, 2, 3, 8])
    assert plan_reshard(s, s, (8, 8), G24).steps == ()
    src, dst = Sharding.of(G24, [], [0, 1]), Sharding.of(G24, [], [1, 0])
    assert plan_reshard(src, dst, (8, 8), G24).steps == ()


def test_step_cost_is_the_ring_model():
    shape = (4, 8)  # 32 elements of 4 bytes = 128 bytes in
    assert step_cost(AllGather((1,), 0), shape, 4, G24) == Fraction(3, 4) * 512
    assert step_cost(AllReduce((0, 1)), shape, 4, G24) == 2 * Fraction(7, 8) * 128
    assert step_cost(ReduceScatter((1,), 0), shape, 4, G24) == Fraction(3, 4) * 128
    assert step_cost(AllToAll((0,), 1, 0), shape, 4, G24) == Fraction(1, 2) * 128
    assert step_cost(AllSlice((0, 1), 0), shape, 4, G24) == 0
    # 6x8 block with halos (1, 1) -> 7x8 with (2, 1): the 3 halo rows are fetched
    assert step_cost(UpdateHalo(((0,),), (1, 1), (2, 1)), (6, 8), 4, G24) == 3 * 8 * 4


def test_slicing_first_makes_the_reduce_scatter_cheaper():
    src, dst = Sharding.of(G24, [], [0]), Sharding.of(G24, [[0], [1]])
    plan = plan_reshard(src, dst, (8, 8), G24, elem_bytes=2)
    assert list(plan.steps) == [AllSlice((1,), 1), ReduceScatter((0,), 0)]
    # reduce_scatter over 2 devices of an 8x2 block of 2-byte elements: half of 32 bytes
    assert plan.local_shapes == ((8, 8), (8, 2), (4, 2))
    assert plan.step_costs == (0, 16) and plan.cost == 16


@pytest.mark.parametrize(
    "src, dst, shape, message",
    [
        (Sharding.of("h", [[0]]), Sharding.of(G24, []), (8, 8), "the grids differ"),
        (
            Sharding.of(G24, []),
            Sharding.of(G24, [[1]]),
            (6, 8),
            "target sharding: dim 0 of size 6 is not divisible by the 4",
        ),
        (Sharding.of(G24, [[1]]), Sharding.of(G24, []), (6, 8), "source sharding: dim 0 of size 6"),
        (
            Sharding.of(G24, [], [0], ReductionKind.SUM),
            Sharding.of(G24, [], [0, 1], ReductionKind.GENERIC),
            (8, 8),
            r"generic operands over grid axes \[0, 1\] where the source does not",
        ),
        (
            Sharding.of(G24, [[1]], sharded_dims_offsets=[0, 1, 2, 3, 8]),
            Sharding.of(G24, [[1]]),
            (8, 8),
            "uneven shardings",
        ),
        (
            Sharding.of(G24, [[1]], halo_sizes=[1, None]),
            Sharding.of(G24, [[1]]),
            (8, 8),
            "halo sizes known only at run time",
        ),
    ],
)
def test_refusals(src, dst, shape, message):
    with pytest.raises(ReshardError, match=message):
        plan_reshard(src, dst, shape, G24)


# --- making a value partial: no communication ---------------------------------------


@pytest.mark.parametrize("kind", [ReductionKind.SUM, ReductionKind.PRODUCT, MAX, MIN])
def test_replicated_to_partial_is_one_free_make_partial(kind):
    src, dst = Sharding.of(G24, []), Sharding.of(G24, [], [1, 0], kind)
    x = np.arange(1.0, 65.0).reshape(8, 8)
    plan, result = run_plan(src, dst, G24, x)
    assert list(plan.steps) == [MakePartial((0, 1), kind)] and plan.cost == 0
    np.testing.assert_array_equal(result, x)


def test_make_partial_keeps_the_value_on_the_first_device_of_each_group_only():
    x = np.arange(16.0).reshape(4, 4)
    blocks = apply_step(distribute(x, Sharding.of(G24, []), G24), MakePartial((1,)), G24)
    assert [np.array_equal(blocks[(i, j)], x) for i in (0, 1) for j in range(4)] == [
        True, False, False, False, True, False, False, False
    ]  # fmt: skip
    assert all(not blocks[(i, j)].any() for i in (0, 1) for j in (1, 2, 3))
    maxed = apply_step(distribute(x, Sharding.of(G24, []), G24), MakePartial((1,), MAX), G24)
    assert all(np.array_equal(b, x) for b in maxed.values())


@pytest.mark.parametrize(
    "src, dst, expected",
    [
        ([[0]], ([], [1]), [AllGather((0,), 0), MakePartial((1,))]),
        ([], ([[0]], [1]), [AllSlice((0,), 0), MakePartial((1,))]),
        ([[0]], ([[0]], [1]), [MakePartial((1,))]),
        ([[1]], ([], [1]), [AllGather((1,), 0), MakePartial((1,))]),
    ],
)
def test_partial_targets_reached_through_make_partial(src, dst, expected):
    src, dst = Sharding.of(G24, src), Sharding.of(G24, *dst)
    x = np.arange(64.0).reshape(8, 8)
    plan, result = run_plan(src, dst, G24, x)
    assert list(plan.steps) == expected
    np.testing.assert_array_equal(result, x)


def test_partial_kinds_change_by_settling_then_making_partial():
    src, dst = Sharding.of(G24, [], [0], MAX), Sharding.of(G24, [], [0, 1])
    x = np.arange(64.0).reshape(8, 8)
    plan, result = run_plan(src, dst, G24, x)
    assert list(plan.steps) == [AllReduce((0,), MAX), MakePartial((0, 1))]
    np.testing.assert_array_equal(result, x)


def test_make_partial_keeps_halos():
    src = Sharding.of(G24, [[1]], halo_sizes=[1, 1])
    dst = Sharding.of(G24, [[1]], [0], halo_sizes=[1, 1])
    plan, result = run_plan(src, dst, G24, np.arange(64.0).reshape(8, 8))
    assert list(plan.steps) == [MakePartial((0,))]
    np.testing.assert_array_equal(result, np.arange(64.0).reshape(8, 8))


def test_make_partial_checks_its_input():
    with pytest.raises(ReshardError, match="unused"):
        MakePartial((0,)).apply(Sharding.of(G24, [[0]]))
    with pytest.raises(ReshardError, match="partial kinds differ"):
        MakePartial((1,)).apply(Sharding.of(G24, [], [0], MAX))


def test_dynamic_dims_get_a_plan_with_dynamic_local_shapes():
    plan = plan_reshard(Sharding.of(G24, [[0]]), Sharding.of(G24, [[], [0]]), (None, 8), G24)
    assert list(plan.steps) == [AllToAll((0,), 1, 0)]
    assert plan.local_shapes == ((None, 8), (None, 4))


# --- the sweep -------------------------------------------------------------------------


def _layouts(grid):
    """Each dim of a 2-D tensor unsplit, on one axis, or on two axes in either order."""
    per_dim = [()] + [(a,) for a in range(grid.rank)] + list(permutations(range(grid.rank), 2))
    return [(d0, d1) for d0 in per_dim for d1 in per_dim if not set(d0) & set(d1)]


def _shardings(grid):
    """The layouts, each also partial (sum) over every non-empty set of unused axes."""
    result = []
    for d0, d1 in _layouts(grid):
        free = [a for a in range(grid.rank) if a not in d0 + d1]
        for partial in chain.from_iterable(combinations(free, k) for k in range(len(free) + 1)):
            result.append(Sharding.of(grid, [d0, d1], partial))
    return result


def _naive_cost(src, dst, grid, shape):
    """All-reduce, gather every dim, slice every dim: what a plan must not exceed."""
    naive = [AllReduce(tuple(a for a in src.partial_axes if a not in dst.partial_axes))]
    naive += [AllGather(src.axes_of(d), d) for d in range(2) if src.axes_of(d)]
    naive += [AllSlice(dst.axes_of(d), d) for d in range(2) if dst.axes_of(d)]
    total, layout, local = Fraction(0), src, plan_reshard(src, src, shape, grid).local_shapes[0]
    for step in naive:
        total += step_cost(step, local, 4, grid)
        layout, local = step.apply(layout), step.result_shape(local, grid)
    return total


@pytest.mark.parametrize("grid, shape", [(G24, (8, 16)), (G222, (8, 4)), (G24, (4, 6))])
def test_sweep_every_plan_runs_to_its_target(grid, shape):
    x = np.random.default_rng(7).integers(-50, 50, size=shape).astype(np.float64)
    shardings = _shardings(grid)
    covered, refused = 0, Counter()
    for src in shardings:
        for dst in shardings:
            try:
                plan, result = run_plan(src, dst, grid, x, seed=covered)
            except ReshardError as error:
                refused[re.sub(r" \((sharding|making) .*", "", str(error).split(": ", 1)[1])] += 1
                continue
            np.testing.assert_array_equal(result, x, err_msg=f"{src} -> {dst}: {plan}")
            assert plan.cost <= _naive_cost(src, dst, grid, shape), f"{src} -> {dst}"
            covered += 1
    print(
        f"\n{grid.shape} {shape}: {covered} pairs planned and simulated, "
        f"{sum(refused.values())} refused"
    )
    for reason, count in refused.most_common():
        print(f"  {count:5d} refused: {reason}")
    pairs = len(shardings) ** 2
    assert covered + sum(refused.values()) == pairs
    if shape == (4, 6):  # only dims that do not divide are refused
        assert covered >= pairs // 10
        assert all(r.startswith(("source sharding: dim", "target sharding: dim")) for r in refused)
    else:
        assert not refused
