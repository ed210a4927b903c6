"""`test-grid-process-multi-index-op-lowering`: upstream's test pass of that name,
under its name, so that upstream RUN lines run unchanged.

Each `shard.process_multi_index` becomes this device's linear index
(`shard.process_linear_index`) split on the grid's shape (`shard.grid_shape` of all
axes) by `affine.delinearize_index`; the op's axes pick coordinates from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from xshard.dialects.affine import DelinearizeIndexOp
from xshard.dialects.shard import (
    GridShapeOp,
    ProcessLinearIndexOp,
    ProcessMultiIndexOp,
    lookup_grid,
)


def _lower(op: ProcessMultiIndexOp) -> None:
    grid = lookup_grid(op, op.grid)
    assert grid is not None, "the verifier checked the symbol"
    linear = ProcessLinearIndexOp(grid)
    shape = GridShapeOp(grid)
    coordinates = DelinearizeIndexOp(linear.results[0], list(shape.results))
    axes = op.axes.get_values() or tuple(range(grid.rank))
    Rewriter.replace_op(
        op, [linear, shape, coordinates], [coordinates.multi_index[a] for a in axes]
    )


@dataclass(frozen=True)
class TestGridProcessMultiIndexOpLoweringPass(ModulePass):
    """Lower shard.process_multi_index.

    To the linear index, split on the grid shape.
    """

    name = "test-grid-process-multi-index-op-lowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for query in [o for o in op.walk() if isinstance(o, ProcessMultiIndexOp)]:
            _lower(query)
