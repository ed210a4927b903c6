"""`xshard.jit`: a drop-in for `jax.jit` whose per-device program is xshard's.

`xshard.jit(fn, in_shardings=..., out_shardings=...)` takes what `jax.jit` takes (the
same NamedShardings on the same Mesh) and is called like it: jax.Arrays in, jax.Arrays
out, laid out as `out_shardings` asks. Under it, JAX lowers `fn` with those shardings;
xshard imports that text, propagates, partitions and simplifies it (`xshard-spmd`), and
the per-device StableHLO it prints is called from a `jax.jit` of a `shard_map` over the
whole mesh (a primitive whose lowering is that program, `_PER_DEVICE`). So JAX's own
dispatch runs each call: inputs already on the mesh with the right sharding are used
in place, nothing goes through the host, and one compiled executable serves each input
signature (shapes and dtypes), as with `jax.jit`. Multi-process runs (`jax.distributed`)
work the same way: it is JAX's engine.

The `shard_map`'s specs are the layouts xshard's partition gives the function's
boundary (read before export); the outer `jax.jit` asks for the requested shardings
(xshard's layouts where none was given), which are the same ones, since xshard
honours argument and result annotations, and where they are not, JAX reshards. A
boundary layout a `PartitionSpec` cannot say (partial, halos) is refused, never run.

`f.lower(*args)` gives a `Lowered` whose `as_text()` is xshard's per-device program and
whose `compile()` gives the `Compiled` the call runs. A call with an argument of the
wrong structure, shape, dtype or sharding raises `XShardCallError` naming the argument
(its path in the argument tree) and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jax
from jax.extend.core import Primitive
from jax.extend.mlir import ir
from jax.extend.mlir.dialects import func as func_d
from jax.interpreters import mlir
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType

from xshard.context import xshard_context
from xshard.diagnostics import BAD_INPUT, LocatingParser, error_line, verify_located
from xshard.dialects.shard import GridOp
from xshard.jax.errors import BridgeError
from xshard.jax.importer import module_text
from xshard.sharding.arrays import element_dtype
from xshard.sharding.sharding import Sharding
from xshard.transforms.analysis.collective_count import count_collectives
from xshard.transforms.export.entry import entry_function
from xshard.transforms.spmd_pipeline import (
    SpmdPipelinePass,
    import_passes,
    partition_recording_boundary,
)

__all__ = ["Compiled", "Function", "Lowered", "XShardCallError", "jit"]


class XShardCallError(ValueError):
    """An argument that does not fit what the function was lowered for."""


# ---------------------------------------------------------------- the primitive

_PER_DEVICE = Primitive("xshard_per_device")
"""Runs xshard's per-device program: its lowering merges that module into JAX's and
calls its `main`; it is only ever bound inside a `shard_map` over the whole mesh."""
_PER_DEVICE.multiple_results = True
_PER_DEVICE.def_abstract_eval(lambda *avals, text, out_avals: out_avals)


def _lower_per_device(ctx: Any, *args: Any, text: str, out_avals: Any) -> Any:
    module = ir.Module.parse(text, context=ctx.module_context.context)
    main = next(op for op in module.body.operations if op.sym_name.value == "main")
    results = list(ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).results)
    name = mlir.merge_mlir_modules(ctx.module_context.module, "xshard_main", module)
    return func_d.CallOp(results, ir.FlatSymbolRefAttr.get(name), list(args)).results


mlir.register_lowering(_PER_DEVICE, _lower_per_device)


def _embeddable(module: ModuleOp) -> str:
    """The per-device module as a callee inside a `shard_map`: JAX supplies the manual
    sharding and the partition count, so xshard's `{manual}` marks and module
    attributes go."""
    module = module.clone()
    module.attributes.clear()
    for op in module.walk():
        op.attributes.pop("mhlo.sharding", None)
        if isinstance(op, func.FuncOp):
            op.arg_attrs = None
            op.res_attrs = None
    return module_text(module)


# ---------------------------------------------------------------- argument trees


def _is_sharding(x: Any) -> bool:
    return isinstance(x, NamedSharding)


def _flat_shardings(prefix: Any, tree: Any, what: str) -> list[NamedSharding | None]:
    """One sharding (or None: unspecified) per leaf of `tree`, from a sharding or a
    prefix tree of them, as `jax.jit` reads `in_shardings` and `out_shardings`."""
    if prefix is None or _is_sharding(prefix):
        return [prefix] * len(jax.tree.leaves(tree))
    try:
        per_subtree = jax.tree.map(
            lambda s, sub: [s] * len(jax.tree.leaves(sub)),
            prefix,
            tree,
            is_leaf=lambda x: x is None or _is_sharding(x),
        )
    except ValueError as err:
        raise XShardCallError(f"{what} do not match the structure: {err}") from None
    flat = jax.tree.leaves(per_subtree, is_leaf=lambda x: x is None or _is_sharding(x))
    for s in flat:
        if s is not None and not _is_sharding(s):
            raise XShardCallError(f"{what} must be NamedShardings, got {s!r}")
    return flat


def _paths(tree: Any) -> list[str]:
    """Each leaf's place in the argument tree, as a user writes it: `args[0]['w1']`."""
    return [
        "args" + "".join(_key(p) for p in path)
        for path, _ in jax.tree_util.tree_flatten_with_path(tree)[0]
    ]


def _key(entry: Any) -> str:
    if hasattr(entry, "idx"):
        return f"[{entry.idx}]"
    if hasattr(entry, "name"):
        return f".{entry.name}"
    return f"[{getattr(entry, 'key', entry)!r}]"


def _describe(aval: Any, sharding: Any = None) -> str:
    text = aval.str_short() if hasattr(aval, "str_short") else str(aval)
    if isinstance(sharding, NamedSharding):
        text += f" sharded {sharding.spec} on mesh {dict(sharding.mesh.shape)}"
    return text


def _check_args(
    leaves: list[Any], paths: list[str], avals: list[Any] | None, shardings: list[Any]
) -> None:
    """Raise `XShardCallError` for the first leaf whose type or committed sharding is
    not what the function takes (`avals` None: any type)."""
    for i, (path, leaf, want) in enumerate(zip(paths, leaves, shardings, strict=True)):
        aval = jax.typeof(leaf)
        if avals is not None and (aval.shape, aval.dtype) != (avals[i].shape, avals[i].dtype):
            raise XShardCallError(
                f"{path} is {_describe(aval)}, expected {_describe(avals[i], want)}"
            )
        have = getattr(leaf, "sharding", None)
        committed = getattr(leaf, "committed", False)
        if want is not None and committed and isinstance(have, NamedSharding):
            if not have.is_equivalent_to(want, aval.ndim):
                raise XShardCallError(
                    f"{path} is {_describe(aval, have)}, expected {_describe(aval, want)}"
                )


# ---------------------------------------------------------------- boundary layouts


def _spec(layout: Sharding | None, mesh: Mesh, what: str) -> P:
    """The `PartitionSpec` of a boundary layout on the grid imported from `mesh`."""
    if layout is None:
        return P()
    if layout.partial_axes or layout.halo_sizes or layout.sharded_dims_offsets:
        raise BridgeError(
            f"xshard laid {what} out as {layout}, which a PartitionSpec cannot express"
        )
    names = [tuple(mesh.axis_names[a] for a in axes) for axes in layout.split_axes]
    return P(*(n[0] if len(n) == 1 else n or None for n in names))


def _check_grid(module: ModuleOp, mesh: Mesh) -> None:
    """The program's one grid is the mesh's, axis for axis (what import-sdy makes of
    the `sdy.mesh` JAX prints), so grid axis i is `mesh.axis_names[i]`."""
    grids = [op for op in module.ops if isinstance(op, GridOp)]
    shapes = {op.shape_tuple() for op in grids}
    if shapes - {tuple(mesh.devices.shape)}:
        raise BridgeError(
            f"the program is laid out on grids {sorted(shapes)}, not on the mesh "
            f"{dict(mesh.shape)} it is called on"
        )


# ---------------------------------------------------------------- stages


@dataclass
class Compiled:
    """A compiled call for one input signature: `compiled(*args)` runs it."""

    lowered: Lowered
    executable: Any = field(repr=False)
    """JAX's compiled `jit(shard_map(...))`, called with the flat arguments."""

    def __call__(self, *args: Any) -> Any:
        leaves, tree = jax.tree.flatten(args)
        try:
            outs = self.executable(*leaves)
        except (TypeError, ValueError) as err:
            self.lowered.explain_mismatch(leaves, tree, err)
            raise
        return jax.tree.unflatten(self.lowered.out_tree, outs)

    def as_text(self) -> str:
        """XLA's optimized per-device HLO of the compiled call."""
        return self.executable.as_text()

    def memory_analysis(self) -> Any:
        """XLA's memory figures for one device (`temp_size_in_bytes`, ...), as `jax.jit`'s
        `Compiled` gives them, so the two compare field for field."""
        return self.executable.memory_analysis()

    def cost_analysis(self) -> Any:
        """XLA's cost estimate (`flops`, `bytes accessed`, ...), as `jax.jit`'s `Compiled`."""
        return self.executable.cost_analysis()


@dataclass
class Lowered:
    """`fn` lowered for one input signature, and partitioned by xshard."""

    module: ModuleOp = field(repr=False)
    """xshard's per-device StableHLO module (what `as_text` prints)."""
    mesh: Mesh
    in_tree: Any
    in_avals: list[Any]
    in_paths: list[str]
    in_shardings: list[NamedSharding]
    """What the call takes: the requested shardings, else xshard's layouts."""
    in_specs: list[P]
    """The layouts xshard's per-device program reads its arguments in."""
    out_tree: Any
    out_shardings: list[NamedSharding]
    """What the call returns: the requested shardings, else xshard's layouts."""
    out_specs: list[P]
    """The layouts xshard's per-device program returns its results in."""

    def as_text(self) -> str:
        """xshard's per-device program, as XLA compiles it."""
        return module_text(self.module)

    def collectives(self) -> dict[str, tuple[int, int]]:
        """Per collective kind of the per-device program: (count, bytes on one device)."""
        return {c.op: (c.count, c.bytes) for c in count_collectives(self.module)}

    def compile(self) -> Compiled:
        """The per-device program compiled by XLA inside `jit(shard_map(...))`."""
        main = entry_function(self.module)
        out_avals = tuple(
            jax.core.ShapedArray(tuple(t.get_shape()), element_dtype(t.element_type, main))
            for t in main.function_type.outputs.data
            if isinstance(t, TensorType)
        )
        text = _embeddable(self.module)

        def body(*xs: Any) -> Any:
            return tuple(_PER_DEVICE.bind(*xs, text=text, out_avals=out_avals))

        mapped = jax.shard_map(
            body,
            mesh=self.mesh,
            in_specs=tuple(self.in_specs),
            out_specs=tuple(self.out_specs),
            check_vma=False,
        )
        jitted = jax.jit(
            mapped,
            in_shardings=tuple(self.in_shardings),
            out_shardings=tuple(self.out_shardings),
            keep_unused=True,
        )
        avals = [
            jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s, weak_type=a.weak_type)
            for a, s in zip(self.in_avals, self.in_shardings, strict=True)
        ]
        try:
            executable = jitted.lower(*avals).compile()
        except jax.errors.JaxRuntimeError as err:
            raise BridgeError(f"XLA rejected xshard's per-device program: {err}") from err
        return Compiled(self, executable)

    def explain_mismatch(self, leaves: list[Any], tree: Any, err: Exception) -> None:
        """Raise `XShardCallError` for the first argument that does not fit."""
        if tree != self.in_tree:
            raise XShardCallError(
                f"the arguments' structure {tree} is not the one this function was "
                f"compiled for, {self.in_tree}"
            ) from None
        _check_args(leaves, self.in_paths, self.in_avals, self.in_shardings)
        raise XShardCallError(f"the call does not fit what was compiled: {err}") from None


@dataclass
class Function:
    """What `xshard.jit` returns: call it, or `lower` it for a signature."""

    fn: Callable[..., Any]
    in_shardings: Any
    out_shardings: Any
    options: dict[str, Any]
    """`xshard-spmd`'s options; `target` defaults to the mesh's platform."""
    _cache: dict[Any, Compiled] = field(default_factory=dict, repr=False)
    _last: Compiled | None = field(default=None, repr=False)
    """The signature called last, tried first."""

    def __call__(self, *args: Any) -> Any:
        leaves, tree = jax.tree.flatten(args)
        last = self._last
        if last is not None and tree == last.lowered.in_tree:
            # The fast path: XLA's executable checks types and shardings itself.
            try:
                outs = last.executable(*leaves)
            except (TypeError, ValueError):
                pass
            else:
                return jax.tree.unflatten(last.lowered.out_tree, outs)
        signature = _typed if self._all_shardings_given() else _typed_and_placed
        key = (tree, *map(signature, leaves))
        compiled = self._cache.get(key)
        if compiled is None:
            compiled = self._cache[key] = self._compile_new(args, leaves, tree)
        self._last = compiled
        return compiled(*args)

    def _all_shardings_given(self) -> bool:
        """Whether `in_shardings` fixes every argument's layout, so that a committed
        argument's own sharding is checked, not specialized on."""
        given = jax.tree.leaves(self.in_shardings, is_leaf=lambda x: x is None)
        return self.in_shardings is not None and all(map(_is_sharding, given))

    def _compile_new(self, args: tuple[Any, ...], leaves: list[Any], tree: Any) -> Compiled:
        """Lower and compile a new signature; if JAX cannot trace `fn` at it, say which
        arguments differ from a signature already compiled, as well as why."""
        try:
            return self.lower(*args).compile()
        except (TypeError, ValueError) as err:
            earlier = [c.lowered for c in self._cache.values() if c.lowered.in_tree == tree]
            if not earlier or isinstance(err, XShardCallError):
                raise
            before = earlier[0]
            now = [jax.typeof(leaf) for leaf in leaves]
            changed = [
                f"{path} is {_describe(aval)}, compiled for {_describe(was)}"
                for path, aval, was in zip(before.in_paths, now, before.in_avals, strict=True)
                if (aval.shape, aval.dtype) != (was.shape, was.dtype)
            ]
            if not changed:
                raise
            raise XShardCallError(
                f"{'; '.join(changed)}, and fn does not trace at the new types: {err}"
            ) from err

    def lower(self, *args: Any) -> Lowered:
        """`fn` lowered by JAX with its shardings, then through xshard's pipeline."""
        leaves, in_tree = jax.tree.flatten(args)
        paths = _paths(args)
        requested = _flat_shardings(self.in_shardings, args, "in_shardings")
        _check_args(leaves, paths, None, requested)
        lowered = jax.jit(
            self.fn,
            in_shardings=self.in_shardings,
            out_shardings=self.out_shardings,
            keep_unused=True,
        ).lower(*args)
        mesh = self._mesh(leaves)
        module, arg_layouts, result_layouts = self._partition(lowered.as_text(), mesh)
        out_tree = jax.tree.structure(lowered.out_info)
        in_specs = [
            _spec(layout, mesh, path) for layout, path in zip(arg_layouts, paths, strict=True)
        ]
        out_specs = [_spec(layout, mesh, f"result {i}") for i, layout in enumerate(result_layouts)]
        wanted = _flat_shardings(self.out_shardings, lowered.out_info, "out_shardings")
        return Lowered(
            module,
            mesh,
            in_tree,
            [jax.typeof(x) for x in leaves],
            paths,
            _or_layouts(requested, in_specs, mesh),
            in_specs,
            out_tree,
            _or_layouts(wanted, out_specs, mesh),
            out_specs,
        )

    def _mesh(self, leaves: list[Any]) -> Mesh:
        """The mesh of the shardings asked for, else of the committed arguments."""
        found = [
            *jax.tree.leaves(self.in_shardings, is_leaf=_is_sharding),
            *jax.tree.leaves(self.out_shardings, is_leaf=_is_sharding),
            *(getattr(x, "sharding", None) for x in leaves if getattr(x, "committed", False)),
        ]
        meshes = {s.mesh for s in found if isinstance(s, NamedSharding)}
        if len(meshes) != 1:
            raise XShardCallError(
                "xshard.jit runs on one jax.sharding.Mesh, named by NamedShardings in "
                f"in_shardings, out_shardings or on the arguments; found {len(meshes)}"
            )
        return meshes.pop()

    def _pipeline(self, mesh: Mesh) -> SpmdPipelinePass:
        platform = mesh.devices.flat[0].platform
        target = "gpu" if platform in ("gpu", "cuda", "rocm") else "cpu"
        return SpmdPipelinePass(**{"target": target, **self.options})

    def _partition(
        self, text: str, mesh: Mesh
    ) -> tuple[ModuleOp, list[Sharding | None], list[Sharding | None]]:
        """xshard's per-device module of JAX's `text`, and the layouts its partition
        gave the boundary."""
        ctx = xshard_context()
        name = f"<jax:{getattr(self.fn, '__name__', 'fn')}>"
        phases = self._pipeline(mesh).passes()
        first = len(import_passes())
        try:
            module = LocatingParser(ctx, text, name).parse_module()
            verify_located(module)
            for phase in phases[:first]:
                phase.apply(ctx, module)
            _check_grid(module, mesh)
            layouts = partition_recording_boundary(phases[first:], ctx, module)
        except BAD_INPUT as err:
            raise BridgeError(
                f"xshard cannot partition the program:\n{error_line(err, name)}"
            ) from None
        return module, *layouts


def _or_layouts(
    requested: list[NamedSharding | None], specs: list[P], mesh: Mesh
) -> list[NamedSharding]:
    """The requested shardings, xshard's layouts where none was: where the two differ
    (they should not: xshard honours the annotations), JAX reshards around the call."""
    return [
        want or NamedSharding(mesh, spec) for want, spec in zip(requested, specs, strict=True)
    ]


def _typed(leaf: Any) -> Any:
    """What a compiled call is specialized on when `in_shardings` fixes the layouts."""
    aval = jax.typeof(leaf)
    return aval.shape, aval.dtype, aval.weak_type


def _typed_and_placed(leaf: Any) -> Any:
    """... and otherwise: also the sharding of a committed array (as with `jax.jit`)."""
    sharding = getattr(leaf, "sharding", None) if getattr(leaf, "committed", False) else None
    return _typed(leaf), sharding


def jit(
    fn: Callable[..., Any],
    *,
    in_shardings: Any = None,
    out_shardings: Any = None,
    **pipeline_options: Any,
) -> Function:
    """`jax.jit(fn, in_shardings=..., out_shardings=...)`, partitioned by xshard.

    As with `jax.jit`, a None sharding is unspecified: an argument's comes from the
    committed array passed, a result's is the layout xshard gives it. `pipeline_options`
    are `xshard-spmd`'s (`strategy`, `simplify`, ...); the target is the mesh's
    platform unless `target` says otherwise."""
    SpmdPipelinePass(**pipeline_options)  # an unknown option is a TypeError here
    return Function(fn, in_shardings, out_shardings, pipeline_options)
