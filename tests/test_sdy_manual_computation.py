"""`jax.shard_map` programs as JAX 0.10.2 lowers them: their `sdy.manual_computation`
parses, verifies and prints back to JAX's text, fully manual and partially manual."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P
from xdsl.dialects.builtin import TensorType, f32

from xshard.context import xshard_context
from xshard.diagnostics import LocatingParser
from xshard.dialects import sdy
from xshard.jax.importer import module_text
from xshard.testing.jax_programs import mesh_2x4

MESH = mesh_2x4()
RING = [(i, (i + 1) % 4) for i in range(4)]


def full_manual(x):
    """Each device's block next to its `model` neighbour's (a ppermute over "model")."""

    def body(block):
        return jnp.concatenate([block, jax.lax.ppermute(block, "model", RING)], axis=1)

    return jax.shard_map(
        body, mesh=MESH, in_specs=P("data", "model"), out_specs=P("data"), check_vma=False
    )(x)


def partial_manual(a, b):
    """A matmul contracting over "model" blocks, summed with a psum; free over "data"."""
    return jax.shard_map(
        lambda a, b: jax.lax.psum(a @ b, "model"),
        mesh=MESH,
        in_specs=(P(None, "model"), P("model", None)),
        out_specs=P(),
        axis_names={"model"},
    )(a, b)


def partition_index(x, w):
    """axis_index inside the body (stablehlo.partition_id), ops after the map."""

    def body(block):
        return block * jax.lax.axis_index("model").astype(block.dtype)

    y = jax.shard_map(body, mesh=MESH, in_specs=P("data", "model"), out_specs=P("data", "model"))
    return jnp.tanh(y(x) @ w)


PROGRAMS = {
    "full_manual": (full_manual, [(8, 16)]),
    "partial_manual": (partial_manual, [(8, 16), (16, 8)]),
    "partition_index": (partition_index, [(8, 16), (16, 4)]),
}


def lower(name: str) -> str:
    fn, shapes = PROGRAMS[name]
    return jax.jit(fn).lower(*(np.zeros(s, np.float32) for s in shapes)).as_text()


def parse(text: str, name: str):
    module = LocatingParser(xshard_context(), text, name).parse_module()
    module.verify()
    return module


def manual_op(module) -> sdy.ManualComputationOp:
    return next(op for op in module.walk() if isinstance(op, sdy.ManualComputationOp))


def manual_text(text: str) -> list[str]:
    """The lines of the (first) manual computation, from its header to its `} : ...`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "sdy.manual_computation(" in line)
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(" " * indent + "}"))
    return lines[start : end + 1]


@pytest.mark.parametrize("name", ["full_manual", "partial_manual"])
def test_prints_back_what_jax_printed(name):
    """Where xDSL numbers values as MLIR does (the map's result is what is returned), the
    whole module prints back as JAX printed it, but for xDSL's `builtin.module` and
    `func.return` spellings."""
    text = lower(name)
    assert "sdy.manual_computation" in text
    jax_text = text.replace("module @", "builtin.module @", 1).replace(
        "\n    return ", "\n    func.return "
    )
    assert module_text(parse(text, name)).rstrip("\n") == jax_text.rstrip("\n")


def test_ssa_numbering_aside_the_op_prints_as_jax():
    """Values after the map shift MLIR's numbering of the body, not xDSL's (a printer
    difference); the op's own syntax, header and closing line, is still JAX's."""
    text = lower("partition_index")
    printed = manual_text(module_text(parse(text, "partition_index")))
    jax_lines = manual_text(text)
    assert (printed[0], printed[-1]) == (jax_lines[0], jax_lines[-1])
    assert len(printed) == len(jax_lines)
    assert "stablehlo.partition_id : tensor<ui32>" in "\n".join(printed)


def test_accessors_of_a_partially_manual_computation():
    op = manual_op(parse(lower("partial_manual"), "partial_manual"))
    assert op.manual_axis_names() == ["model"]
    assert [s.body() for s in op.in_shardings.shardings] == [
        '@mesh, [{?}, {"model", ?}]',
        '@mesh, [{"model", ?}, {?}]',
    ]
    assert [s.body() for s in op.out_shardings.shardings] == ["@mesh, [{?}, {?}]"]
    assert [a.type for a in op.body.block.args] == [
        TensorType(f32, [8, 4]),
        TensorType(f32, [4, 8]),
    ]
    assert op.returned.values[0].type == TensorType(f32, [8, 8])
    mesh = op.mesh()
    assert mesh is not None and mesh.axes == [("data", 2), ("model", 4)]
    sharding = op.in_shardings.shardings.data[0]
    assert op.local_type(op.tensors[0].type, sharding, mesh) == TensorType(f32, [8, 4])


def test_fully_manual_divides_every_dim_by_its_manual_axes():
    op = manual_op(parse(lower("full_manual"), "full_manual"))
    assert op.manual_axis_names() == ["data", "model"]
    assert op.body.block.args[0].type == TensorType(f32, [4, 4])
    assert op.returned.values[0].type == TensorType(f32, [4, 8])


@pytest.mark.parametrize("name", ["full_manual", "partial_manual"])
def test_jaxlib_generic_form_parses_to_the_same_module(name):
    """jaxlib's generic print (`#sdy<manual_axes{...}>` in the properties) reads as
    the pretty form does."""
    fn, shapes = PROGRAMS[name]
    ir = jax.jit(fn).lower(*(np.zeros(s, np.float32) for s in shapes)).compiler_ir()
    generic = ir.operation.get_asm(print_generic_op_form=True)
    assert "#sdy<manual_axes{" in generic
    assert module_text(parse(generic, name)) == module_text(parse(lower(name), name))
