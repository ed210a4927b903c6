"""The sharding interface: each op's loops, how its tensors index them, and how it partitions.

As in the sharding RFC (seed 003) and MLIR's `ShardingInterface`, an op is
described by its loop iterators (parallel, or a reduction with its kind) and one
affine map per tensor operand and result, from loops to tensor dims. A map result
is either a loop dim `d_i` or the constant 0, which marks a tensor dim that no
loop indexes (a size-1 broadcast dim, or the minor part of a reshaped dim): such
a dim cannot be split.

xshard adds one thing upstream dropped in 2025: how *partial* operands flow
through the op (`PartialRule`), so that sums stay unreduced while their users
accept them.

The models that give each op its rule live in `xshard.interfaces.models`; this
module is the base of the interface chain (rules, then `sharding_option`, then
`partition_context`, then the models), so it imports none of them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from xshard.sharding.reduction import ReductionKind


class IteratorType(Enum):
    PARALLEL = "parallel"
    REDUCTION = "reduction"


@dataclass(frozen=True)
class Loop:
    """One loop of an op's iteration space."""

    type: IteratorType
    kind: ReductionKind | None = None
    """The combiner of a reduction loop: splitting it leaves partial results of this kind."""

    @staticmethod
    def parallel() -> Loop:
        return Loop(IteratorType.PARALLEL)

    @staticmethod
    def reduction(kind: ReductionKind) -> Loop:
        return Loop(IteratorType.REDUCTION, kind)

    @property
    def is_reduction(self) -> bool:
        return self.type is IteratorType.REDUCTION

    def __str__(self) -> str:
        return self.type.value if self.kind is None else f"reduction_{self.kind.value}"


class PartialFlow(Enum):
    """How partial (unreduced) operands pass through an op."""

    NONE = "none"
    """Partial operands must be reduced first (tanh, exp, divide by a partial...)."""
    ALL_OPERANDS = "all"
    """Every partial-carrying operand is partial alike: add(Σa, Σb) = Σ add(a, b)."""
    ONE_OPERAND = "one"
    """At most one operand is partial; the op is linear in it: Σa * b = Σ (a * b)."""
    PASS_THROUGH = "through"
    """A unary data movement or linear map: the partial state rides along."""


@dataclass(frozen=True)
class PartialRule:
    flow: PartialFlow = PartialFlow.NONE
    kinds: frozenset[ReductionKind] = frozenset()
    """The reduction kinds the op distributes over."""
    operands: tuple[int, ...] | None = None
    """Operand positions that may carry the partial state (None: every tensor operand)."""
    replicated_join: bool = False
    """Whether non-partial operands may join (max(Σ_max a, b) = Σ_max max(a, b))."""

    def accepts(self, position: int, kind: ReductionKind) -> bool:
        if self.flow is PartialFlow.NONE or kind not in self.kinds:
            return False
        return self.operands is None or position in self.operands


NO_PARTIAL = PartialRule()


@dataclass(frozen=True)
class ShardingRule:
    """Loops and indexing maps of one op; operand maps are None for non-tensor operands."""

    loops: tuple[Loop, ...]
    operand_maps: tuple[AffineMap | None, ...]
    result_maps: tuple[AffineMap, ...]
    partial: PartialRule = field(default=NO_PARTIAL)
    accumulators: tuple[int, ...] = ()
    """Operands the op folds into its results once (a reduction's init value): when the
    results are partial, each device must hold its operand of the same reduction, e.g.
    the init on one device and the identity on the others."""
    min_blocks: tuple[tuple[int, int], ...] = ()
    """(loop, cells): a split of that loop needs blocks of at least that many cells in
    the operand dims it indexes (a window's halo comes from one neighbour's block)."""

    def __post_init__(self) -> None:
        for m in (*self.operand_maps, *self.result_maps):
            if m is None:
                continue
            if m.num_dims != len(self.loops):
                raise ValueError(
                    f"indexing map {m} has {m.num_dims} dims for {len(self.loops)} loops"
                )
            for expr in m.results:
                if not isinstance(expr, AffineDimExpr | AffineConstantExpr):
                    raise ValueError(f"indexing map {m} is not a projected permutation")

    def __hash__(self) -> int:
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        """Rules key the caches of options and layouts; their maps are slow to hash."""
        return hash(
            (
                self.loops,
                self.operand_maps,
                self.result_maps,
                self.partial,
                self.accumulators,
                self.min_blocks,
            )
        )

    @functools.cached_property
    def indexing(
        self,
    ) -> tuple[tuple[tuple[int | None, ...] | None, ...], tuple[tuple[int | None, ...], ...]]:
        """`dim_loops` of each operand map (None for an operand without one), then of each
        result map: read for every op on every propagation sweep, and rules are shared."""
        return (
            tuple(None if m is None else dim_loops(m) for m in self.operand_maps),
            tuple(dim_loops(m) for m in self.result_maps),
        )

    def reduction_loops(self) -> list[int]:
        return [i for i, loop in enumerate(self.loops) if loop.is_reduction]


def is_tensor(value: SSAValue) -> bool:
    """Whether `value` is a tensor: the only values sharding rules index."""
    return isinstance(value.type, TensorType)


def dim_loops(m: AffineMap) -> tuple[int | None, ...]:
    """For each tensor dim, the loop that indexes it (None for a constant)."""
    return tuple(e.position if isinstance(e, AffineDimExpr) else None for e in m.results)
