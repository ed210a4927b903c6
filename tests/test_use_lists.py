"""Every pass of the default pipeline leaves use lists exact: a value is used only by
ops that are in the module. A use left behind by an op a pass dropped keeps the value
"used", so later dead-code removal keeps it and single-use rewrites skip it; the
partitioned program then holds global-shaped dead ops (as the GPT step did when
`inline` left the callee's return reading the inlined values)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.testing.jax_programs import PROGRAMS, mesh_2x4
from xshard.transforms.spmd_pipeline import SpmdPipelinePass


def stale_uses(module: ModuleOp) -> list[str]:
    live = set(module.walk())
    return [
        f"{op.name} read by a dropped {use.operation.name}"
        for op in live
        for result in op.results
        for use in result.uses
        if use.operation not in live
    ]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_no_pass_leaves_a_use_by_a_dropped_op(name: str) -> None:
    ctx = xshard_context()
    text = PROGRAMS[name](mesh_2x4()).text()
    module = LocatingParser(ctx, text, f"<{name}>").parse_module()
    for phase in SpmdPipelinePass().passes():
        phase.apply(ctx, module)
        assert stale_uses(module) == [], type(phase).__name__
