"""A numpy model of the six StableHLO collectives, written from the StableHLO spec.

The oracle the 8-device runs are checked against. It models partition mode
with one replica (what xshard emits), where every op's process groups are
partition ids: `flattened_ids` for all_reduce / all_gather / reduce_scatter
with `use_global_device_ids`, `cross_partition` for the other three.
`inputs[k]` is the operand on partition k; each function returns the result
on every partition, in partition order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

Groups = Sequence[Sequence[int]]

REDUCERS: dict[str, Callable[[Sequence[np.ndarray]], np.ndarray]] = {
    "sum": lambda xs: np.sum(xs, axis=0),
    "max": lambda xs: np.max(xs, axis=0),
    "min": lambda xs: np.min(xs, axis=0),
    "product": lambda xs: np.prod(xs, axis=0),
}


def group_of(groups: Groups, num_processes: int) -> list[list[int] | None]:
    """For each process, the group holding it (None if none); spec constraint: at most one."""
    owner: list[list[int] | None] = [None] * num_processes
    for group in groups:
        for p in group:
            if not 0 <= p < num_processes:
                raise ValueError(f"process id {p} outside 0..{num_processes - 1}")
            if owner[p] is not None:
                raise ValueError(f"process {p} is in two groups")
            owner[p] = list(group)
    return owner


def _covered(groups: Groups, num_processes: int) -> list[list[int]]:
    """The groups of ops whose result is only defined for processes in a group."""
    owner = group_of(groups, num_processes)
    missing = [p for p, g in enumerate(owner) if g is None]
    if missing:
        raise ValueError(f"processes {missing} are in no group")
    return owner  # type: ignore[return-value]


def all_reduce(inputs: Sequence[np.ndarray], groups: Groups, kind: str) -> list[np.ndarray]:
    """result@p = reduction over p's group of operand@q."""
    owner = _covered(groups, len(inputs))
    return [REDUCERS[kind]([inputs[q] for q in owner[p]]) for p in range(len(inputs))]


def all_gather(inputs: Sequence[np.ndarray], groups: Groups, dim: int) -> list[np.ndarray]:
    """result@p = operand@q for q in p's group, in group order, concatenated along `dim`."""
    owner = _covered(groups, len(inputs))
    return [np.concatenate([inputs[q] for q in owner[p]], axis=dim) for p in range(len(inputs))]


def reduce_scatter(
    inputs: Sequence[np.ndarray], groups: Groups, dim: int, kind: str
) -> list[np.ndarray]:
    """Reduce over the group, split along `dim` in group-size parts; p keeps part index(p)."""
    owner = _covered(groups, len(inputs))
    results = []
    for p in range(len(inputs)):
        group = owner[p]
        reduced = REDUCERS[kind]([inputs[q] for q in group])
        results.append(np.split(reduced, len(group), axis=dim)[group.index(p)])
    return results


def all_to_all(
    inputs: Sequence[np.ndarray], groups: Groups, split_dim: int, concat_dim: int
) -> list[np.ndarray]:
    """Each q splits its operand in group-size parts; p gathers part index(p) from each q."""
    owner = _covered(groups, len(inputs))
    results = []
    for p in range(len(inputs)):
        group = owner[p]
        parts = [np.split(inputs[q], len(group), axis=split_dim)[group.index(p)] for q in group]
        results.append(np.concatenate(parts, axis=concat_dim))
    return results


def collective_permute(
    inputs: Sequence[np.ndarray], pairs: Sequence[tuple[int, int]]
) -> list[np.ndarray]:
    """result@target = operand@source; processes that are no target get zeros."""
    sources, targets = [s for s, _ in pairs], [t for _, t in pairs]
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets):
        raise ValueError("a process is a source or a target twice")
    results = [np.zeros_like(x) for x in inputs]
    for source, target in pairs:
        results[target] = inputs[source].copy()
    return results


def collective_broadcast(inputs: Sequence[np.ndarray], groups: Groups) -> list[np.ndarray]:
    """result@p = operand of the first process of p's group; zeros for processes in no group."""
    owner = group_of(groups, len(inputs))
    return [
        inputs[g[0]].copy() if g is not None else np.zeros_like(inputs[p])
        for p, g in enumerate(owner)
    ]
