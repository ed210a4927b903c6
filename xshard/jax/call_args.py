"""How `xshard.jit` reads a call as `jax.jit` does: static and dynamic arguments,
keyword arguments, shardings given as a prefix tree or a bare `PartitionSpec`, and the
checks that name the argument a call gets wrong.

`jax.jit` drops the static arguments (`static_argnums`, `static_argnames`, each
inferred from the other through `fn`'s signature) and flattens the rest as
`(positional, keyword)`; its lowered module takes those leaves in that order, and so
does the program xshard compiles. Static arguments key the compiled calls.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import jax
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from xshard.jax.errors import XShardCallError


def _as_tuple(x: int | str | Iterable[Any] | None) -> tuple[Any, ...]:
    if x is None:
        return ()
    if isinstance(x, int | str):
        return (x,)
    return tuple(x)


@dataclass(frozen=True)
class Signature:
    """`fn`'s static and donated arguments, resolved as `jax.jit` resolves them."""

    fn: Callable[..., Any]
    static_argnums: tuple[int, ...]
    static_argnames: tuple[str, ...]

    @staticmethod
    def of(fn: Callable[..., Any], argnums: Any, argnames: Any) -> Signature:
        """Each of `static_argnums` and `static_argnames` inferred from the other where
        only one is given, through `fn`'s signature, as `jax.jit` does."""
        nums, names = _as_tuple(argnums), _as_tuple(argnames)
        params = _parameters(fn)
        named = [
            p.name
            for p in params or ()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        keyword = {
            p.name for p in params or () if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        }
        if params is not None and nums and argnames is None:
            names = tuple(
                named[i] for i in nums if -len(named) <= i < len(named) and named[i] in keyword
            )
        elif params is not None and names and argnums is None:
            nums = tuple(named.index(n) for n in names if n in named)
        return Signature(fn, nums, names)

    def check(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Raise `XShardCallError` for a call `fn` cannot take: a missing or unexpected
        argument, named, with what `fn` takes."""
        params = _parameters(self.fn)
        if params is None:
            return
        sig = inspect.Signature(params)
        try:
            sig.bind(*args, **kwargs)
        except TypeError as err:
            name = getattr(self.fn, "__name__", "fn")
            required = sum(
                p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                for p in params
            )
            raise XShardCallError(
                f"{name}{sig} takes {required} required argument"
                f"{'' if required == 1 else 's'}, called with {len(args)} positional and "
                f"{len(kwargs)} keyword: {err}"
            ) from None

    def split(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[tuple[Any, ...], dict[str, Any], tuple[Any, ...]]:
        """(dynamic positional, dynamic keyword, static): what `jax.jit` traces, and
        what keys its cache."""
        n = len(args)
        static_nums = {i % n for i in self.static_argnums if -n <= i < n}
        dynamic = tuple(a for i, a in enumerate(args) if i not in static_nums)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        static = tuple(args[i] for i in sorted(static_nums)) + tuple(
            (k, kwargs[k]) for k in sorted(kwargs) if k in self.static_argnames
        )
        try:
            hash(static)
        except TypeError as err:
            raise XShardCallError(
                f"static arguments must be hashable, as jax.jit's: {err}"
            ) from None
        return dynamic, dyn_kwargs, static


def _parameters(fn: Callable[..., Any]) -> list[inspect.Parameter] | None:
    try:
        return list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return None


def is_sharding(x: Any) -> bool:
    return isinstance(x, NamedSharding)


def with_mesh(shardings: Any, what: str) -> Any:
    """`shardings` with each bare `PartitionSpec` on the mesh `jax.set_mesh` (or
    `jax.sharding.use_mesh`) set, as `jax.jit` reads them."""
    def resolve(x: Any) -> Any:
        if not isinstance(x, P):
            return x
        mesh = jax.sharding.get_mesh()
        if mesh is None or not mesh.axis_names:
            raise XShardCallError(
                f"{what} holds a bare PartitionSpec {x}, which needs a mesh: "
                "set one with jax.set_mesh or jax.sharding.use_mesh"
            )
        return NamedSharding(mesh, x)

    return jax.tree.map(resolve, shardings, is_leaf=lambda x: isinstance(x, P) or x is None)


def flat_shardings(prefix: Any, tree: Any, what: str) -> list[NamedSharding | None]:
    """One sharding (or None: unspecified) per leaf of `tree`, from a sharding or a
    prefix tree of them, as `jax.jit` reads `in_shardings` and `out_shardings`."""
    if prefix is None or is_sharding(prefix):
        return [prefix] * len(jax.tree.leaves(tree))
    try:
        per_subtree = jax.tree.map(
            lambda s, sub: [s] * len(jax.tree.leaves(sub)),
            prefix,
            tree,
            is_leaf=lambda x: x is None or is_sharding(x),
        )
    except ValueError as err:
        raise XShardCallError(f"{what} do not match the structure: {err}") from None
    flat = jax.tree.leaves(per_subtree, is_leaf=lambda x: x is None or is_sharding(x))
    for s in flat:
        if s is not None and not is_sharding(s):
            raise XShardCallError(f"{what} must be NamedShardings, got {s!r}")
    return flat


def paths(tree: Any) -> list[str]:
    """Each leaf's place in the dynamic arguments, as a user writes it: `args[0]['w1']`,
    `kwargs['scale']`."""
    found = []
    for path, _ in jax.tree_util.tree_flatten_with_path(tree)[0]:
        head, *rest = path
        root = "args" if getattr(head, "idx", None) == 0 else "kwargs"
        found.append(root + "".join(_key(p) for p in rest))
    return found


def _key(entry: Any) -> str:
    if hasattr(entry, "idx"):
        return f"[{entry.idx}]"
    if hasattr(entry, "name"):
        return f".{entry.name}"
    return f"[{getattr(entry, 'key', entry)!r}]"


def describe(aval: Any, sharding: Any = None) -> str:
    text = aval.str_short() if hasattr(aval, "str_short") else str(aval)
    if isinstance(sharding, NamedSharding):
        text += f" sharded {sharding.spec} on mesh {dict(sharding.mesh.shape)}"
    return text


def check_args(
    leaves: Sequence[Any],
    names: Sequence[str],
    avals: Sequence[Any] | None,
    shardings: Sequence[Any],
) -> None:
    """Raise `XShardCallError` for the first leaf whose type or committed sharding is
    not what the function takes (`avals` None: any type)."""
    for i, (path, leaf, want) in enumerate(zip(names, leaves, shardings, strict=True)):
        aval = jax.typeof(leaf)
        if avals is not None and (aval.shape, aval.dtype) != (avals[i].shape, avals[i].dtype):
            raise XShardCallError(
                f"{path} is {describe(aval)}, expected {describe(avals[i], want)}"
            )
        have = getattr(leaf, "sharding", None)
        committed = getattr(leaf, "committed", False)
        if want is not None and committed and isinstance(have, NamedSharding):
            if not have.is_equivalent_to(want, aval.ndim):
                raise XShardCallError(
                    f"{path} is {describe(aval, have)}, expected {describe(aval, want)}"
                )


def meshes_in(found: Iterable[Any]) -> set[Mesh]:
    return {s.mesh for s in found if isinstance(s, NamedSharding)}


def is_traced(leaves: Iterable[Any]) -> bool:
    """Whether the call is inside a trace (`jax.jit`, `jax.grad`, `jax.vmap`, `lax.scan`
    around it): then it traces through, as `jax.jit` does."""
    return any(isinstance(x, jax.core.Tracer) for x in leaves)
