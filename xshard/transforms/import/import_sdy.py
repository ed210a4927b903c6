"""`import-sdy`: the shardings of a JAX program, as JAX prints them, into `shard`
annotations (the first pass of the import phase; the table is in
docs/passes/import-sdy.md).

`jax.jit(f, in_shardings=..., out_shardings=...).lower(...).as_text()` carries its
shardings in Shardy's `sdy` dialect, or, with `jax_use_shardy_partitioner=False`, as
GSPMD `mhlo.sharding` strings. Each `sdy.mesh` becomes a `shard.grid` of the same name
(axes in order); the GSPMD strings of a program share one grid, `@gspmd_mesh`, built
from all of them. An argument's sharding becomes a `shard.shard` of the argument (the
layout it arrives in); a result's, and a sharding constraint (`sdy.sharding_constraint`,
`custom_call @Sharding`), a `shard.shard ... annotate_for_users`; an op's own
`sdy.sharding`, result annotations. Dims list axes major to minor; a constraint's open
dims import as the axes given, listed in the annotation's `xshard.open_dims` so that
propagation may split them further (a constraint open in every dim with no axes
constrains nothing and goes);
`replicated={...}` and priorities change nothing; `unreduced={"a"}` is
`partial = sum [a]`.

The consumed attributes go; everything else the user wrote stays (`jax.result_info`,
`mhlo.num_partitions`, ...). What has no shard form is a located error naming it:
sub-axes (`"a":(1)2`), a mesh with its own device order, an inline mesh, shardings on
undeclared meshes, maximal and manual (shard_map) GSPMD shardings, and Shardy's other
region ops (refused when parsed). A `sdy.manual_computation` (a `shard_map` body)
stays as it is, for `shard-partition` to inline; the grids its shardings name keep the
mesh's axis names (`xshard.axis_names`). A module without Shardy or GSPMD shardings
is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xshard.diagnostics import DiagnosticError
from xshard.dialects import sdy
from xshard.dialects import stablehlo as hlo
from xshard.dialects.shard import GridOp
from xshard.interfaces.annotations import annotation, set_open_dims
from xshard.interfaces.models.stablehlo_custom_call import ON_ONE_DEVICE, is_host_callback
from xshard.sharding.gspmd import (
    Factor,
    GspmdError,
    HloSharding,
    common_grid,
    parse_hlo_sharding,
    to_sharding,
)
from xshard.sharding.sharding import Sharding, ShardingError

SDY_SHARDING = "sdy.sharding"
GSPMD_SHARDING = "mhlo.sharding"
GSPMD_MESH = "gspmd_mesh"
"""The grid a GSPMD program's shardings are laid out on (it names no mesh)."""


def _rank(t: Attribute) -> int:
    return t.get_num_dims() if isinstance(t, TensorType) else 0


@dataclass
class _Meshes:
    """The grids of the module: each `sdy.mesh` (axis names -> indices), and the one the
    GSPMD strings need."""

    axes: dict[str, dict[str, int]]
    maximal: set[str] = field(default_factory=set)
    """Meshes of one device and no axes (`<[], device_ids=[k]>`)."""
    empty: set[str] = field(default_factory=set)
    """Meshes of no axes and no devices (`<[]>`): Shardy's placeholder, which JAX gives
    a scalar argument whose sharding is unspecified; a sharding on it says nothing."""
    gspmd_axes: list[Factor] | None = None
    devices: int = 1

    def sharding(self, attr: sdy.TensorShardingAttr, where: Operation) -> Sharding | None:
        """The sharding `attr` states; None for one on the placeholder mesh `<[]>`."""
        if not isinstance(attr.mesh, SymbolRefAttr):
            raise DiagnosticError(where, "an inline sdy mesh has no shard.grid; declare it")
        mesh = attr.mesh.root_reference.data
        if mesh in self.empty:
            return None
        if mesh in self.maximal:
            raise DiagnosticError(
                where,
                f"the sharding names @{mesh}, a mesh of one device: the value lives on one "
                "device only, which xshard does not partition (of ops so placed it runs "
                "JAX's host callbacks, on one device)",
            )
        if mesh not in self.axes:
            raise DiagnosticError(where, f"the sharding names mesh @{mesh}, which is undeclared")
        names = self.axes[mesh]

        def index(ref: str) -> int:
            if ":" in ref:
                raise DiagnosticError(
                    where, f'the sub-axis "{ref}" has no shard form: shard splits whole grid axes'
                )
            if ref not in names:
                raise DiagnosticError(where, f"mesh @{mesh} has no axis \"{ref}\"")
            return names[ref]

        split = [[index(a) for a in attr.axes_of(d)] for d in range(len(attr.dim_axes))]
        for ref in (a.data for a in attr.replicated_axes):
            index(ref)
        partial = [index(a.data) for a in attr.unreduced_axes]
        try:
            return Sharding.of(mesh, split, partial)
        except ShardingError as err:
            raise DiagnosticError(where, str(err)) from err

    def gspmd(self, text: str, rank: int, where: Operation) -> Sharding:
        try:
            parsed = parse_hlo_sharding(text, rank, self.devices)
            assert self.gspmd_axes is not None
            return to_sharding(parsed, GSPMD_MESH, self.gspmd_axes)
        except GspmdError as err:
            raise DiagnosticError(where, str(err)) from err


def _is_sharding_call(op: Operation) -> bool:
    return isinstance(op, hlo.CustomCallOp) and op.call_target_name.data == "Sharding"


class _Import:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.rewriter = Rewriter()
        self.meshes = _Meshes({})
        self.grids: dict[str, GridOp] = {}

    def run(self) -> None:
        self.declare_meshes()
        self.declare_gspmd_grid()
        for op in list(self.module.walk()):
            if isinstance(op, func.FuncOp):
                self.import_function(op)

    # ------------------------------------------------------------------ grids

    def declare_meshes(self) -> None:
        for op in list(self.module.walk()):
            if not isinstance(op, sdy.MeshOp):
                continue
            mesh = op.mesh
            ids = [i.data for i in mesh.device_ids]
            size = prod(s for _, s in mesh.axes)
            if ids and ids != list(range(size)):
                raise DiagnosticError(
                    op,
                    f"mesh @{op.sym_name.data} lists its own device order {ids}; a shard.grid "
                    "numbers devices row-major",
                )
            if not mesh.axes:  # refused where a sharding names it, or says nothing
                (self.meshes.maximal if ids else self.meshes.empty).add(op.sym_name.data)
                Rewriter.erase_op(op)
                continue
            self.meshes.axes[op.sym_name.data] = {n: i for i, (n, _) in enumerate(mesh.axes)}
            grid = GridOp(op.sym_name.data, [s for _, s in mesh.axes])
            grid.location = op.location
            self.grids[op.sym_name.data] = grid
            self.rewriter.replace_op(op, grid)

    def declare_gspmd_grid(self) -> None:
        """One grid that every `mhlo.sharding` of the module fits, if there are any."""
        found: list[tuple[str, int, Operation]] = []
        for op in self.module.walk():
            if isinstance(op, func.FuncOp):
                found += [(text, rank, op) for text, rank in self.function_strings(op)]
            elif _is_sharding_call(op):
                text = op.attributes.get(GSPMD_SHARDING)
                if isinstance(text, StringAttr):
                    found.append((text.data, _rank(op.results[0].type), op))
        if not found:
            return
        self.meshes.devices = self.partitions(found)
        parsed: list[HloSharding] = []
        for text, rank, where in found:
            try:
                parsed.append(parse_hlo_sharding(text, rank, self.meshes.devices))
            except GspmdError as err:
                raise DiagnosticError(where, str(err)) from err
        try:
            axes = common_grid(parsed, self.meshes.devices)
        except GspmdError as err:
            raise DiagnosticError(found[0][2], str(err)) from err
        self.meshes.gspmd_axes = axes
        grid = GridOp(GSPMD_MESH, [size for size, _ in axes] or [1])
        self.module.body.block.insert_op_before(grid, self.module.body.block.first_op)

    def partitions(self, found: list[tuple[str, int, Operation]]) -> int:
        attr = self.module.attributes.get("mhlo.num_partitions")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        raise DiagnosticError(
            found[0][2], "GSPMD shardings need the module's mhlo.num_partitions (device count)"
        )

    def function_strings(self, fn: func.FuncOp) -> list[tuple[str, int]]:
        found = []
        for attrs, types in (
            (fn.arg_attrs, fn.function_type.inputs.data),
            (fn.res_attrs, fn.function_type.outputs.data),
        ):
            for d, t in zip(attrs or (), types, strict=False):
                text = d.data.get(GSPMD_SHARDING)
                if isinstance(text, StringAttr):
                    found.append((text.data, _rank(t)))
        return found

    # ------------------------------------------------------------------ annotations

    def boundary(self, attrs: DictionaryAttr, value_type: Attribute, fn: func.FuncOp):
        """The sharding an argument's or result's attributes give, if any; `attrs` without
        it."""
        data = dict(attrs.data)
        s: Sharding | None = None
        if isinstance(given := data.pop(SDY_SHARDING, None), sdy.TensorShardingAttr):
            s = self.meshes.sharding(given, fn)
        elif given is not None:
            raise DiagnosticError(fn, f"'{SDY_SHARDING}' must be a #sdy.sharding, got {given}")
        if isinstance(text := data.pop(GSPMD_SHARDING, None), StringAttr):
            s = self.meshes.gspmd(text.data, _rank(value_type), fn)
        return s, DictionaryAttr(data)

    def import_function(self, fn: func.FuncOp) -> None:
        if not fn.body.blocks:
            return
        if len(fn.body.blocks) > 1:  # as shard-partition, which would refuse it next
            raise DiagnosticError(fn, "import-sdy supports only functions with one block")
        block = fn.body.block
        if fn.arg_attrs is not None:
            new_attrs = []
            at = InsertPoint.at_start(block)
            for arg, attrs in zip(block.args, fn.arg_attrs, strict=True):
                s, rest = self.boundary(attrs, arg.type, fn)
                new_attrs.append(rest)
                if s is not None:
                    uses = list(arg.uses)
                    sharding, shard = annotation(arg, s, False)
                    self.rewriter.insert_op((sharding, shard), at)
                    at = InsertPoint.after(shard)
                    for use in uses:
                        use.operation.operands[use.index] = shard.result
            fn.arg_attrs = ArrayAttr(new_attrs)
        ret = block.last_op
        if fn.res_attrs is not None and ret is not None:
            new_attrs = []
            for i, attrs in enumerate(fn.res_attrs):
                s, rest = self.boundary(attrs, fn.function_type.outputs.data[i], fn)
                new_attrs.append(rest)
                if s is not None:
                    self.annotate_for_users(ret, i, s)
            fn.res_attrs = ArrayAttr(new_attrs)
        for op in list(block.walk()):
            if isinstance(op, sdy.ShardingConstraintOp):
                opened = [d for d, o in enumerate(op.sharding.dim_open) if o.data]
                self.replace_constraint(op, self.constraint(op), opened)
            elif _is_sharding_call(op):
                text = op.attributes.get(GSPMD_SHARDING)
                if not isinstance(text, StringAttr) or len(op.operands) != 1:
                    raise DiagnosticError(
                        op, "a @Sharding custom call needs one operand and an mhlo.sharding"
                    )
                rank = _rank(op.results[0].type)
                self.replace_constraint(op, self.meshes.gspmd(text.data, rank, op))
            elif isinstance(op, hlo.CustomCallOp) and op.call_target_name.data in (
                "SPMDFullToShardShape",
                "SPMDShardToFullShape",
            ):
                raise DiagnosticError(
                    op,
                    f"@{op.call_target_name.data} (shard_map in GSPMD form) holds per-device "
                    "code, which xshard does not import",
                )
            elif isinstance(op, sdy.ManualComputationOp):
                self.name_axes(op)
            elif is_host_callback(op):
                self.place_callback(op)
            elif isinstance(
                per := op.attributes.get(SDY_SHARDING), sdy.TensorShardingPerValueAttr
            ):
                self.annotate_results(op, per)

    def place_callback(self, op: Operation) -> None:
        """JAX runs a host callback of the global program on one device (a mesh of one
        device; `{maximal device=0}` in GSPMD form): its operands are gathered there,
        which the callback's sharding model asks of every device, and
        `guard-host-callbacks` keeps a side-effecting one to that device. One inside a
        shard_map (the placeholder mesh, `{manual}`) runs on every device."""
        per = op.attributes.pop(SDY_SHARDING, None)
        text = op.attributes.pop(GSPMD_SHARDING, None)
        on_one = isinstance(per, sdy.TensorShardingPerValueAttr) and any(
            isinstance(a.mesh, SymbolRefAttr) and a.mesh.root_reference.data in self.meshes.maximal
            for a in per.shardings
        )
        if on_one or (isinstance(text, StringAttr) and text.data.startswith("{maximal")):
            op.attributes[ON_ONE_DEVICE] = UnitAttr()

    def name_axes(self, op: sdy.ManualComputationOp) -> None:
        """A manual computation stays (shard-partition inlines its body); its shardings
        name mesh axes, so the grids they name keep the axis names."""
        for attr in (*op.in_shardings.shardings, *op.out_shardings.shardings):
            # (a located error for an unknown mesh or axis)
            if self.meshes.sharding(attr, op) is not None and isinstance(attr.mesh, SymbolRefAttr):
                name = attr.mesh.root_reference.data
                self.grids[name].set_axis_names(list(self.meshes.axes[name]))

    def constraint(self, op: sdy.ShardingConstraintOp) -> Sharding | None:
        attr = op.sharding
        if all(o.data for o in attr.dim_open) and not any(a.data for a in attr.dim_axes):
            return None  # open in every dim: it constrains nothing
        return self.meshes.sharding(attr, op)

    def replace_constraint(
        self, op: Operation, s: Sharding | None, opened: list[int] | None = None
    ) -> None:
        """A constraint becomes an annotation for the users of its result; its open dims
        (`{?}`, `{"a", ?}`) are the annotation's `xshard.open_dims`, which propagation
        may split further."""
        value = op.operands[0]
        if s is None:
            self.rewriter.replace_op(op, [], [value])
            return
        sharding, shard = annotation(value, s, True)
        if opened:
            set_open_dims(shard, opened)
        shard.location = sharding.location = op.location
        self.rewriter.replace_op(op, [sharding, shard], [shard.result])

    def annotate_for_users(self, ret: Operation, index: int, s: Sharding) -> None:
        value = ret.operands[index]
        sharding, shard = annotation(value, s, True)
        self.rewriter.insert_op((sharding, shard), InsertPoint.before(ret))
        ret.operands[index] = shard.result

    def annotate_results(self, op: Operation, per: sdy.TensorShardingPerValueAttr) -> None:
        """An op's own `sdy.sharding`: the layout of each result."""
        if len(per.shardings) != len(op.results):
            raise DiagnosticError(op, "sdy.sharding names one sharding per result")
        del op.attributes[SDY_SHARDING]
        at = InsertPoint.after(op)
        for r, attr in zip(op.results, per.shardings, strict=True):
            if (s := self.meshes.sharding(attr, op)) is None:
                continue
            uses = list(r.uses)
            sharding, shard = annotation(r, s, False)
            self.rewriter.insert_op((sharding, shard), at)
            at = InsertPoint.after(shard)
            for use in uses:
                use.operation.operands[use.index] = shard.result


@dataclass(frozen=True)
class ImportSdyPass(ModulePass):
    """JAX's shardings (sdy, GSPMD) to shard IR."""

    name = "import-sdy"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _Import(op).run()
