"""`sharding-propagation`: complete sharding annotations across each function.

Like MLIR's pass of the same name, it visits the ops of each function in the
chosen traversal order, derives for each op a sharding option from the
shardings known around it, and finally writes the result as `shard.shard` ops:
one result annotation per tensor result, one `annotate_for_users` annotation per
tensor operand of every op with a sharding model.

Differences from upstream, on purpose:
- a split contracting or reduction loop leaves its results *partial*
  (`partial = sum [axis]`) instead of an all-reduce, and linear ops let partial
  operands through (see `PartialRule`);
- conflicts are settled by the least resharding: the known shardings around an
  op are tried largest tensor first (annotations the user wrote on this very
  op first of all), and each one that conflicts with those already taken is
  dropped, i.e. resharded. Ties go to results before operands, then by index;
- an op may carry `shard.sharding_option` (the RFC's sharding option on
  operations), which propagation takes as given;
- an op without a sharding model is an error naming it, never silently
  replicated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import GridOp, ShardingOp, ShardOp
from xshard.interfaces.annotations import annotation, base_value, sharding_of, sharding_option_of
from xshard.interfaces.sharding_interface import ShardingRule, UnsupportedOp, model_for
from xshard.interfaces.sharding_option import (
    ShardingConflict,
    ShardingOption,
    build_option,
    operand_sharding,
    option_from_loops,
    result_sharding,
)
from xshard.sharding.sharding import Sharding

Traversal = Literal["forward", "backward", "forward-backward", "backward-forward"]

_PINNED = 1_000_000
"""Weight of an annotation the user wrote for this op: dropped only when annotations contradict."""


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def tensor_bytes(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, TensorType)
    n = 1
    for d in t.get_shape():
        n *= max(d, 1)
    width = getattr(t.element_type, "bitwidth", 32)
    return n * max(width // 8, 1)


@dataclass
class _Known:
    """Every sharding known so far; `pinned_*` are the user's own annotations."""

    results: dict[SSAValue, Sharding] = field(default_factory=dict)
    pinned_results: set[SSAValue] = field(default_factory=set)
    uses: dict[tuple[Operation, int], Sharding] = field(default_factory=dict)
    pinned_uses: set[tuple[Operation, int]] = field(default_factory=set)


@dataclass
class _Candidate:
    sharding: Sharding
    weight: int
    order: int
    operand: int | None = None
    result: int | None = None


def _needs_model(op: Operation) -> bool:
    if isinstance(op, ShardOp | ShardingOp | GridOp) or op.has_trait(IsTerminator):
        return False
    return any(is_tensor(v) for v in (*op.operands, *op.results))


class _FunctionPropagation:
    def __init__(self, fn: func.FuncOp, traversal: Traversal):
        self.fn = fn
        self.traversal = traversal
        self.known = _Known()
        self.rules: dict[Operation, ShardingRule] = {}
        self.fixed: dict[Operation, ShardingOption] = {}

    @property
    def block(self) -> Block:
        if len(self.fn.body.blocks) != 1:
            raise DiagnosticError(self.fn, "only functions with one block are supported")
        return self.fn.body.block

    def run(self) -> None:
        ops = [op for op in self.block.ops if _needs_model(op)]
        self.collect_user_annotations()
        for op in ops:
            self.rules[op] = self.rule_of(op)
        orders = {
            "forward": [ops],
            "backward": [ops[::-1]],
            "forward-backward": [ops, ops[::-1]],
            "backward-forward": [ops[::-1], ops],
        }[self.traversal]
        for order in orders:
            for op in order:
                self.visit(op)
        self.materialize(ops)

    def rule_of(self, op: Operation) -> ShardingRule:
        model = model_for(op)
        if model is None:
            raise DiagnosticError(op, f"'{op.name}' has no sharding model, so it cannot be sharded")
        try:
            rule = model.rule(op)
        except UnsupportedOp as err:
            raise DiagnosticError(op, f"'{op.name}' cannot be sharded: {err}") from err
        if (given := sharding_option_of(op)) is not None:
            grid, loops = given
            try:
                self.fixed[op] = option_from_loops(rule, grid, loops)
            except ShardingConflict as err:
                raise DiagnosticError(op, f"invalid sharding option: {err}") from err
        return rule

    def collect_user_annotations(self) -> None:
        k = self.known
        for op in self.block.ops:
            if not isinstance(op, ShardOp):
                continue
            s = sharding_of(op.sharding, op)
            if op.annotate_for_users is None:
                base = base_value(op.src)
                if base in k.pinned_results and k.results[base] != s:
                    raise DiagnosticError(op, "value already has a different result sharding")
                k.results[base] = s
                k.pinned_results.add(base)
            else:
                for use in op.result.uses:
                    k.uses[(use.operation, use.index)] = s
                    k.pinned_uses.add((use.operation, use.index))

    def candidates(self, op: Operation) -> list[_Candidate]:
        k = self.known
        found: list[_Candidate] = []
        for j, r in enumerate(op.results):
            if not is_tensor(r):
                continue
            if r in k.results:
                weight = _PINNED if r in k.pinned_results else 1
                found.append(_Candidate(k.results[r], weight * tensor_bytes(r), len(found), result=j))
                continue
            for use in _user_uses(r):
                if (s := k.uses.get((use.operation, use.index))) is not None:
                    found.append(_Candidate(s, tensor_bytes(r), len(found), result=j))
                    break
        for i, v in enumerate(op.operands):
            if not is_tensor(v):
                continue
            if (s := k.uses.get((op, i))) is not None:
                weight = _PINNED if (op, i) in k.pinned_uses else 1
                found.append(_Candidate(s, weight * tensor_bytes(v), len(found), operand=i))
            elif (s := k.results.get(base_value(v))) is not None:
                found.append(_Candidate(s, tensor_bytes(v), len(found), operand=i))
        return found

    def choose(self, op: Operation, rule: ShardingRule) -> ShardingOption | None:
        if op in self.fixed:
            return self.fixed[op]
        found = self.candidates(op)
        if not found:
            return None
        grid = found[0].sharding.grid
        taken: list[_Candidate] = []
        option = None
        for cand in sorted(found, key=lambda c: (-c.weight, c.order)):
            if cand.sharding.grid != grid:
                continue
            trial = [*taken, cand]
            try:
                option = build_option(
                    rule,
                    grid,
                    [_pick(trial, i, "operand") for i in range(len(op.operands))],
                    [_pick(trial, j, "result") for j in range(len(op.results))],
                )
            except ShardingConflict:
                continue
            taken = trial
        return option

    def visit(self, op: Operation) -> None:
        rule = self.rules[op]
        option = self.choose(op, rule)
        if option is None:
            return
        k = self.known
        for j, r in enumerate(op.results):
            if is_tensor(r) and r not in k.pinned_results:
                k.results[r] = result_sharding(rule, option, j)
        for i, v in enumerate(op.operands):
            s = operand_sharding(rule, option, i)
            if s is None or (op, i) in k.pinned_uses:
                continue
            k.uses[(op, i)] = s
            base = base_value(v)
            if base not in k.results and not isinstance(base.owner, Operation):
                k.results[base] = Sharding.of(s.grid, s.split_axes)

    def materialize(self, ops: list[Operation]) -> None:
        k = self.known
        rewriter = Rewriter()
        annotated = {base_value(op.src) for op in self.block.ops if isinstance(op, ShardOp) and op.annotate_for_users is None}
        for arg in self.block.args:
            if arg in k.results and arg not in annotated:
                self.annotate_result(rewriter, arg, k.results[arg], InsertPoint.at_start(self.block))
        for op in ops:
            for r in op.results:
                if r in k.results and r not in annotated:
                    self.annotate_result(rewriter, r, k.results[r], InsertPoint.after(op))
        for op in ops:
            for i, v in enumerate(op.operands):
                s = k.uses.get((op, i))
                if s is None or (op, i) in k.pinned_uses:
                    continue
                sharding, shard = annotation(v, s, for_users=True)
                rewriter.insert_op((sharding, shard), InsertPoint.before(op))
                op.operands[i] = shard.result

    @staticmethod
    def annotate_result(rewriter: Rewriter, value: SSAValue, s: Sharding, at: InsertPoint) -> None:
        sharding, shard = annotation(value, s, for_users=False)
        rewriter.insert_op((sharding, shard), at)
        value.replace_uses_with_if(shard.result, lambda use: use.operation is not shard)


def _pick(cands: list[_Candidate], index: int, kind: str) -> Sharding | None:
    for c in cands:
        if (c.operand if kind == "operand" else c.result) == index:
            return c.sharding
    return None


def _user_uses(value: SSAValue):
    """Uses of `value`, looking through its result annotation chain to the real users."""
    for use in value.uses:
        if isinstance(use.operation, ShardOp):
            yield from _user_uses(use.operation.result)
        else:
            yield use


@dataclass(frozen=True)
class ShardingPropagationPass(ModulePass):
    """Options: `traversal` = forward | backward | forward-backward | backward-forward (default)."""

    name = "sharding-propagation"

    traversal: Traversal = "backward-forward"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.walk():
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                _FunctionPropagation(fn, self.traversal).run()
