"""`xshard.jit`: a drop-in for `jax.jit` whose per-device program is xshard's.

`xshard.jit(fn, in_shardings=..., out_shardings=..., static_argnums=...,
donate_argnums=..., ...)` takes what `jax.jit` takes and is called like it: jax.Arrays
(and Python scalars) in, jax.Arrays out, laid out as `out_shardings` asks. Under it,
JAX lowers `fn` with those options; xshard imports that text, propagates, partitions
and simplifies it (`xshard-spmd`), and the per-device StableHLO it prints is called
from a `jax.jit` of a `shard_map` over the whole mesh (a primitive whose lowering is
that program, `_PER_DEVICE`). So JAX's own dispatch runs each call: inputs already on
the mesh with the right sharding are used in place, nothing goes through the host,
donated buffers are given to the outputs, and one compiled executable serves each
input signature (static arguments, shapes, dtypes), as with `jax.jit`. Multi-process
runs (`jax.distributed`) work the same way: it is JAX's engine.

The `shard_map`'s specs are the layouts xshard's partition gives the function's
boundary (read before export); the outer `jax.jit` asks for the requested shardings
(xshard's layouts where none was given), which are the same ones, since xshard
honours argument and result annotations, and where they are not, JAX reshards. A
boundary layout a `PartitionSpec` cannot say (partial, halos) is refused, never run.

Called inside a trace (under `jax.jit`, `jax.grad`, `jax.vmap`, `lax.scan`), the
function traces through as `jax.jit` does: it is `jax.jit` with the same options, so
its shardings become constraints of the enclosing program, which its own compiler
(xshard's, if it is an `xshard.jit` function) partitions. The mesh is the one the
shardings name, the committed arguments', the one `jax.set_mesh` set, or a
`shard_map`'s; with none, the program runs on one device.

`f.lower(*args)` gives a `Lowered` whose `as_text()` is xshard's per-device program and
whose `compile()` gives the `Compiled` the call runs. A call with a missing argument,
or an argument of the wrong structure, shape, dtype or sharding, raises
`XShardCallError` naming it. `xshard.jax.set_cache_dir` (or `XSHARD_CACHE_DIR`) keeps
partitioned programs across processes (`compile_cache`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import jax
import jax.extend.core
import numpy as np
from jax.experimental.serialize_executable import deserialize_and_load
from jax.extend.core import Primitive
from jax.extend.mlir import ir
from jax.extend.mlir.dialects import func as func_d
from jax.interpreters import mlir
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P
from xdsl.dialects.builtin import ModuleOp, TensorType

from xshard.context import xshard_context
from xshard.diagnostics import BAD_INPUT, LocatingParser, error_line, verify_located
from xshard.dialects.shard import GridOp
from xshard.interfaces.models.stablehlo_custom_call import HOST_CALLBACK_PREFIX
from xshard.jax import compile_cache
from xshard.jax.call_args import (
    Signature,
    check_args,
    describe,
    flat_shardings,
    is_sharding,
    is_traced,
    meshes_in,
    paths,
    with_mesh,
)
from xshard.jax.errors import BridgeError, XShardCallError
from xshard.jax.hlo_collectives import executed_seconds
from xshard.jax.importer import module_text
from xshard.jax.memory import Memory
from xshard.sharding.arrays import element_dtype
from xshard.sharding.sharding import Sharding
from xshard.transforms.analysis.collective_count import count_collectives
from xshard.transforms.export.entry import entry_function
from xshard.transforms.paused_collector import paused_collector
from xshard.transforms.propagation.auto.auto_sharding import least_held
from xshard.transforms.spmd_pipeline import (
    SpmdPipelinePass,
    import_passes,
    partition_recording_boundary,
)

__all__ = ["Compiled", "Function", "Lowered", "XShardCallError", "jit"]

# ---------------------------------------------------------------- the primitive

_PER_DEVICE = Primitive("xshard_per_device")
"""Runs xshard's per-device program: its lowering merges that module into JAX's and
calls its `main`; it is only ever bound inside a `shard_map` over the whole mesh."""
_PER_DEVICE.multiple_results = True
_PER_DEVICE.def_abstract_eval(lambda *avals, text, out_avals, callbacks: out_avals)


def _lower_per_device(
    ctx: Any, *args: Any, text: str, out_avals: Any, callbacks: tuple[Any, ...]
) -> Any:
    module = ir.Module.parse(text, context=ctx.module_context.context)
    _embeddable(module)
    _register_callbacks(module, callbacks, ctx.module_context)
    main = next(op for op in module.body.operations if op.sym_name.value == "main")
    results = list(ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).results)
    name = mlir.merge_mlir_modules(ctx.module_context.module, "xshard_main", module)
    return func_d.CallOp(results, ir.FlatSymbolRefAttr.get(name), list(args)).results


mlir.register_lowering(_PER_DEVICE, _lower_per_device)


def _register_callbacks(module: ir.Module, callbacks: tuple[Any, ...], context: Any) -> None:
    """A host callback's custom call names its Python function by its index in the
    lowering's list of callbacks: JAX's lowering of `fn` made that list, and the module
    being built now holds its own, so each call is given its function's index there."""
    if not callbacks:
        return

    def renumber(op: Any) -> Any:
        if (
            op.name == "stablehlo.custom_call"
            and ir.StringAttr(op.attributes["call_target_name"]).value.startswith(
                HOST_CALLBACK_PREFIX
            )
            and "mhlo.backend_config" in op.attributes
        ):
            config = ir.DictAttr(op.attributes["mhlo.backend_config"])
            if "index" in config:
                index = len(context.host_callbacks)
                context.add_host_callback(callbacks[ir.IntegerAttr(config["index"]).value])
                op.attributes["mhlo.backend_config"] = ir.DictAttr.get(
                    {"index": ir.IntegerAttr.get(ir.IntegerType.get_unsigned(64), index)}
                )
        return ir.WalkResult.ADVANCE

    module.operation.walk(renumber)


def _embeddable(module: ir.Module) -> None:
    """Make the per-device module a callee inside a `shard_map`: JAX supplies the
    manual sharding and the partition count, so xshard's `{manual}` marks, argument
    and result attributes, and module attributes go; `partition_id` keeps its mark,
    without which XLA's GSPMD partitioner (JAX without Shardy) refuses one that only a
    side-effecting op reads."""

    def strip(op: Any) -> Any:
        for name in ("mhlo.sharding", "arg_attrs", "res_attrs"):
            if name in op.attributes and op.name != "stablehlo.partition_id":
                del op.attributes[name]
        return ir.WalkResult.ADVANCE

    module.operation.walk(strip)
    attributes = module.operation.attributes
    for name in [n for n in attributes if n != "sym_name"]:
        del attributes[name]


# ---------------------------------------------------------------- boundary layouts

AxisNames = list[list[str]] | None
"""A boundary layout by mesh axis names per dim (None: whole), as the cache keeps it."""


def _axis_names(layout: Sharding | None, mesh: Mesh, what: str) -> AxisNames:
    """A boundary layout on the grid imported from `mesh`, by the mesh's axis names."""
    if layout is None:
        return None
    if layout.partial_axes or layout.halo_sizes or layout.sharded_dims_offsets:
        raise BridgeError(
            f"xshard laid {what} out as {layout}, which a PartitionSpec cannot express"
        )
    return [[mesh.axis_names[a] for a in axes] for axes in layout.split_axes]


def _spec(names: AxisNames) -> P:
    if names is None:
        return P()
    return P(*(n[0] if len(n) == 1 else tuple(n) or None for n in names))


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


def _shard_map_meshes(jaxpr: Any) -> set[Mesh]:
    """The concrete meshes of the `shard_map`s in `jaxpr`, nested ones included."""
    found: set[Mesh] = set()
    for eqn in jaxpr.eqns:
        mesh = eqn.params.get("mesh")
        if eqn.primitive.name == "shard_map" and isinstance(mesh, Mesh):
            found.add(mesh)
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            found |= _shard_map_meshes(sub)
    return found


# ---------------------------------------------------------------- stages


@dataclass
class Compiled:
    """A compiled call for one input signature: `compiled(*args, **kwargs)` runs it on
    the dynamic arguments (static ones were fixed when lowering, as with `jax.jit`)."""

    lowered: Lowered
    executable: Any = field(repr=False)
    """JAX's compiled `jit(shard_map(...))`, called with the flat dynamic arguments."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call(jax.tree.flatten((args, kwargs)))

    def call(self, flat: tuple[list[Any], Any]) -> Any:
        leaves, tree = flat
        try:
            outs = self.executable(*leaves)
        except (TypeError, ValueError) as err:
            self.lowered.explain_mismatch(leaves, tree, err)
            raise
        return jax.tree.unflatten(self.lowered.out_tree, outs)

    def as_text(self) -> str:
        """XLA's optimized per-device HLO of the compiled call."""
        return self.executable.as_text()

    def collective_seconds(self) -> float:
        """The cost model's seconds for the collectives XLA runs (`executed_seconds`)."""
        return executed_seconds(self.as_text(), self.lowered.mesh.devices.size)

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

    entry: compile_cache.Entry = field(repr=False)
    """xshard's per-device program and its boundary (what the cache keeps)."""
    key: str | None
    """The entry's key in the persistent cache (None while it is off)."""
    mesh: Mesh
    in_tree: Any
    """The dynamic arguments' structure, `(positional, keyword)`."""
    in_avals: list[Any]
    in_paths: list[str]
    in_shardings: list[NamedSharding]
    """What the call takes: the requested shardings, else xshard's layouts."""
    out_tree: Any
    out_shardings: list[NamedSharding]
    """What the call returns: the requested shardings, else xshard's layouts."""
    donated: list[bool]
    """Per dynamic argument, whether its buffer is donated."""
    compiler_options: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    """The pipeline's options the program was made with: `xshard.jit`'s, but for a
    `memory_limit` that `_fit_memory` lowered to hold XLA's buffers to the one asked."""
    host_callbacks: tuple[Any, ...] = ()
    """The Python functions of `fn`'s host callbacks, by the index its custom calls
    name them by (JAX's lowering made them; they are not in the cache)."""
    compiled: Compiled | None = field(default=None, repr=False)
    """The compile `lower` already made (to measure a plan's memory), which `compile`
    returns."""

    @property
    def in_specs(self) -> list[P]:
        """The layouts xshard's per-device program reads its arguments in."""
        return [_spec(n) for n in self.entry.in_specs]

    @property
    def out_specs(self) -> list[P]:
        """The layouts xshard's per-device program returns its results in."""
        return [_spec(n) for n in self.entry.out_specs]

    @cached_property
    def module(self) -> ModuleOp:
        """xshard's per-device StableHLO module, parsed from `as_text` when asked for."""
        return LocatingParser(xshard_context(), self.entry.text, "<xshard>").parse_module()

    def as_text(self) -> str:
        """xshard's per-device program, as XLA compiles it."""
        return self.entry.text

    def collectives(self) -> dict[str, tuple[int, int]]:
        """Per collective kind of the per-device program: (count, bytes on one device)."""
        return {c.op: (c.count, c.bytes) for c in count_collectives(self.module)}

    def compile(self) -> Compiled:
        """The per-device program compiled by XLA inside `jit(shard_map(...))`, or that
        call's executable from the persistent cache."""
        if self.compiled is not None:
            return self.compiled
        executable = compile_cache.executable(
            self.key, self.mesh, self.compiler_options, self._compile, self._deserialize
        )
        return Compiled(self, executable)

    def _deserialize(self, data: bytes) -> Any:
        """JAX's `Compiled` from its serialized executable; the trees are the flat
        arguments and the tuple of results of `_compile`'s call."""
        return deserialize_and_load(
            data,
            jax.tree.structure((tuple(self.in_avals), {})),
            jax.tree.structure(tuple(self.out_shardings)),
            backend=self.mesh.devices.flat[0].client,
        )

    def _compile(self) -> Any:
        out_avals = tuple(
            jax.core.ShapedArray(tuple(shape), np.dtype(dtype))
            for shape, dtype in self.entry.out_avals
        )
        text = self.entry.text

        def body(*xs: Any) -> Any:
            return tuple(
                _PER_DEVICE.bind(
                    *xs, text=text, out_avals=out_avals, callbacks=self.host_callbacks
                )
            )

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
            donate_argnums=tuple(i for i, d in enumerate(self.donated) if d),
            keep_unused=True,
            compiler_options=self.compiler_options,
        )
        avals = [
            jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s, weak_type=a.weak_type)
            for a, s in zip(self.in_avals, self.in_shardings, strict=True)
        ]
        try:
            return jitted.lower(*avals).compile()
        except jax.errors.JaxRuntimeError as err:
            raise BridgeError(f"XLA rejected xshard's per-device program: {err}") from err

    def explain_mismatch(self, leaves: list[Any], tree: Any, err: Exception) -> None:
        """Raise `XShardCallError` for the first argument that does not fit."""
        if tree != self.in_tree:
            raise XShardCallError(
                f"the arguments' structure {tree} is not the one this function was "
                f"compiled for, {self.in_tree}"
            ) from None
        check_args(leaves, self.in_paths, self.in_avals, self.in_shardings)
        raise XShardCallError(f"the call does not fit what was compiled: {err}") from None


@dataclass
class Function:
    """What `xshard.jit` returns: call it, or `lower` it for a signature."""

    fn: Callable[..., Any]
    in_shardings: Any
    out_shardings: Any
    jit_options: dict[str, Any]
    """`jax.jit`'s other options, as given (static and donated arguments, ...)."""
    options: dict[str, Any]
    """`xshard-spmd`'s options; `target` defaults to the mesh's platform."""
    _cache: dict[Any, Compiled] = field(default_factory=dict, repr=False)
    _last: tuple[Any, Compiled] | None = field(default=None, repr=False)
    """The signature called last (structure and static arguments) and its call, tried
    first."""

    @cached_property
    def signature(self) -> Signature:
        return Signature.of(
            self.fn, self.jit_options.get("static_argnums"), self.jit_options.get("static_argnames")
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.signature.check(args, kwargs)
        dynamic, dyn_kwargs, static = self.signature.split(args, kwargs)
        leaves, tree = jax.tree.flatten((dynamic, dyn_kwargs))
        if is_traced(leaves):
            return self.as_jax_jit()(*args, **kwargs)
        if self._last is not None and self._last[0] == (tree, static):
            # The fast path: XLA's executable checks types and shardings itself.
            compiled = self._last[1]
            try:
                outs = compiled.executable(*leaves)
            except (TypeError, ValueError):
                pass
            else:
                return jax.tree.unflatten(compiled.lowered.out_tree, outs)
        signature = _typed if self._all_shardings_given() else _typed_and_placed
        key = (tree, static, *map(signature, leaves))
        compiled = self._cache.get(key)
        if compiled is None:
            compiled = self._cache[key] = self._compile_new(args, kwargs, leaves, tree)
        self._last = ((tree, static), compiled)
        return compiled.call((leaves, tree))

    def as_jax_jit(self, **overrides: Any) -> Any:
        """`jax.jit` of `fn` with the same options: what a traced call is (the module
        docstring), and (keeping every argument) what JAX lowers for xshard."""
        return jax.jit(
            self.fn,
            in_shardings=with_mesh(self.in_shardings, "in_shardings"),
            out_shardings=with_mesh(self.out_shardings, "out_shardings"),
            **{**self.jit_options, **overrides},
        )

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        """The results' shapes, dtypes and shardings, as `jax.jit(...).eval_shape` gives
        them (nothing is compiled)."""
        return self.as_jax_jit().eval_shape(*args, **kwargs)

    def _all_shardings_given(self) -> bool:
        """Whether `in_shardings` fixes every argument's layout, so that a committed
        argument's own sharding is checked, not specialized on."""
        given = jax.tree.leaves(self.in_shardings, is_leaf=lambda x: x is None)
        return self.in_shardings is not None and all(
            is_sharding(s) or isinstance(s, P) for s in given
        )

    def _compile_new(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], leaves: list[Any], tree: Any
    ) -> Compiled:
        """Lower and compile a new signature; if JAX cannot trace `fn` at it, say which
        arguments differ from a signature already compiled, as well as why."""
        try:
            return self.lower(*args, **kwargs).compile()
        except (TypeError, ValueError) as err:
            earlier = [c.lowered for c in self._cache.values() if c.lowered.in_tree == tree]
            if not earlier or isinstance(err, XShardCallError):
                raise
            before = earlier[0]
            now = [jax.typeof(leaf) for leaf in leaves]
            changed = [
                f"{path} is {describe(aval)}, compiled for {describe(was)}"
                for path, aval, was in zip(before.in_paths, now, before.in_avals, strict=True)
                if (aval.shape, aval.dtype) != (was.shape, was.dtype)
            ]
            if not changed:
                raise
            raise XShardCallError(
                f"{'; '.join(changed)}, and fn does not trace at the new types: {err}"
            ) from err

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """`fn` lowered by JAX with its options, then through xshard's pipeline; with
        `auto_sharding` and a `memory_limit`, also compiled, to hold the plan to the limit
        as XLA measures it (`_fit_memory`)."""
        self.signature.check(args, kwargs)
        dynamic, dyn_kwargs, _ = self.signature.split(args, kwargs)
        leaves, in_tree = jax.tree.flatten((dynamic, dyn_kwargs))
        names = paths((dynamic, dyn_kwargs))
        in_shardings = with_mesh(self.in_shardings, "in_shardings")
        requested = flat_shardings(in_shardings, dynamic, "in_shardings")
        requested += [None] * (len(leaves) - len(requested))  # keyword arguments
        check_args(leaves, names, None, requested)
        traced = self.as_jax_jit(keep_unused=True).trace(*args, **kwargs)
        lowered = traced.lower()
        mesh = self._mesh(leaves, traced.jaxpr)
        wanted = flat_shardings(
            with_mesh(self.out_shardings, "out_shardings"), lowered.out_info, "out_shardings"
        )

        text = lowered.as_text()
        compile_args = getattr(getattr(lowered, "_lowering", None), "compile_args", {})
        host_callbacks = tuple(compile_args.get("host_callbacks", ()))

        def lowered_with(options: dict[str, Any]) -> Lowered:
            key, entry = self._partition(text, mesh, options)
            return Lowered(
                entry,
                key,
                mesh,
                in_tree,
                [jax.typeof(x) for x in leaves],
                names,
                _or_layouts(requested, entry.in_specs, mesh),
                jax.tree.structure(lowered.out_info),
                _or_layouts(wanted, entry.out_specs, mesh),
                [a.donated for a in jax.tree.leaves(lowered.args_info)],
                self.jit_options.get("compiler_options"),
                options,
                host_callbacks,
            )

        limit = self.options.get("memory_limit")
        if not self.options.get("auto_sharding") or limit is None:
            return lowered_with(self.options)
        if mesh.devices.size == 1:
            return _on_one_device(lowered_with(self.options), limit)
        return _fit_memory(lowered_with, self.options, limit)

    def _mesh(self, leaves: list[Any], jaxpr: Any) -> Mesh:
        """The mesh of the shardings asked for, else of the committed arguments, else the
        one `jax.set_mesh` set, else a `shard_map`'s; with none, one device."""
        found = meshes_in(
            [
                *jax.tree.leaves(with_mesh(self.in_shardings, "in_shardings"), is_leaf=is_sharding),
                *jax.tree.leaves(
                    with_mesh(self.out_shardings, "out_shardings"), is_leaf=is_sharding
                ),
                *(getattr(x, "sharding", None) for x in leaves if getattr(x, "committed", False)),
            ]
        )
        if not found:
            context = jax.sharding.get_mesh()
            found = {context} if context is not None and context.axis_names else set()
        if not found:
            found = _shard_map_meshes(jaxpr.jaxpr)
        if len(found) > 1:
            raise XShardCallError(
                "xshard.jit runs on one jax.sharding.Mesh; the shardings, arguments and "
                f"shard_maps name {len(found)}"
            )
        if found:
            return found.pop()
        device = self.jit_options.get("device") or jax.devices(self.jit_options.get("backend"))[0]
        return Mesh(np.array([device]), ("device",))

    def _pipeline(self, mesh: Mesh, options: dict[str, Any]) -> SpmdPipelinePass:
        platform = mesh.devices.flat[0].platform
        target = "gpu" if platform in ("gpu", "cuda", "rocm") else "cpu"
        return SpmdPipelinePass(**{"target": target, **options})

    def _partition(
        self, text: str, mesh: Mesh, options: dict[str, Any]
    ) -> tuple[str | None, compile_cache.Entry]:
        """xshard's per-device program of JAX's `text` under the pipeline's `options`,
        and its boundary layouts, from the persistent cache when it holds them, and their
        key there."""
        name = compile_cache.key(text, options, mesh)
        if (entry := compile_cache.load(name)) is not None:
            return name, entry
        with paused_collector():
            entry = self._run_pipeline(text, mesh, options)
        compile_cache.store(name, entry)
        return name, entry

    def _run_pipeline(self, text: str, mesh: Mesh, options: dict[str, Any]) -> compile_cache.Entry:
        """The pipeline on JAX's `text`: the per-device program and its boundary layouts."""
        ctx = xshard_context()
        where = f"<jax:{getattr(self.fn, '__name__', 'fn')}>"
        phases = self._pipeline(mesh, options).passes()
        first = len(import_passes())
        try:
            module = LocatingParser(ctx, text, where).parse_module()
            verify_located(module)
            for phase in phases[:first]:
                phase.apply(ctx, module)
            _check_grid(module, mesh)
            arg_layouts, result_layouts = partition_recording_boundary(phases[first:], ctx, module)
        except BAD_INPUT as err:
            raise BridgeError(
                f"xshard cannot partition the program:\n{error_line(err, where)}"
            ) from None
        main = entry_function(module)
        out_avals = [
            (list(t.get_shape()), str(element_dtype(t.element_type, main)))
            for t in main.function_type.outputs.data
            if isinstance(t, TensorType)
        ]
        return compile_cache.Entry(
            module_text(module),
            [_axis_names(s, mesh, f"argument {i}") for i, s in enumerate(arg_layouts)],
            [_axis_names(s, mesh, f"result {i}") for i, s in enumerate(result_layouts)],
            out_avals,
        )


FIT_ROUNDS = 8
"""How many plans `_fit_memory` makes before it gives up on a memory limit."""
UP_ROUNDS = 2
"""How many times `_fit_memory` asks for more where XLA holds a plan below the limit."""
HEADROOM = 32
"""A plan XLA holds below the limit by more than 1/HEADROOM of it leaves room to ask for
more."""


def _fit_memory(
    lowered_with: Callable[[dict[str, Any]], Lowered], options: dict[str, Any], limit: int
) -> Lowered:
    """The plan auto-sharding makes under `limit`, compiled and held to it as XLA
    measures it (`memory_analysis()`), not only as xshard's memory model predicts.

    Where XLA's buffers come out above the limit (its schedule, fusion and collective
    buffers differ from the model's), the model is asked again for less: the last ask
    scaled by limit / measured, or, once an ask has left the model no plan, the middle
    of that ask and the smallest one measured over; up to `FIT_ROUNDS` plans. Where
    XLA's figure did not come down (the model gave the same plan, or one no smaller:
    its own peak lies below the ask), the step down doubles, at least 1/64 of the
    limit; an ask is never under 1 byte. Where every ask gave a plan and none fits,
    the last is asked for half the smallest ask: XLA's figure can stay a few percent
    above the limit whatever the ask, so that the steps never reach a plan that fits
    (an equinox conv net at 1/2 of replication: seven asks down to 0.74 of the
    limit, held at 1.02 to 1.12 of it, where the plan made for 1/4 fits). An ask
    refused because every plan holds more (`least_held`: no solve ran) is not counted,
    and the next is the middle of that floor and the smallest ask measured over (an
    equinox GRU at 1/4: half the smallest ask was 18848 bytes, every plan holds
    28780).

    The model errs the other way too: where XLA holds a plan below the limit by more
    than 1/`HEADROOM` of it, the model is asked for more, the ask scaled by limit /
    measured (at most the middle of it and the smallest ask measured over), up to
    `UP_ROUNDS` times, until a plan comes out the same again; where one comes out above
    the limit, the next ask is the middle of that ask and the largest one held. Of
    the plans XLA holds within the limit, the one whose collectives cost least as XLA
    runs them (`Compiled.collective_seconds`), the first where they tie, is the plan.
    One GPT block's train step at 1/4 of replication: XLA holds the first plan (140.2
    µs of collectives) well below the limit; asked for 112883 bytes, the model gives
    one as cheap as Megatron's (130.2 µs), which it holds in 108940 and XLA in
    93892."""
    asked, over, none = limit, None, None
    held = limit  # the largest ask whose plan XLA held within the limit
    measured: list[int] = []
    step = 0
    made = 0
    best: tuple[float, Lowered] | None = None
    ups = 0
    while made < FIT_ROUNDS:
        made += 1
        try:
            result = lowered_with({**options, "memory_limit": asked})
        except BridgeError as err:
            if best is not None:  # (out of time on an ask up)
                return best[1]
            if over is None:
                raise
            none, reason = asked, str(err).splitlines()[-1]
            if (least := least_held(reason)) is not None and none < least - 1:
                none = least - 1  # no ask under the floor has a plan, and none was solved
                made -= 1
        else:
            if best is not None and result.entry.text == best[1].entry.text:
                return best[1]  # the same plan: more memory does not change it
            result.compiled = result.compile()
            used = Memory.of(result.compiled).total
            if used <= limit:
                price = result.compiled.collective_seconds()
                if best is None or price < best[0]:
                    best = price, result
                held = asked
                up = asked * limit // used
                if over is not None:
                    up = min(up, (asked + over) // 2)
                if ups == UP_ROUNDS or (limit - used) * HEADROOM <= limit or up <= asked:
                    return best[1]
                ups += 1
                made -= 1  # (an ask up is not one of the plans towards the limit)
                asked = up
                continue
            if best is not None:  # an ask up came out above the limit: ask between
                if ups == UP_ROUNDS or (held + asked) // 2 <= held:
                    return best[1]
                ups += 1
                made -= 1
                over, asked = asked, (held + asked) // 2
                continue
            measured.append(used)
            over = asked
        assert over is not None
        if none is not None:
            asked = (none + over) // 2
        elif over == 1:
            break
        elif made == FIT_ROUNDS - 1:  # the last plan
            asked = over // 2
        elif len(measured) > 1 and measured[-1] >= measured[-2]:
            step = max(2 * step, limit // 64)
            asked = max(1, over - step)
        else:
            step = over - over * limit // measured[-1]
            asked = over - step
        if none is not None and over - none <= 1:
            break
    message = (
        f"memory-limit={limit} bytes per device is not met: XLA lays out auto-sharding's "
        f"plans in {', '.join(map(str, measured))} bytes per device"
    )
    if none is not None:
        message += f"; asked to fit in {none} bytes, auto-sharding found no plan: {reason}"
    raise BridgeError(message)


def _on_one_device(result: Lowered, limit: int) -> Lowered:
    """A program with no mesh runs whole on one device, which no plan changes: it is
    compiled once and refused where XLA holds it above `limit`."""
    result.compiled = result.compile()
    used = Memory.of(result.compiled).total
    if used > limit:
        raise BridgeError(
            f"memory-limit={limit} bytes per device is not met: no sharding, committed "
            "argument, jax.set_mesh or shard_map names a mesh, so the program runs whole "
            f"on one device, where XLA holds it in {used} bytes"
        )
    return result


def _or_layouts(
    requested: list[NamedSharding | None], layouts: list[AxisNames], mesh: Mesh
) -> list[NamedSharding]:
    """The requested shardings, xshard's layouts where none was: where the two differ
    (they should not: xshard honours the annotations), JAX reshards around the call."""
    return [
        want or NamedSharding(mesh, _spec(names))
        for want, names in zip(requested, layouts, strict=True)
    ]


def _typed(leaf: Any) -> Any:
    """What a compiled call is specialized on when `in_shardings` fixes the layouts."""
    aval = jax.typeof(leaf)
    return aval.shape, aval.dtype, aval.weak_type


def _typed_and_placed(leaf: Any) -> Any:
    """... and otherwise: also the sharding of a committed array (as with `jax.jit`)."""
    sharding = getattr(leaf, "sharding", None) if getattr(leaf, "committed", False) else None
    return _typed(leaf), sharding


_NOT_GIVEN: Any = object()


def jit(
    fn: Callable[..., Any] = _NOT_GIVEN,
    /,
    *,
    in_shardings: Any = None,
    out_shardings: Any = None,
    static_argnums: int | tuple[int, ...] | None = None,
    static_argnames: str | tuple[str, ...] | None = None,
    donate_argnums: int | tuple[int, ...] | None = None,
    donate_argnames: str | tuple[str, ...] | None = None,
    keep_unused: bool = False,
    device: Any = None,
    backend: str | None = None,
    inline: bool = False,
    compiler_options: dict[str, Any] | None = None,
    **pipeline_options: Any,
) -> Any:
    """`jax.jit(fn, ...)`, partitioned by xshard; every option has `jax.jit`'s meaning,
    and without `fn` it is a decorator, as `jax.jit`.

    As with `jax.jit`, a None sharding is unspecified: an argument's comes from the
    committed array passed, a result's is the layout xshard gives it; a bare
    `PartitionSpec` is on the mesh `jax.set_mesh` set. `keep_unused` changes nothing
    the call returns (xshard's program keeps every argument). `pipeline_options` are
    `xshard-spmd`'s (`strategy`, `simplify`, ...); the target is the mesh's platform
    unless `target` says otherwise."""
    SpmdPipelinePass(**pipeline_options)  # an unknown option is a TypeError here
    options = {
        "static_argnums": static_argnums,
        "static_argnames": static_argnames,
        "donate_argnums": donate_argnums,
        "donate_argnames": donate_argnames,
        "keep_unused": keep_unused,
        "device": device,
        "backend": backend,
        "inline": inline,
        "compiler_options": compiler_options,
    }
    if fn is _NOT_GIVEN:
        return lambda f: Function(f, in_shardings, out_shardings, options, pipeline_options)
    return Function(fn, in_shardings, out_shardings, options, pipeline_options)
