"""Rule builders shared by the models of several dialects."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from xshard.interfaces.sharding_interface import (
    Loop,
    PartialFlow,
    PartialRule,
    ShardingRule,
)
from xshard.sharding.reduction import ReductionKind

KINDS_ALL = frozenset({ReductionKind.SUM, ReductionKind.MAX, ReductionKind.MIN})
SUM = frozenset({ReductionKind.SUM})

LINEAR_SUM = PartialRule(PartialFlow.ALL_OPERANDS, SUM)
"""add / subtract: Σa ± Σb = Σ(a ± b) when every operand is partial alike."""
MAX_JOIN = PartialRule(
    PartialFlow.ALL_OPERANDS, frozenset({ReductionKind.MAX}), replicated_join=True
)
MIN_JOIN = PartialRule(
    PartialFlow.ALL_OPERANDS, frozenset({ReductionKind.MIN}), replicated_join=True
)
SCALE_SUM = PartialRule(PartialFlow.ONE_OPERAND, SUM)
"""multiply / contraction: linear in each operand separately."""
NUMERATOR_SUM = PartialRule(PartialFlow.ONE_OPERAND, SUM, operands=(0,))
MOVE = PartialRule(PartialFlow.PASS_THROUGH, KINDS_ALL)
"""Data movement keeps any partial state."""
NEGATE = PartialRule(PartialFlow.PASS_THROUGH, SUM)
SELECT_BRANCHES = PartialRule(PartialFlow.ALL_OPERANDS, SUM, operands=(1, 2))
"""select(p, Σa, Σb) = Σ select(p, a, b) when both branches are partial alike."""
MONOTONE = PartialRule(PartialFlow.PASS_THROUGH, frozenset({ReductionKind.MAX, ReductionKind.MIN}))
"""A non-decreasing function of one operand, defined everywhere: f(max a) = max f(a)."""


def rank(value: SSAValue) -> int | None:
    t = value.type
    return t.get_num_dims() if isinstance(t, TensorType) else None


def dims_map(num_loops: int, loops: Sequence[int | None]) -> AffineMap:
    """A map whose i-th result is loop `loops[i]`, or the constant 0 for None."""
    return AffineMap(
        num_loops,
        0,
        tuple(
            AffineExpr.constant(0) if loop is None else AffineExpr.dimension(loop) for loop in loops
        ),
    )


def source_rule(op: Operation) -> ShardingRule:
    """An op that reads no tensor (a constant, an iota, `tensor.empty`): its result may
    take any layout, one parallel loop per dim; non-tensor operands get no map."""
    return _source_rule(rank(op.results[0]) or 0, len(op.operands))


# The rules below are built once per distinct shape of op, not once per op: a program
# repeats a few, and propagation and partition both ask for every op's rule.


@functools.lru_cache(maxsize=1024)
def _source_rule(n: int, num_operands: int) -> ShardingRule:
    return ShardingRule(
        tuple(Loop.parallel() for _ in range(n)),
        (None,) * num_operands,
        (dims_map(n, range(n)),),
    )


def elementwise_rule(
    operands: Sequence[SSAValue], results: Sequence[SSAValue], partial: PartialRule
) -> ShardingRule:
    """All loops parallel over the result's dims; rank-0 and non-tensor operands are not indexed."""
    return _elementwise_rule(
        tuple(rank(v) for v in operands), rank(results[0]) or 0, len(results), partial
    )


@functools.lru_cache(maxsize=1024)
def _elementwise_rule(
    operand_ranks: tuple[int | None, ...], n: int, num_results: int, partial: PartialRule
) -> ShardingRule:
    identity = dims_map(n, range(n))
    operand_maps = tuple(
        None if r is None else (identity if r == n else dims_map(n, [])) for r in operand_ranks
    )
    return ShardingRule(
        tuple(Loop.parallel() for _ in range(n)),
        operand_maps,
        (identity,) * num_results,
        partial,
    )


def reduction_rule(
    input_rank: int,
    reduced: Sequence[int],
    kind: ReductionKind,
    num_inputs: int,
    num_inits: int,
    partial: PartialRule,
) -> ShardingRule:
    """Loops = input dims; reduced ones are reductions of `kind`; results keep the others.
    The inits are folded in once: partial results need them partial too."""
    loops = tuple(
        Loop.reduction(kind) if d in reduced else Loop.parallel() for d in range(input_rank)
    )
    identity = dims_map(input_rank, range(input_rank))
    kept = dims_map(input_rank, [d for d in range(input_rank) if d not in reduced])
    return ShardingRule(
        loops,
        (identity,) * num_inputs + (dims_map(input_rank, []),) * num_inits,
        (kept,) * num_inputs,
        partial,
        accumulators=tuple(range(num_inputs, num_inputs + num_inits)),
    )


@functools.lru_cache(maxsize=1024)
def contraction_rule(
    lhs_rank: int,
    rhs_rank: int,
    lhs_batch: tuple[int, ...],
    rhs_batch: tuple[int, ...],
    lhs_contract: tuple[int, ...],
    rhs_contract: tuple[int, ...],
    extra_operands: int = 0,
) -> ShardingRule:
    """A dot_general: loops are batch, lhs free, rhs free (the result's dims), then
    contracting. Built once per distinct contraction (the dims are tuples to be keys)."""
    lhs_free = [d for d in range(lhs_rank) if d not in lhs_batch and d not in lhs_contract]
    rhs_free = [d for d in range(rhs_rank) if d not in rhs_batch and d not in rhs_contract]
    nb, nl, nr, nc = len(lhs_batch), len(lhs_free), len(rhs_free), len(lhs_contract)
    n = nb + nl + nr + nc
    lhs_loops: list[int | None] = [None] * lhs_rank
    rhs_loops: list[int | None] = [None] * rhs_rank
    for i, (ld, rd) in enumerate(zip(lhs_batch, rhs_batch, strict=True)):
        lhs_loops[ld], rhs_loops[rd] = i, i
    for i, d in enumerate(lhs_free):
        lhs_loops[d] = nb + i
    for i, d in enumerate(rhs_free):
        rhs_loops[d] = nb + nl + i
    for i, (ld, rd) in enumerate(zip(lhs_contract, rhs_contract, strict=True)):
        lhs_loops[ld], rhs_loops[rd] = nb + nl + nr + i, nb + nl + nr + i
    loops = tuple([Loop.parallel()] * (nb + nl + nr) + [Loop.reduction(ReductionKind.SUM)] * nc)
    return ShardingRule(
        loops,
        (dims_map(n, lhs_loops), dims_map(n, rhs_loops)) + (None,) * extra_operands,
        (dims_map(n, range(nb + nl + nr)),),
        SCALE_SUM,
    )


def reshape_rule(in_shape: Sequence[int], out_shape: Sequence[int]) -> ShardingRule:
    """One loop per group of dims whose sizes multiply alike
    (`2x4x8 -> 8x8`: `[0,1]->[0]`, `[2]->[1]`).

    Splitting a group means splitting the major non-unit dim on both sides; that
    is exact only when the shard count divides that dim, which partition checks. An
    empty tensor (a dim of 0, as `jnp.pad(..., mode="reflect")` slices) has no loop:
    there is nothing to split.
    """
    if 0 in in_shape or 0 in out_shape:
        return ShardingRule(
            (),
            (dims_map(0, [None] * len(in_shape)),),
            (dims_map(0, [None] * len(out_shape)),),
            MOVE,
        )
    groups: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(in_shape) and j < len(out_shape):
        ga, gb = [i], [j]
        pa, pb = in_shape[i], out_shape[j]
        i, j = i + 1, j + 1
        while pa != pb:
            if pa < pb and i < len(in_shape):
                ga.append(i)
                pa *= in_shape[i]
                i += 1
            elif pb < pa and j < len(out_shape):
                gb.append(j)
                pb *= out_shape[j]
                j += 1
            else:
                raise ValueError(f"no element-preserving grouping of {in_shape} into {out_shape}")
        groups.append((ga, gb))
    in_loops: list[int | None] = [None] * len(in_shape)
    out_loops: list[int | None] = [None] * len(out_shape)
    for loop, (ga, gb) in enumerate(groups):
        major_in = next((d for d in ga if in_shape[d] != 1), None)
        major_out = next((d for d in gb if out_shape[d] != 1), None)
        if major_in is not None and major_out is not None:
            in_loops[major_in] = loop
            out_loops[major_out] = loop
    n = len(groups)
    return ShardingRule(
        tuple(Loop.parallel() for _ in range(n)),
        (dims_map(n, in_loops),),
        (dims_map(n, out_loops),),
        MOVE,
    )
