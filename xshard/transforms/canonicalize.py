"""`canonicalize` as `mlir-opt` has it: xDSL's canonicalization patterns and folders,
after equal constants in a block are made one.

MLIR's canonicalizer uniques constants as it folds (its `OperationFolder`), so ops
reading equal constants become equal and their own patterns merge them (two
`shard.shard`s of equal constants to equal shardings are one); xDSL's leaves that
to `cse`. The first of equal constants in a block stays, later ones read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.passes import ModulePass
from xdsl.traits import ConstantLike
from xdsl.transforms.canonicalize import CanonicalizePass as XdslCanonicalizePass


def _key(op: Operation) -> tuple[object, ...]:
    return (
        op.name,
        tuple(sorted(op.properties.items())),
        tuple(sorted(op.attributes.items())),
        tuple[Attribute, ...](op.result_types),
    )


def unique_constants(block: Block) -> None:
    """Each constant of `block` equal to an earlier one is replaced by it."""
    first: dict[tuple[object, ...], Operation] = {}
    for op in list(block.ops):
        if op.operands or op.regions or not op.has_trait(ConstantLike):
            continue
        kept = first.setdefault(_key(op), op)
        if kept is not op:
            for old, new in zip(op.results, kept.results, strict=True):
                old.replace_all_uses_with(new)
            op.detach()
            op.erase()


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Canonicalize and fold, as mlir-opt does."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            for region in inner.regions:
                for block in region.blocks:
                    unique_constants(block)
        XdslCanonicalizePass().apply(ctx, op)
