"""`sharding-propagation`: complete sharding annotations across each function.

It follows MLIR 22's pass of the same name step for step, so both choose the
same split axes for every value (tests/test_propagation_differential.py checks
this against `mlir-opt-22`). Ops are visited in the chosen traversal order
(the default `backward-forward` sweeps back, then forth); each visit reads the
annotations now on the IR around the op and writes its choice back as
`shard.shard` ops at once, so later visits see it:

- annotations the op must keep: a result's only user is a `shard.shard`
  without `annotate_for_users`, or an operand comes from one with it; the
  others (a result used by `annotate_for_users` annotations, an operand from a
  result annotation) may be overridden, at the price of a reshard;
- every combination of the annotations to keep with a subset of the others is
  tried (results before operands, keeping an annotation before dropping it);
  the first option needing no reshard wins; otherwise the first one that
  reshards only annotations not written for this op; otherwise the first one;
- the option is written as one result annotation per tensor result and one
  `annotate_for_users` annotation per tensor operand (scalars from constants
  are left alone); where it contradicts an annotation, the two are chained,
  i.e. a reshard for `shard-partition`.

Differences from upstream, on purpose:
- a split contracting or reduction loop leaves its results *partial*
  (`partial = sum [axis]`) instead of an all-reduce, and linear ops let partial
  operands through (see `PartialRule`); partial axes never change which split
  axes are chosen (reshards are ranked on split axes alone);
- at the end, a tensor argument without a result annotation gets one: the split
  axes of its first `annotate_for_users` user written by this pass (the layout
  upstream's partition gives it too), never partial: callers hand whole values,
  which are made partial for free where a user wants; the user's own annotations
  on an argument's uses are left as written; likewise a returned value this pass
  made partial is settled before it leaves, unless the user annotated it partial;
- an op may carry `shard.sharding_option` (the RFC's sharding option on
  operations), which propagation takes as given;
- an op without a sharding model is an error naming it, never silently
  replicated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, IsTerminator

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import GetShardingOp, GridOp, ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import (
    annotation,
    is_result_annotation,
    sharding_of,
    sharding_option_of,
)
from xshard.interfaces.models import model_for
from xshard.interfaces.region_flow import function_ops, region_flow
from xshard.interfaces.sharding_interface import ShardingRule, is_tensor
from xshard.interfaces.sharding_model import UnsupportedOp
from xshard.interfaces.sharding_option import (
    Annotation,
    ShardingConflict,
    ShardingOption,
    infer_option,
    operand_layout,
    option_fits,
    option_from_loops,
    result_sharding,
    without_partial,
)
from xshard.sharding.grid import Grid
from xshard.sharding.sharding import Sharding
from xshard.transforms.paused_collector import paused_collector
from xshard.transforms.propagation.factor_propagation import FactorPropagation

Traversal = Literal["forward", "backward", "forward-backward", "backward-forward"]

NO_RESHARD, RESHARD_OTHERS, RESHARD_OWN = 0, 1, 2
"""Ranks of an option, best first: no reshard; reshards only of annotations not
written for this op; reshards of annotations written for this op."""


def _is_use_annotation(op: Operation) -> bool:
    return isinstance(op, ShardOp) and op.annotate_for_users is not None


def needs_model(op: Operation) -> bool:
    if isinstance(op, ShardOp | ShardingOp | GetShardingOp | GridOp) or op.has_trait(IsTerminator):
        return False
    if (op.has_trait(ConstantLike) or region_flow(op) is not None) and model_for(op) is None:
        return False  # a constant without a model; a manual computation (partitioned by its flow)
    return any(is_tensor(v) for v in (*op.operands, *op.results))


def rule_of(op: Operation) -> ShardingRule:
    """`op`'s sharding rule, or a located error saying why it has none."""
    model = model_for(op)
    if model is None:
        raise DiagnosticError(op, f"'{op.name}' has no sharding model, so it cannot be sharded")
    try:
        return model.rule(op)
    except UnsupportedOp as err:
        raise DiagnosticError(op, f"'{op.name}' cannot be sharded: {err}") from err


def _before(a: Operation, b: Operation) -> bool:
    """Whether `a` comes before `b` in their block (ops of different blocks: no)."""
    return a.parent is b.parent and a.is_before_in_block(b)


def _choices(found: list[tuple[bool, Annotation] | None]) -> Iterator[tuple]:
    """Every combination keeping each annotation to keep and keeping, then dropping, the others."""
    slots = [(None,) if f is None else (f[1],) if f[0] else (f[1], None) for f in found]
    return product(*slots)


class _FunctionPropagation:
    def __init__(self, fn: func.FuncOp, traversal: Traversal):
        self.fn = fn
        self.traversal = traversal
        self.rules: dict[Operation, ShardingRule] = {}
        self.fixed: dict[Operation, ShardingOption] = {}
        self.age: dict[ShardOp, int] = {}
        """When each `shard.shard` took its operand: of several use annotations, the newest wins."""
        self.written: dict[ShardingOp, tuple[tuple[int, ...], ...]] = {}
        """Split axes lists of the shardings this pass wrote, as upstream writes them:
        trailing unsplit dims dropped, but one kept unless the tensor is 0-d."""
        self.shardings: dict[ShardingOp, Sharding] = {}
        self.parsed = 0
        """How many `shard.shard` ops the function had before the pass."""
        self.rewriter = Rewriter()
        self.grids: dict[str, Grid | None] = {}

    @property
    def block(self) -> Block:
        if len(self.fn.body.blocks) != 1:
            raise DiagnosticError(self.fn, "only functions with one block are supported")
        return self.fn.body.block

    def run(self) -> None:
        block = self.block
        ops = [op for op in block.ops if needs_model(op)]
        for op in ops:
            self.rules[op] = self.rule_of(op)
        for op in block.ops:
            if isinstance(op, ShardOp):
                self.age[op] = len(self.age)
        self.parsed = len(self.age)
        orders = {
            "forward": [ops],
            "backward": [ops[::-1]],
            "forward-backward": [ops, ops[::-1]],
            "backward-forward": [ops[::-1], ops],
        }[self.traversal]
        for order in orders:
            for op in order:
                self.visit(op)
        self.annotate_arguments()
        self.settle_results()

    def rule_of(self, op: Operation) -> ShardingRule:
        rule = rule_of(op)
        if (given := sharding_option_of(op)) is not None:
            grid, loops = given
            try:
                self.fixed[op] = option_from_loops(rule, grid, loops)
            except ShardingConflict as err:
                raise DiagnosticError(op, f"invalid sharding option: {err}") from err
        return rule

    def sharding(self, shard: ShardOp) -> Sharding:
        op = shard.sharding.owner
        if not isinstance(op, ShardingOp) or op not in self.shardings:
            s = sharding_of(shard.sharding, shard)
            assert isinstance(op, ShardingOp)
            self.shardings[op] = s
        return self.shardings[op]

    def read(self, shard: ShardOp) -> Annotation:
        s = self.sharding(shard)
        op = shard.sharding.owner
        assert isinstance(op, ShardingOp)
        split = self.written[op] if op in self.written else op.split_axes_lists()
        return Annotation(s, split)

    def result_annotation(self, value: SSAValue) -> tuple[bool, Annotation] | None:
        """(must keep, annotation) for a result, read as upstream's `getSharding` does."""
        users = [use.operation for use in value.uses]
        if any(map(is_result_annotation, users)):
            if len(users) != 1:
                return None
            assert isinstance(users[0], ShardOp)
            return True, self.read(users[0])
        flagged = [u for u in users if isinstance(u, ShardOp)]
        if not flagged:
            return None
        return False, self.read(max(flagged, key=lambda u: self.age[u]))

    def operand_annotation(self, value: SSAValue) -> tuple[bool, Annotation] | None:
        owner = value.owner
        if not isinstance(owner, ShardOp):
            return None
        return owner.annotate_for_users is not None, self.read(owner)

    def visit(self, op: Operation) -> None:
        rule = self.rules[op]
        option = self.fixed.get(op) or self.select(op, rule)
        if option is None:
            return
        for j, r in enumerate(op.results):
            if is_tensor(r):
                self.annotate_result(op, r, result_sharding(rule, option, j))
        for i, v in enumerate(op.operands):
            if (s := operand_layout(rule, option, i, v)) is not None:
                self.annotate_operand(op, i, s)

    def select(self, op: Operation, rule: ShardingRule) -> ShardingOption | None:
        results = [self.result_annotation(r) if is_tensor(r) else None for r in op.results]
        operands = [self.operand_annotation(v) for v in op.operands]
        best: tuple[int, ShardingOption] | None = None
        for result_choice in _choices(results):
            for operand_choice in _choices(operands):
                try:
                    option = infer_option(rule, operand_choice, result_choice)
                except ShardingConflict:
                    continue
                if option is None or not self.fits(op, rule, option):
                    continue
                rank = self.rank(op, rule, option)
                if rank == NO_RESHARD:
                    return option
                if best is None or rank < best[0]:
                    best = (rank, option)
        return None if best is None else best[1]

    def fits(self, op: Operation, rule: ShardingRule, option: ShardingOption) -> bool:
        """Whether `option` splits every tensor evenly: one that does not is never written."""
        if option.grid not in self.grids:
            found = lookup_grid(op, SymbolRefAttr(option.grid))
            shape = None if found is None else found.shape_tuple()
            self.grids[option.grid] = None if shape is None else Grid(option.grid, shape)
        grid = self.grids[option.grid]
        return grid is None or option_fits(op, rule, option, grid)

    def rank(self, op: Operation, rule: ShardingRule, option: ShardingOption) -> int:
        """How much resharding `option` costs, on split axes (partial axes are settled anyway)."""
        rank = NO_RESHARD
        for i, v in enumerate(op.operands):
            if isinstance(v.owner, ShardOp):
                want = operand_layout(rule, option, i, v)
                if want is None or without_partial(want) != without_partial(self.sharding(v.owner)):
                    if v.owner.annotate_for_users is not None:
                        return RESHARD_OWN
                    rank = RESHARD_OTHERS
        for j, r in enumerate(op.results):
            if not is_tensor(r):
                continue
            want = without_partial(result_sharding(rule, option, j))
            for use in r.uses:
                user = use.operation
                if isinstance(user, ShardOp) and want != without_partial(self.sharding(user)):
                    if user.annotate_for_users is None:
                        return RESHARD_OWN
                    rank = RESHARD_OTHERS
        return rank

    def new_shard(self, value: SSAValue, s: Sharding, for_users: bool, at: InsertPoint) -> ShardOp:
        sharding, shard = annotation(value, s, for_users)
        rank = value.type.get_num_dims() if isinstance(value.type, TensorType) else 0
        self.written[sharding] = s.split_axes or ((),) * min(rank, 1)
        self.shardings[sharding] = s
        self.age[shard] = len(self.age)
        self.rewriter.insert_op((sharding, shard), at)
        return shard

    def chain(self, shard: ShardOp, for_users: bool, at: InsertPoint) -> ShardOp:
        """A second annotation with `shard`'s sharding op, on `shard`'s result."""
        new = ShardOp(shard.result, shard.sharding, annotate_for_users=for_users)
        self.age[new] = len(self.age)
        self.rewriter.insert_op(new, at)
        return new

    def annotate_result(self, op: Operation, value: SSAValue, s: Sharding) -> None:
        """Route every user of `value` through one result annotation `s`; chain a
        contradicting result annotation behind it (upstream's target annotation)."""
        new: ShardOp | None = None
        uses = list(value.uses)
        users = {use.operation for use in uses}
        for use in uses:
            user = use.operation
            if (
                is_result_annotation(user)
                and self.sharding(user) == s
                and (new is None or new is user)
                and not any(_before(other, user) for other in users if other is not user)
            ):
                new = user  # the first user: the others it is given to come after it
                continue
            if new is None:
                new = self.new_shard(value, s, False, InsertPoint.after(op))
            user.operands[use.index] = new.result
            if is_result_annotation(user):
                again = self.chain(new, True, InsertPoint.after(new))
                new.result.replace_uses_with_if(
                    again.result, lambda u, again=again: u.operation is not again
                )

    def annotate_operand(self, op: Operation, index: int, s: Sharding) -> None:
        """Feed operand `index` from an `annotate_for_users` annotation `s`; a contradicting
        one before it gets a result annotation in between (upstream's source annotation)."""
        value = op.operands[index]
        owner = value.owner
        if _is_use_annotation(owner) and self.sharding(owner) == s:
            return
        new = self.new_shard(value, s, True, InsertPoint.before(op))
        for i, v in enumerate(op.operands):
            if v is value:
                op.operands[i] = new.result
        if _is_use_annotation(owner):
            between = ShardOp(value, new.sharding, annotate_for_users=False)
            self.age[between] = len(self.age)
            self.rewriter.insert_op(between, InsertPoint.before(new))
            new.operands[0] = between.result

    def annotate_arguments(self) -> None:
        block = self.block
        position = {op: i for i, op in enumerate(block.ops)}
        for arg in block.args:
            users = [use.operation for use in arg.uses]
            if not is_tensor(arg) or any(map(is_result_annotation, users)):
                continue
            ours = (  # this pass writes in the function's block only, not in regions
                u
                for u in users
                if isinstance(u, ShardOp) and u in position and self.age[u] >= self.parsed
            )
            flagged = sorted(ours, key=position.__getitem__)
            if flagged:
                layout = without_partial(self.sharding(flagged[0]))
                new = self.new_shard(arg, layout, False, InsertPoint.at_start(block))
                arg.replace_uses_with_if(
                    new.result,
                    lambda u, new=new: isinstance(u.operation, ShardOp) and u.operation is not new,
                )

    def settle_results(self) -> None:
        """A returned value this pass made partial leaves settled: callers expect the
        value itself, unless the user's own annotation says partial."""
        terminator = self.block.last_op
        if terminator is None or not terminator.has_trait(IsTerminator):
            return
        for i, v in enumerate(terminator.operands):
            owner = v.owner
            if (
                isinstance(owner, ShardOp)
                and self.age[owner] >= self.parsed
                and (s := self.sharding(owner)).is_partial
            ):
                settled = self.new_shard(
                    v, without_partial(s), True, InsertPoint.before(terminator)
                )
                terminator.operands[i] = settled.result


Strategy = Literal["upstream", "aggressive"]


@dataclass(frozen=True)
class ShardingPropagationPass(ModulePass):
    """Complete the shard.shard annotations.

    Options: `traversal` = forward | backward | forward-backward | backward-forward
    (default); `strategy` = upstream (default: mlir-opt 22.1.8's algorithm, which the
    traversal orders) | aggressive (Shardy's: only axes propagate, to a fixed point;
    `factor_propagation.py`)."""

    name = "sharding-propagation"

    traversal: Traversal = "backward-forward"
    strategy: Strategy = "upstream"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # The pass leaves no cyclic garbage, yet each full collection would walk
        # the whole, growing module: with the collector paused it runs ~40% faster
        # on 10k ops, and its time per op no longer grows with the module.
        with paused_collector():
            for fn in op.walk():
                if not isinstance(fn, func.FuncOp) or not fn.body.blocks:
                    continue
                if self.strategy == "aggressive":
                    rules = {
                        o: rule_of(o)
                        for o in function_ops(fn.body.block)
                        if needs_model(o) and region_flow(o) is None
                    }
                    FactorPropagation(fn, rules).run()
                else:
                    _FunctionPropagation(fn, self.traversal).run()
