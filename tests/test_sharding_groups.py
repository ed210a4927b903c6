"""Device groups of collectives: the shard dialect's rule, checked against its docs and
against an independent numpy formulation."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from xshard.sharding import Grid, ShardingError, device_groups, group_of, in_group_index


def test_examples_match_jax_replica_groups():
    assert device_groups((2, 4), [1]) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert device_groups((2, 4), [0]) == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert device_groups((2, 4), [0, 1]) == [list(range(8))]
    assert device_groups((2, 4), [1, 0]) == [[0, 4, 1, 5, 2, 6, 3, 7]]
    assert device_groups((2, 4), []) == [[i] for i in range(8)]


def test_doc_example_groups_fix_the_other_axes():
    # Shard.md: on 2x3x4x5 with grid_axes [0, 1], (1,0,2,3) and (1,1,2,3) share a group,
    # (1,0,2,4) does not
    grid = Grid("g", (2, 3, 4, 5))
    group = group_of(grid.shape, [0, 1], (1, 0, 2, 3))
    assert grid.linear_index((1, 1, 2, 3)) in group
    assert grid.linear_index((1, 0, 2, 4)) not in group
    assert len(group) == 6


def test_doc_example_order_follows_grid_axes_outer_to_inner():
    # Shard.md: with grid_axes [3, 1], (i,1,k,0) comes before (i,0,k,1) and (i,2,k,0)
    shape = (2, 3, 4, 5)
    before = in_group_index(shape, [3, 1], (1, 1, 2, 0))
    assert before < in_group_index(shape, [3, 1], (1, 0, 2, 1))
    assert before < in_group_index(shape, [3, 1], (1, 2, 2, 0))


def _grid_and_axes():
    return st.lists(st.integers(1, 4), min_size=1, max_size=4).flatmap(
        lambda shape: st.tuples(
            st.just(tuple(shape)),
            st.permutations(range(len(shape))).flatmap(
                lambda order: st.integers(0, len(shape)).map(lambda k: list(order[:k]))
            ),
        )
    )


@given(_grid_and_axes())
def test_groups_match_a_transpose_of_the_device_array(case):
    """Moving the grouped axes last (in order) and flattening gives the groups as rows."""
    shape, axes = case
    fixed = [a for a in range(len(shape)) if a not in axes]
    ids = np.arange(int(np.prod(shape))).reshape(shape).transpose(fixed + axes)
    size = int(np.prod([shape[a] for a in axes]))
    assert device_groups(shape, axes) == ids.reshape(-1, size).tolist()


@given(_grid_and_axes(), st.data())
def test_group_of_and_in_group_index_agree_with_device_groups(case, data):
    shape, axes = case
    grid = Grid("g", shape)
    device = grid.multi_index(data.draw(st.integers(0, grid.device_count - 1)))
    group = group_of(shape, axes, device)
    assert group in device_groups(shape, axes)
    assert group[in_group_index(shape, axes, device)] == grid.linear_index(device)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: device_groups((2, 4), [2]), "grid axis index 2 is out of bounds"),
        (lambda: device_groups((2, 4), [0, 0]), "grid axis 0 is used more than once"),
        (lambda: device_groups((2, None), [0]), "dynamic shape"),
        (lambda: in_group_index((2, 4), [1], (0, 4)), r"device \(0, 4\) is not a device"),
        (lambda: group_of((2, 4), [1], (0,)), r"device \(0,\) is not a device"),
    ],
)
def test_errors(call, message):
    with pytest.raises(ShardingError, match=message):
        call()
