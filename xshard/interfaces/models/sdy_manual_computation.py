"""The flow of `sdy.manual_computation`, the region `jax.shard_map` lowers to.

Its body is per-device code over `manual_axes`: each block argument is the operand's
block on one device of the manual axes, each returned value that device's block of
the result, and the collectives inside already name the devices they join (logical
ids of the whole mesh). So the carries have two frames (`region_flow.Carry`): outside,
the operand and the result are split over the manual axes the op's `in_shardings` and
`out_shardings` give (major in each dim, as Shardy requires), then over free axes;
inside, the body's values are split over free axes alone. Axes are named in the
shardings as the mesh names them; `import-sdy` keeps those names on the grid it makes
of the mesh (`xshard.axis_names`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Operation

from xshard.diagnostics import DiagnosticError
from xshard.dialects import sdy
from xshard.dialects.shard import lookup_grid
from xshard.interfaces.region_flow import Carry, RegionFlow, register_flow


@register_flow(sdy.ManualComputationOp)
def _manual_flow(op: Operation) -> RegionFlow:
    assert isinstance(op, sdy.ManualComputationOp)
    ins, outs = list(op.in_shardings.shardings), list(op.out_shardings.shardings)
    body = op.body.block
    ret = body.last_op
    assert ret is not None
    meshes = {s.mesh.root_reference.data for s in ins + outs if isinstance(s.mesh, SymbolRefAttr)}
    if not meshes:  # nothing crosses the region's boundary
        return RegionFlow((), inline=True)
    if len(meshes) > 1:
        raise DiagnosticError(op, f"'{op.name}' is laid out on several meshes: {sorted(meshes)}")
    (mesh,) = meshes
    grid = lookup_grid(op, SymbolRefAttr(mesh))
    names = None if grid is None else grid.axis_names()
    if names is None:
        raise DiagnosticError(
            op, f"'{op.name}' names the axes of mesh @{mesh}, whose names only import-sdy knows"
        )
    index = {n: i for i, n in enumerate(names)}
    manual = frozenset(index[n] for n in op.manual_axis_names())

    def prefix(attr: sdy.TensorShardingAttr) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(index[a] for a in attr.axes_of(d) if index.get(a) in manual)
            for d in range(len(attr.dim_axes))
        )

    carries = [
        Carry(i, (body.args[i],), (), None, prefix(s)) for i, s in enumerate(ins)
    ] + [Carry(None, (), ((ret, j),), j, prefix(s)) for j, s in enumerate(outs)]
    return RegionFlow(tuple(carries), inline=True, grid=mesh, manual_axes=manual)
