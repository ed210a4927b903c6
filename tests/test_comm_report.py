"""comm-report's cost model, and XLA's HLO read by xshard.jax.hlo_collectives."""

import importlib.util
from pathlib import Path

import pytest

from xshard.jax.hlo_collectives import hlo_rows, parse_groups
from xshard.transforms.analysis.comm_report import CommRow, format_groups, report_lines

_TOOL = Path(__file__).parent.parent / "tools" / "xla_comm_report.py"
_spec = importlib.util.spec_from_file_location("xla_comm_report", _TOOL)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


@pytest.mark.parametrize(
    ("kind", "n", "cost"),
    [
        ("all_reduce", 4, 150.0),  # 2 * 3/4 * 100
        ("all_gather", 4, 300.0),
        ("reduce_scatter", 4, 75.0),
        ("all_to_all", 4, 75.0),
        ("collective_permute", 2, 100.0),
        ("broadcast", 4, 100.0),
        ("broadcast", 1, 0.0),
        ("all_slice", 4, 0.0),
    ],
)
def test_ring_model(kind: str, n: int, cost: float):
    assert CommRow("op", "-", "g", n, 100, kind).cost == cost


def test_totals_and_long_groups():
    lines = report_lines("@f", [CommRow("a", "-", "g", 4, 100, "all_reduce")] * 2)
    assert lines[-1].split() == ["//", "total", "2", "collectives", "200", "300"]
    assert format_groups([[i, i + 8] for i in range(8)]) == "8 groups of 2"


@pytest.mark.parametrize(
    ("attrs", "groups"),
    [
        ("replica_groups={{0,2},{1,3}}", [[0, 2], [1, 3]]),
        ("replica_groups=[2,2]<=[4]", [[0, 1], [2, 3]]),
        ("replica_groups=[2,2]<=[2,2]T(1,0)", [[0, 2], [1, 3]]),
        ("replica_groups=mesh['a'=2,'b'=2] {'a'}", [[0, 2], [1, 3]]),
        ("replica_groups={}", [[0, 1, 2, 3]]),
    ],
)
def test_replica_group_forms(attrs: str, groups: list[list[int]]):
    assert parse_groups(attrs, 4) == groups


HLO = """
ENTRY %main {
  %p = f32[4,8]{1,0} parameter(0)
  %b = pred[16]{0} parameter(1)
  %ags = (f32[4,8]{1,0}, f32[16,8]{1,0}) all-gather-start(%p), replica_groups=[1,4]<=[4]
  %agd = f32[16,8]{1,0} all-gather-done(%ags)
  %ar = (f32[4,8]{1,0}, pred[16]{0}) all-reduce(%p, /*index=1*/%b), replica_groups={{0,1},{2,3}}, to_apply=%add
  ROOT %cp = f32[4,8]{1,0} collective-permute(%p), source_target_pairs={{0,1},{1,2},{2,3}}
}
"""


def test_hlo_rows_read_async_tuple_and_permute():
    rows = hlo_rows(HLO, 4)
    assert [(r.op, r.group_size, r.bytes, r.cost) for r in rows] == [
        ("all-gather-start", 4, 128, 384.0),
        ("all-reduce", 2, 144, 144.0),
        ("collective-permute", 2, 128, 128.0),
    ]
    assert rows[2].groups == "3 pairs"


def test_xla_megatron_mlp_is_one_all_reduce():
    (row,) = tool.xla_rows("megatron_mlp")
    assert (row.kind, row.group_size, row.bytes) == ("all_reduce", 8, 16 * 32 * 4)
