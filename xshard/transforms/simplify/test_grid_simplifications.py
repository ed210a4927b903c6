"""`test-grid-simplifications`: what upstream's pass of that name does, under its name,
so that upstream RUN lines run unchanged.

Two rewrites, to a fixed point:
- the all-reduce endomorphisms: `op(all_reduce(x), all_reduce(y))` becomes
  `all_reduce(op(x, y))` for the arith ops of `distributivity.ARITH_COMBINERS`
  (`addf`/`addi` over sum, the min ops over min, the max ops over max), under
  `shard-reassociate-all-reduce`'s conditions (same grid, axes and kind, element
  type kept, each all-reduce feeding only `op`);
- `shard-simplify`'s `FoldGridShape`: static grid sizes become constants.
`shard-simplify` does all of this and more; this pass does no more than upstream.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from xshard.transforms.simplify.distributivity import ARITH_COMBINERS
from xshard.transforms.simplify.reassociate_all_reduce import ReassociateAllReduce
from xshard.transforms.simplify.shard_simplify import FoldGridShape


class ArithAllReduceEndomorphism(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) in ARITH_COMBINERS:
            ReassociateAllReduce().match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class TestGridSimplificationsPass(ModulePass):
    """Upstream's grid simplifications.

    All-reduce endomorphisms and `grid_shape` folding, under upstream's pass name.
    """

    name = "test-grid-simplifications"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [ArithAllReduceEndomorphism(), FoldGridShape()]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, dce_enabled=False)
        ).rewrite_module(op)
