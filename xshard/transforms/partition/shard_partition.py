"""`shard-partition`: from a fully annotated global program to the program each device runs.

Like MLIR's pass of the same name (older `mesh-spmdization`), it rebuilds each
function's block on per-device (local) types: block arguments take the local
type of their annotation, each op is replaced by its per-device form (the
model's `partition`, or the same op on local types when the model has none),
and every pair of annotations `shard %x to A` -> `shard ... to B annotate_for_users`
with A != B becomes the collectives `plan_reshard` chooses for A -> B. Then
the `shard.shard` and `shard.sharding` ops are gone; `shard.grid` stays for the
collectives.

Differences from upstream, on purpose:
- partial values stay partial: a split reduction loop leaves the local partial
  result and no all-reduce; the collective comes only where a user's annotation
  wants the value settled, and is a reduce-scatter when that user wants it split;
- the input must be fully annotated, checked like newer upstream's
  `checkFullyAnnotated` (22.1.8 crashes instead), and every failure is a located
  error;
- option `arguments`: `partitioned` (default; each device is handed its block, the
  RFC's first mode) or `global` (arguments keep their global types and each device
  slices its block with `shard.all_slice`, the RFC's second mode). Results are
  local in both modes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from xshard.diagnostics import DiagnosticError
from xshard.dialects.shard import ShardingOp, ShardOp, lookup_grid
from xshard.interfaces.annotations import sharding_of
from xshard.interfaces.partition_context import PartitionContext, local_type
from xshard.interfaces.sharding_interface import UnsupportedOp, model_for
from xshard.interfaces.sharding_option import result_sharding
from xshard.sharding.grid import Grid
from xshard.sharding.sharding import Sharding
from xshard.transforms.partition.reshard import emit_reshard

ArgumentMode = Literal["partitioned", "global"]

_UNANNOTATED = "the function is not fully annotated (run sharding-propagation first): "


def _is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def _is_scalar_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and not value.type.get_shape()


def _result_annotation(value: SSAValue) -> ShardOp | None:
    for use in value.uses:
        if _is_result_annotation(use.operation):
            return use.operation  # type: ignore[return-value]
    return None


def _is_result_annotation(op: Operation) -> bool:
    return isinstance(op, ShardOp) and op.annotate_for_users is None


def _check_fully_annotated(fn: func.FuncOp, block: Block) -> None:
    """Each tensor value has one use, its result annotation; each tensor operand of an op
    comes from an `annotate_for_users` annotation (any annotation for the terminator).
    A 0-d tensor is replicated whatever it says, and so is the result of a source op (one
    without tensor operands: a constant, an iota), which a forward sweep never annotates;
    both may go without a result annotation and are replicated. So may an unused
    argument, which keeps its global type."""

    def check_value(value: SSAValue, at: Operation, what: str) -> None:
        uses = list(value.uses)
        replicated_ok = _is_scalar_tensor(value) or (
            isinstance(value.owner, Operation) and not any(map(_is_tensor, value.owner.operands))
        )
        if replicated_ok and all(isinstance(u.operation, ShardOp) for u in uses):
            return
        if not uses and isinstance(value, BlockArgument):
            return
        if len(uses) != 1 or not _is_result_annotation(uses[0].operation):
            raise DiagnosticError(
                at,
                _UNANNOTATED
                + f"{what} must have exactly one use, a 'shard.shard' result annotation",
            )

    for i, arg in enumerate(block.args):
        if _is_tensor(arg):
            check_value(arg, fn, f"block argument #{i}")
    for op in block.ops:
        if isinstance(op, ShardOp | ShardingOp):
            continue
        terminator = op.has_trait(IsTerminator)
        for i, v in enumerate(op.operands):
            owner = v.owner
            if _is_tensor(v) and not (
                isinstance(owner, ShardOp) and (terminator or owner.annotate_for_users is not None)
            ):
                kind = "a 'shard.shard'" if terminator else "a 'shard.shard ... annotate_for_users'"
                raise DiagnosticError(
                    op,
                    _UNANNOTATED + f"operand #{i} of '{op.name}' must come from {kind} annotation",
                )
        for j, r in enumerate(op.results):
            if _is_tensor(r):
                check_value(r, op, f"result #{j} of '{op.name}'")


def _as_produced(ctx: PartitionContext) -> tuple[Sharding | None, ...]:
    """The result shardings the op produces: where a split reduction loop (or a partial
    operand) makes a result partial but its annotation says settled, as upstream writes
    it (22.1.8 has no partial shardings; each op all-reduces itself), the result is
    partial here and the pass settles it right after the op. A 0-d result without
    annotation counts as replicated."""
    rule = ctx.rule
    if not rule.reduction_loops() and not any(s and s.is_partial for s in ctx.operand_shardings):
        return ctx.result_shardings
    produced = []
    for i, (r, s) in enumerate(zip(ctx.op.results, ctx.result_shardings, strict=True)):
        if _is_tensor(r) and (s is None or not s.is_partial):
            made = result_sharding(rule, ctx.option, i)
            if made.is_partial:
                s = replace(
                    s or Sharding.replicated(ctx.grid.name),
                    partial_axes=made.partial_axes,
                    partial_kind=made.partial_kind,
                )
        produced.append(s)
    return tuple(produced)


class _FunctionPartition:
    def __init__(self, fn: func.FuncOp, arguments: ArgumentMode):
        self.fn = fn
        self.arguments = arguments
        self.values: dict[SSAValue, SSAValue] = {}
        """Global value -> its local counterpart in the new block."""
        self.shardings: dict[SSAValue, Sharding] = {}
        """`shard.shard` result -> the sharding it states."""
        self.grids: dict[str, Grid] = {}
        self.reshards: dict[tuple[SSAValue, Sharding, Sharding], SSAValue] = {}
        self.builder: Builder

    def grid(self, name: str, at: Operation) -> Grid:
        if name not in self.grids:
            op = lookup_grid(at, SymbolRefAttr(name))
            if op is None:
                raise DiagnosticError(at, f"undefined grid @{name}")
            shape = op.shape_tuple()
            if None in shape:
                dims = "x".join("?" if d is None else str(d) for d in shape)
                raise DiagnosticError(
                    at, f"shard-partition needs a static grid, @{name} has shape {dims}"
                )
            self.grids[name] = Grid(name, shape)
        return self.grids[name]

    def result_sharding(self, value: SSAValue) -> Sharding | None:
        """The sharding of `value`'s result annotation; None for an unannotated 0-d tensor."""
        annotation = _result_annotation(value)
        return None if annotation is None else sharding_of(annotation.sharding, annotation)

    def reshard(
        self, at: Operation, value: SSAValue, src: Sharding, dst: Sharding, global_type: Attribute
    ) -> SSAValue:
        key = (value, src, dst)
        if key not in self.reshards:
            assert isinstance(global_type, TensorType)
            grid = self.grid(dst.grid, at)
            self.reshards[key] = emit_reshard(self.builder, at, value, src, dst, global_type, grid)
        return self.reshards[key]

    def run(self) -> None:
        if len(self.fn.body.blocks) != 1:
            raise DiagnosticError(self.fn, "shard-partition supports only functions with one block")
        block = self.fn.body.block
        _check_fully_annotated(self.fn, block)
        new_block = Block(arg_types=[self.argument_type(a) for a in block.args])
        for old, new in zip(block.args, new_block.args, strict=True):
            new.name_hint = old.name_hint
            self.values[old] = new
        self.builder = Builder(InsertPoint.at_end(new_block))
        for op in block.ops:
            if isinstance(op, ShardingOp):
                continue
            if isinstance(op, ShardOp):
                self.visit_shard(op)
            elif not op.has_trait(IsTerminator) and any(
                map(_is_tensor, (*op.operands, *op.results))
            ):
                self.visit_sharded(op)
            else:
                self.builder.insert(op.clone(value_mapper=self.values))
        self.fn.body.detach_block(block)
        block.erase(safe_erase=False)
        self.fn.body.add_block(new_block)
        outputs = new_block.last_op.operand_types if new_block.last_op else ()
        self.fn.function_type = FunctionType.from_lists(new_block.arg_types, outputs)

    def argument_type(self, arg: BlockArgument) -> Attribute:
        if not _is_tensor(arg) or self.arguments == "global":
            return arg.type
        annotation = _result_annotation(arg)
        if annotation is None:
            return arg.type
        s = sharding_of(annotation.sharding, annotation)
        return local_type(annotation, arg.type, s, self.grid(s.grid, annotation))

    def visit_shard(self, op: ShardOp) -> None:
        s = sharding_of(op.sharding, op)
        src = op.src
        local = self.values[src]
        if isinstance(src.owner, ShardOp):
            local = self.reshard(op, local, self.shardings[src], s, src.type)
        elif op.annotate_for_users is not None:
            local = self.reshard(op, local, Sharding.replicated(s.grid), s, src.type)
        elif isinstance(src, BlockArgument) and self.arguments == "global":
            if s.is_partial:
                raise DiagnosticError(op, "with arguments=global an argument cannot be partial")
            local = self.reshard(op, local, Sharding.replicated(s.grid), s, src.type)
        self.values[op.result] = local
        self.shardings[op.result] = s

    def visit_sharded(self, op: Operation) -> None:
        model = model_for(op)
        if model is None:
            raise DiagnosticError(
                op, f"'{op.name}' has no sharding model, so it cannot be partitioned"
            )
        try:
            rule = model.rule(op)
        except UnsupportedOp as err:
            raise DiagnosticError(op, f"'{op.name}' cannot be partitioned: {err}") from err
        operand_shardings = tuple(
            self.shardings.get(v) if _is_tensor(v) else None for v in op.operands
        )
        result_shardings = tuple(
            self.result_sharding(r) if _is_tensor(r) else None for r in op.results
        )
        grids = {s.grid for s in (*operand_shardings, *result_shardings) if s is not None}
        if not grids:
            self.builder.insert(op.clone(value_mapper=self.values))
            return
        if len(grids) != 1:
            raise DiagnosticError(op, f"'{op.name}' is sharded on several grids: {sorted(grids)}")
        ctx = PartitionContext(
            op,
            tuple(self.values[v] for v in op.operands),
            operand_shardings,
            result_shardings,
            rule,
            self.grid(grids.pop(), op),
            self.builder,
            lambda value, src, dst, t: self.reshard(op, value, src, dst, t),
            outer=self.values,
        )
        ctx.result_shardings = _as_produced(ctx)
        partition = getattr(model, "partition", None)
        if partition is None:
            ctx.clone_local()
        else:
            partition(op, ctx)
        expected = ctx.result_types()
        if ctx.results is None or [r.type for r in ctx.results] != expected:
            got = None if ctx.results is None else [str(r.type) for r in ctx.results]
            raise DiagnosticError(
                op,
                f"partition of '{op.name}' gave results {got}, "
                f"expected {[str(t) for t in expected]}",
            )
        for r, local, produced, wanted in zip(
            op.results, ctx.results, ctx.result_shardings, result_shardings, strict=True
        ):
            if produced != wanted:
                assert produced is not None
                wanted = wanted or Sharding.replicated(ctx.grid.name)
                local = self.reshard(op, local, produced, wanted, r.type)
            self.values[r] = local


@dataclass(frozen=True)
class ShardPartitionPass(ModulePass):
    """Options: `arguments` = partitioned (default) | global."""

    name = "shard-partition"

    arguments: ArgumentMode = "partitioned"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                _FunctionPartition(fn, self.arguments).run()
