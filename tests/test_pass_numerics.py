"""The before/after harness for passes over per-device IR notices a wrong rewrite."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xshard.dialects.shard import AllReduceOp
from xshard.testing.pass_numerics import compare_pass

TWO_REDUCES = """
shard.grid @g(shape = 2x4)
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = shard.all_reduce %0 on @g grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}
"""


@dataclass(frozen=True)
class _DropFirstAllReduce(ModulePass):
    """Wrong on purpose: forgets a reduction."""

    name = "drop-first-all-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        first = next(o for o in op.walk() if isinstance(o, AllReduceOp))
        first.result.replace_all_uses_with(first.input)
        first.detach()
        first.erase()


def test_no_pass_matches_itself():
    assert compare_pass(TWO_REDUCES, [], devices=8).match


def test_a_wrong_rewrite_is_caught():
    comparison = compare_pass(TWO_REDUCES, [_DropFirstAllReduce()], devices=8)
    assert not comparison.match
    assert comparison.max_abs_error > 0.1
