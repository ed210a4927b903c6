"""The communication cost model (`xshard.sharding.cost_model`), against figures computed
by hand from its α-β formulas."""

from __future__ import annotations

import pytest

from xshard.sharding.cost_model import (
    CPU_SIMULATION,
    NVLINK,
    CostModel,
    LinkConfig,
    collective_bytes,
    shard_bytes,
)
from xshard.sharding.grid import Grid
from xshard.sharding.resharding import AllGather, AllSlice, MakePartial, UpdateHalo
from xshard.sharding.sharding import Sharding

GRID = Grid("g", (2, 4))
UNIT = LinkConfig(latency=1.0, bandwidth=1.0)  # a second a step, a second a byte


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("all_gather", 3 * 100),
        ("all_reduce", 2 * 3 / 4 * 100),
        ("reduce_scatter", 3 / 4 * 100),
        ("all_to_all", 3 / 4 * 100),
        ("collective_permute", 100),
        ("collective_broadcast", 100),
    ],
)
def test_bytes_each_device_sends(kind, expected):
    assert collective_bytes(kind, 100, 4) == pytest.approx(expected)
    assert collective_bytes(kind, 100, 1) == 0


@pytest.mark.parametrize(
    "kind, algorithm, expected",
    [
        # ring over n = 4: (n-1) steps, all_reduce twice as many
        ("all_gather", "ring", 3 + 300),
        ("all_reduce", "ring", 6 + 150),
        ("reduce_scatter", "ring", 3 + 75),
        # tree over n = 4: log2 4 = 2 rounds; all_to_all stays pairwise
        ("all_gather", "tree", 2 + 300),
        ("all_reduce", "tree", 4 + 150),
        ("all_to_all", "tree", 3 + 75),
        ("collective_permute", "tree", 1 + 100),
    ],
)
def test_alpha_beta_time_on_one_axis(kind, algorithm, expected):
    model = CostModel(LinkConfig(1.0, 1.0, algorithm))
    assert model.collective_time(kind, 100, [1], GRID) == pytest.approx(expected)


def test_a_group_over_two_axes_runs_at_its_slowest_link():
    slow = LinkConfig(latency=2.0, bandwidth=0.5)
    model = CostModel(UNIT, axes=(slow, None))
    # n = 8: 7 ring steps at α = 2, 7 * 10 bytes at 2 s a byte
    assert model.collective_time("all_gather", 10, [0, 1], GRID) == pytest.approx(7 * 2 + 140)
    assert model.collective_time("all_gather", 10, [1], GRID) == pytest.approx(3 + 30)
    assert model.collective_time("all_gather", 10, [], GRID) == 0


def test_reshard_time_sums_the_planned_steps():
    model = CostModel(UNIT)
    split = Sharding("g", ((0,), (1,)))
    rows = Sharding("g", ((0,),))
    # [8, 16] f32 split 2x4 -> rows only: all_gather of a 4x4 block (64 B) over axis 1
    assert model.reshard_time(split, rows, (8, 16), GRID) == pytest.approx(3 + 3 * 64)
    # partial over axis 1 -> replicated: all_reduce of the whole 8x16 (512 B), n = 4
    partial = Sharding("g", (), partial_axes=(1,))
    assert model.reshard_time(partial, Sharding("g"), (8, 16), GRID) == pytest.approx(
        6 + 2 * 3 / 4 * 512
    )
    # ... -> split over axis 1 on dim 0: one reduce_scatter beats all_reduce + slice
    scattered = Sharding("g", ((1,),))
    assert model.reshard_time(partial, scattered, (8, 16), GRID) == pytest.approx(3 + 3 / 4 * 512)
    assert model.reshard_time(rows, rows, (8, 16), GRID) == 0


def test_local_steps_are_free_and_halos_pay_for_what_they_fetch():
    model = CostModel(UNIT)
    assert model.step_time(AllSlice((1,), 0), (8, 16), 4, GRID) == 0
    assert model.step_time(MakePartial((1,)), (8, 16), 4, GRID) == 0
    assert model.step_time(AllGather((1,), 0), (2, 16), 4, GRID) == pytest.approx(3 + 3 * 128)
    # one split dim, halos 1 + 1 rows of 16 f32 fetched: 2 exchanges and 128 B
    halo = UpdateHalo(((1,),), (), (1, 1))
    assert model.step_time(halo, (2, 16), 4, GRID) == pytest.approx(2 + 128)


def test_per_device_memory():
    assert shard_bytes((8, 16), 4, None, GRID) == 512
    assert shard_bytes((8, 16), 4, Sharding("g", ((0,), (1,))), GRID) == 64
    assert shard_bytes((8, 16), 2, Sharding("g", ((0, 1),)), GRID) == 32
    halos = Sharding("g", ((1,),), halo_sizes=(1, 1))
    assert shard_bytes((8, 16), 4, halos, GRID) == 4 * 4 * 16  # 2 rows + 2 halo rows
    assert shard_bytes((8, 16), 4, Sharding("g", (), partial_axes=(0,)), GRID) == 512


def test_presets_rank_links_and_refuse_nonsense():
    assert NVLINK.bandwidth > CPU_SIMULATION.bandwidth
    assert NVLINK.latency < CPU_SIMULATION.latency
    with pytest.raises(ValueError):
        LinkConfig(latency=-1.0, bandwidth=1.0)
    with pytest.raises(ValueError):
        LinkConfig(latency=0.0, bandwidth=0.0)


@pytest.mark.parametrize("kind", ["all_reduce", "all_gather", "reduce_scatter", "all_to_all"])
@pytest.mark.parametrize("axes", [(0,), (1,), (0, 1)])
def test_a_collective_priced_by_group_size_costs_what_it_does_on_its_axes(kind, axes) -> None:
    """`group_time` (a compiled program's collective: only its group size is known)
    agrees with `collective_time` on the axes that make such a group, on one link."""
    model = CostModel()
    n = 1
    for a in axes:
        n *= GRID.shape[a]
    assert model.group_time(kind, 4096, n) == pytest.approx(
        model.collective_time(kind, 4096, axes, GRID)
    )
    assert model.group_time(kind, 4096, 1) == 0.0


def test_a_complex_element_holds_both_its_parts() -> None:
    """complex<f32> takes 8 bytes and complex<f64> 16 (XLA's c64, c128); a tensor of
    them is counted, not left out as one of elements with no width."""
    from xdsl.dialects.builtin import ComplexType, IndexType, TensorType, f32, f64

    from xshard.sharding.tensor_bytes import element_bytes, tensor_bytes

    assert element_bytes(TensorType(ComplexType(f32), [4])) == 8
    assert tensor_bytes(TensorType(ComplexType(f64), [2, 3])) == 96
    assert tensor_bytes(TensorType(IndexType(), [4])) is None
