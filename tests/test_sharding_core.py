"""Grid, Sharding and shard-shape arithmetic of the dialect-free core."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from xshard.sharding import Grid, ReductionKind, Sharding, ShardingError, shard_offset, shard_shape
from xshard.sharding.simulate import SimulationError, assemble, distribute

G24 = Grid("g", (2, 4))


class Test_Grid:
    def test_queries(self):
        grid = Grid("g", (2, None, 4))
        assert grid.rank == 3
        assert grid.device_count is None
        assert grid.axis_size(2) == 4
        assert grid.group_size([0, 2]) == 8
        assert grid.group_size([0, 1]) is None
        assert G24.device_count == 8

    def test_linear_index_is_row_major(self):
        grid = Grid("g", (10, 20, 30))
        assert grid.linear_index((1, 2, 3)) == 3 + 30 * 2 + 20 * 30 * 1
        assert grid.multi_index(3 + 30 * 2 + 20 * 30 * 1) == (1, 2, 3)

    @given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
    def test_multi_and_linear_index_are_inverse(self, shape, data):
        grid = Grid("g", tuple(shape))
        linear = data.draw(st.integers(0, grid.device_count - 1))
        assert grid.linear_index(grid.multi_index(linear)) == linear

    def test_devices_in_linear_order(self):
        assert G24.devices()[:5] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]

    @pytest.mark.parametrize(
        "make, message",
        [
            (lambda: Grid("g", ()), "rank of grid is expected to be a positive integer"),
            (lambda: Grid("g", (2, -1)), "axis 1 has negative size -1"),
            (
                lambda: G24.axis_size(2),
                'grid axis index 2 is out of bounds. The referenced grid "g" is of rank 2',
            ),
            (lambda: G24.group_size([1, 1]), "grid axis 1 is used more than once"),
            (lambda: G24.multi_index(8), "device 8 is out of range"),
            (lambda: G24.linear_index((0, 4)), "device (0, 4) is not a device of grid @g"),
            (lambda: Grid("g", (2, None)).multi_index(0), "grid @g has a dynamic shape"),
        ],
    )
    def test_errors(self, make, message):
        with pytest.raises(ShardingError, match=message.replace("(", r"\(").replace(")", r"\)")):
            make()


class Test_Sharding:
    def test_trailing_empty_dims_are_dropped(self):
        assert Sharding.of("g", [[0], []]) == Sharding.of("g", [[0]])
        assert Sharding.of("g", [[], []]) == Sharding.replicated("g")
        assert Sharding.of("g", [[], [0]]).split_axes == ((), (0,))

    def test_axis_order_within_a_dim_matters(self):
        assert Sharding.of("g", [[0, 1]]) != Sharding.of("g", [[1, 0]])

    def test_kind_is_sum_when_nothing_is_partial(self):
        assert Sharding.of("g", [[0]], partial_kind="max") == Sharding.of("g", [[0]])
        assert Sharding.of("g", [], [1], "max") != Sharding.of("g", [], [1])

    def test_zero_halos_are_no_halos(self):
        assert Sharding.of("g", [[0]], halo_sizes=[0, 0]) == Sharding.of("g", [[0]])

    def test_queries(self):
        s = Sharding.of(G24, [[], [1]], [0], ReductionKind.MAX, halo_sizes=[1, 2])
        assert not s.is_replicated and s.is_partial
        assert s.split_dims == (1,)
        assert s.axes_of(0) == () and s.axes_of(1) == (1,) and s.axes_of(7) == ()
        assert s.used_axes == (1, 0)
        assert s.halo_of(1) == (1, 2) and s.halo_of(0) == (0, 0)
        assert Sharding.replicated(G24).is_replicated
        assert not Sharding.of("g", [], [0]).is_replicated

    def test_offsets_of_uses_the_product_of_axis_sizes(self):
        s = Sharding.of(G24, [[0, 1]], sharded_dims_offsets=list(range(9)))
        assert s.offsets_of(0, G24) == tuple(range(9))
        # each split dim starts again at 0: non-decreasing is checked per dim
        s = Sharding.of(G24, [[1], [0]], sharded_dims_offsets=[0, 1, 2, 3, 8, 0, 5, 8])
        assert s.offsets_of(0, G24) == (0, 1, 2, 3, 8)
        assert s.offsets_of(1, G24) == (0, 5, 8)

    @pytest.mark.parametrize(
        "text, sharding",
        [
            ("@g split_axes = [[]]", Sharding.replicated("g")),
            ("@g split_axes = [[0], [1]] partial = sum [2]", Sharding.of("g", [[0], [1]], [2])),
            (
                "@g split_axes = [[], [1, 0]] partial = max [2]",
                Sharding.of("g", [[], [1, 0]], [2], "max"),
            ),
            (
                "@g split_axes = [[0]] halo_sizes = [1, ?]",
                Sharding.of("g", [[0]], halo_sizes=[1, None]),
            ),
            (
                "@g split_axes = [[0]] sharded_dims_offsets = [0, 3, 8]",
                Sharding.of("g", [[0]], sharded_dims_offsets=[0, 3, 8]),
            ),
        ],
    )
    def test_str_is_the_mlir_fragment(self, text, sharding):
        assert str(sharding) == text

    @pytest.mark.parametrize(
        "make, message",
        [
            (lambda: Sharding.of("g", [[-1]]), "grid axis is expected to be non-negative, got -1"),
            (lambda: Sharding.of("g", [[0], [0]]), "grid axis 0 duplicated"),
            (lambda: Sharding.of("g", [[0, 0]]), "grid axis 0 duplicated"),
            (lambda: Sharding.of("g", [[0]], [0]), "grid axis 0 duplicated"),
            (lambda: Sharding.of("g", [[0]], halo_sizes=[1, 1, 1, 1]), "2 halo sizes, got 4"),
            (
                lambda: Sharding.of("g", [[0]], halo_sizes=[-1, 1]),
                "halo sizes must be non-negative",
            ),
            (
                lambda: Sharding.of("g", [[0]], halo_sizes=[1, 1], sharded_dims_offsets=[0, 1, 2]),
                "halo sizes and shard offsets are mutually exclusive",
            ),
            (
                lambda: Sharding.of(Grid("g", (2,)), [[0]], sharded_dims_offsets=[0, 5, 3]),
                "must be non-decreasing in dim 0",
            ),
            (lambda: Sharding.of(G24, [[2]]), "grid axis index 2 is out of bounds"),
            (lambda: Sharding.of(G24, [], [5]), "grid axis index 5 is out of bounds"),
            (lambda: Sharding.of(G24, [[1]], sharded_dims_offsets=[0, 8]), "needs 5 .*, got 2"),
            (
                lambda: Sharding.of(Grid("g", (2, None)), [[0]], sharded_dims_offsets=[0, 1, 2]),
                "not allowed for device grids with dynamic shape",
            ),
            (lambda: Sharding.of("h", [[0]]).check(G24), "refers to grid @h, not @g"),
        ],
    )
    def test_errors(self, make, message):
        with pytest.raises(ShardingError, match=message):
            make()

    def test_queries_trust_the_check_made_at_construction(self, monkeypatch):
        grid = Grid("g", (2, 4))
        s = Sharding.of(grid, [[1, 0], []], sharded_dims_offsets=[0, 1, 2, 3, 4, 5, 6, 7, 8])
        checks = []
        monkeypatch.setattr(Grid, "check_axes", lambda self, axes: checks.append(axes))
        for device in grid.devices():
            shard_offset((8, 3), s, grid, device)
            shard_shape((8, 3), s, grid, device)
        assert checks == []

    def test_an_invalid_pair_fails_on_every_query(self):
        s = Sharding.of("g", [[2]])
        for _ in range(2):
            with pytest.raises(ShardingError, match="grid axis index 2 is out of bounds"):
                shard_shape((4,), s, G24)
        with pytest.raises(ShardingError, match=r"device \(0, 4\) is not a device of grid @g"):
            shard_offset((4,), Sharding.of(G24, [[1]]), G24, (0, 4))


class Test_ShardShape:
    @pytest.mark.parametrize(
        "split, expected",
        [
            ([], (16, 8)),
            ([[0]], (8, 8)),
            ([[1]], (4, 8)),
            ([[0, 1]], (2, 8)),
            ([[1], [0]], (4, 4)),
            ([[], [0, 1]], (16, 1)),
        ],
    )
    def test_split_dims_divide_by_the_product_of_axis_sizes(self, split, expected):
        assert shard_shape((16, 8), Sharding.of(G24, split), G24) == expected

    def test_partial_axes_do_not_change_the_shape(self):
        assert shard_shape((16, 8), Sharding.of(G24, [[1]], [0]), G24) == (4, 8)

    def test_dynamic_dims_and_axes(self):
        grid = Grid("g", (2, None))
        assert shard_shape((None, 8), Sharding.of(grid, [[0], [1]]), grid) == (None, None)
        assert shard_shape((6, 8), Sharding.of(grid, [[0]]), grid) == (3, 8)

    def test_halos_add_lo_and_hi(self):
        # the upstream example: [[0]] halo [1, 1] on tensor<16x8> over 4 devices is 6x8
        grid = Grid("g", (4,))
        assert shard_shape((16, 8), Sharding.of(grid, [[0]], halo_sizes=[1, 1]), grid) == (6, 8)
        assert shard_shape((16, 8), Sharding.of(grid, [[], [0]], halo_sizes=[0, 3]), grid) == (
            16,
            5,
        )
        assert shard_shape((16, 8), Sharding.of(grid, [[0]], halo_sizes=[1, None]), grid) == (
            None,
            8,
        )

    def test_offsets(self):
        # the upstream example: offsets [0, 24, 32] on 2 shards give 24 and 8 rows
        grid = Grid("g", (2,))
        s = Sharding.of(grid, [[0]], sharded_dims_offsets=[0, 24, 32])
        assert shard_shape((32, 8), s, grid) == (None, 8)
        assert shard_shape((32, 8), s, grid, (0,)) == (24, 8)
        assert shard_shape((32, 8), s, grid, (1,)) == (8, 8)
        even = Sharding.of(grid, [[0]], sharded_dims_offsets=[0, 16, 32])
        assert shard_shape((32, 8), even, grid) == (16, 8)
        assert shard_offset((32, 8), s, grid, (1,)) == (24, 0)

    def test_offsets_count_shards_as_a_product(self):
        # 22.1.8 would expect 2 + 4 + 1 offsets here; the 8 shards need 9
        s = Sharding.of(G24, [[0, 1]], sharded_dims_offsets=[0, 1, 2, 3, 4, 5, 6, 7, 10])
        assert shard_shape((10, 3), s, G24, (1, 3)) == (3, 3)
        assert shard_offset((10, 3), s, G24, (1, 2)) == (6, 0)

    def test_uneven_shards_need_not_divide(self):
        grid = Grid("g", (2,))
        s = Sharding.of(grid, [[0]], sharded_dims_offsets=[0, 2, 7])
        assert shard_shape((7,), s, grid, (1,)) == (5,)

    def test_shard_offset_is_mixed_radix_major_to_minor(self):
        # dim 0 split over [1, 0]: axis 1 is major, so device (1, 2) holds shard 2*2 + 1
        assert shard_offset((16, 8), Sharding.of(G24, [[1, 0]]), G24, (1, 2)) == (10, 0)
        assert shard_offset((16, 8), Sharding.of(G24, [[0, 1]]), G24, (1, 2)) == (12, 0)
        assert shard_offset((16, 8), Sharding.of(G24, [[], [1]]), G24, (1, 3)) == (0, 6)

    @pytest.mark.parametrize(
        "make, message",
        [
            (
                lambda: shard_shape((6, 8), Sharding.of(G24, [[1]]), G24),
                r"dim 0 of size 6 is not divisible by the 4 shards of grid axes \[1\]",
            ),
            (
                lambda: shard_shape((8,), Sharding.of(G24, [[], [1]]), G24),
                "splits dim 1 of a tensor of rank 1",
            ),
            (
                lambda: shard_shape(
                    (9, 8),
                    Sharding.of(Grid("g", (2,)), [[0]], sharded_dims_offsets=[0, 4, 8]),
                    Grid("g", (2,)),
                ),
                "offsets of dim 0 end at 8, not at its size 9",
            ),
            (
                lambda: shard_offset((None, 8), Sharding.of(G24, [[0]]), G24, (1, 0)),
                "only known at run time",
            ),
        ],
    )
    def test_errors(self, make, message):
        with pytest.raises(ShardingError, match=message):
            make()


class Test_Simulator:
    """distribute/assemble are the oracle of the planner tests; check them on their own."""

    X = np.arange(16 * 8, dtype=np.float64).reshape(16, 8)

    def test_blocks_are_the_slices_at_shard_offset(self):
        s = Sharding.of(G24, [[1, 0]])
        blocks = distribute(self.X, s, G24)
        np.testing.assert_array_equal(blocks[(1, 2)], self.X[10:12])

    @pytest.mark.parametrize("kind", ["sum", "average", "product", "max", "min"])
    def test_partial_operands_combine_to_the_value_and_differ(self, kind):
        s = Sharding.of(G24, [[0]], [1], kind)
        blocks = distribute(self.X, s, G24)
        assert not np.array_equal(blocks[(0, 0)], blocks[(0, 1)])
        np.testing.assert_allclose(assemble(blocks, s, G24, self.X.shape), self.X)

    @pytest.mark.parametrize("kind", ["bitwise_and", "bitwise_or", "bitwise_xor"])
    def test_bitwise_partials(self, kind):
        x = np.arange(64, dtype=np.int64).reshape(8, 8)
        s = Sharding.of(G24, [], [0, 1], kind)
        np.testing.assert_array_equal(assemble(distribute(x, s, G24), s, G24, x.shape), x)

    def test_halos_hold_neighbour_data(self):
        grid = Grid("g", (4,))
        s = Sharding.of(grid, [[0]], halo_sizes=[1, 2])
        blocks = distribute(self.X, s, grid)
        np.testing.assert_array_equal(blocks[(1,)], self.X[3:10])
        np.testing.assert_array_equal(blocks[(0,)][0], np.zeros(8))  # past the edge
        np.testing.assert_array_equal(assemble(blocks, s, grid, self.X.shape), self.X)

    def test_assemble_rejects_disagreeing_replicas(self):
        s = Sharding.of(G24, [[0]])
        blocks = distribute(self.X, s, G24)
        blocks[(0, 3)] = blocks[(0, 3)] + 1
        with pytest.raises(SimulationError, match=r"device \(0, 3\) disagrees with a replica"):
            assemble(blocks, s, G24, self.X.shape)

    def test_assemble_rejects_wrong_halo_and_shape(self):
        grid = Grid("g", (4,))
        s = Sharding.of(grid, [[0]], halo_sizes=[1, 1])
        blocks = distribute(self.X, s, grid)
        blocks[(2,)][0, 0] += 1
        with pytest.raises(SimulationError, match="halo of device"):
            assemble(blocks, s, grid, self.X.shape)
        with pytest.raises(SimulationError, match=r"holds a \(16, 8\) block"):
            assemble(distribute(self.X, Sharding.replicated(grid), grid), s, grid, self.X.shape)
