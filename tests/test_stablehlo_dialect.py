"""The StableHLO subset as a library: builders, verifiers, elementwise tagging, and the
printed text as upstream StableHLO (jaxlib's MLIR parser) reads it."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    f32,
    i1,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.parser import AttrParser, Parser
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xshard.context import xshard_context
from xshard.dialects import stablehlo as hlo
from xshard.sharding.reduction import ReductionKind
from xshard.xdsl_compat import hex_float_elements
from xshard.xdsl_compat.printing import text as _text

OPS_MLIR = Path(__file__).parent / "filecheck" / "dialects" / "stablehlo" / "ops.mlir"


def _func_block(*arg_types: TensorType) -> Block:
    return Block(arg_types=list(arg_types))




def _verified_module(block: Block, ops) -> ModuleOp:
    block.add_ops(ops)
    module = ModuleOp(Region(block))
    module.verify()
    return module


T4x8 = TensorType(f32, [4, 8])


class Test_Builders:
    def test_elementwise_results_follow_the_operands(self):
        block = _func_block(T4x8, T4x8)
        x, y = block.args
        add, tanh = hlo.AddOp(x, y), hlo.TanhOp(x)
        conv = hlo.ConvertOp(x, TensorType(i32, [4, 8]))
        cmp = hlo.CompareOp(x, y, "GT")
        sel = hlo.SelectOp(cmp, add, tanh)
        _verified_module(block, [add, tanh, conv, cmp, sel])
        assert add.result.type == T4x8 and tanh.result.type == T4x8
        assert cmp.result.type == TensorType(i1, [4, 8])
        assert cmp.compare_type == hlo.ComparisonTypeAttr(hlo.ComparisonType.FLOAT)
        assert "stablehlo.compare GT, %0, %1, FLOAT" in _text(cmp.parent_op())

    def test_constant_takes_its_type_from_the_value(self):
        value = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [2]), [1.0, -math.inf])
        const = hlo.ConstantOp(value)
        _verified_module(Block(), [const])
        assert const.output.type == TensorType(f32, [2])
        assert const.fold() == (value,)

    def test_data_movement_builders_infer_shapes(self):
        block = _func_block(T4x8, TensorType(f32, [8]), TensorType(i32, []))
        x, v, k = block.args
        bcast = hlo.BroadcastInDimOp(v, [1], T4x8)
        trans = hlo.TransposeOp(x, [1, 0])
        reshape = hlo.ReshapeOp(x, TensorType(f32, [32]))
        sl = hlo.SliceOp(x, [1, 0], [3, 8], [1, 3])
        dyn = hlo.DynamicSliceOp(x, [k, k], [2, 4])
        upd = hlo.DynamicUpdateSliceOp(x, dyn, [k, k])
        cat = hlo.ConcatenateOp([x, bcast], 0)
        zero = hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, []), [0.0]))
        pad = hlo.PadOp(x, zero, [1, 0], [0, 2], [1, 0])
        iota = hlo.IotaOp(1, TensorType(i32, [4, 8]))
        _verified_module(block, [bcast, trans, reshape, sl, dyn, upd, cat, zero, pad, iota])
        assert trans.result.type == TensorType(f32, [8, 4])
        assert sl.result.type == TensorType(f32, [2, 3])
        assert dyn.result.type == TensorType(f32, [2, 4])
        assert cat.result.type == TensorType(f32, [8, 8])
        assert pad.result.type == TensorType(f32, [8, 10])

    def test_dot_general(self):
        block = _func_block(TensorType(f32, [2, 4, 8]), TensorType(f32, [2, 8, 3]))
        a, b = block.args
        dot = hlo.DotGeneralOp(a, b, [0], [0], [2], [1], TensorType(f32, [2, 4, 3]))
        inferred = hlo.DotGeneralOp(a, b, [0], [0], [2], [1])
        _verified_module(block, [dot, inferred])
        assert inferred.result.type == dot.result.type
        assert dot.dot_dimension_numbers.lhs_contracting == (2,)
        assert ("batching_dims = [0] x [0], contracting_dims = [2] x [1], "
                "precision = [DEFAULT, DEFAULT]") in _text(dot)

    @pytest.mark.parametrize(
        "body, kind",
        [(hlo.AddOp, ReductionKind.SUM), (hlo.MaximumOp, ReductionKind.MAX),
         (hlo.MinimumOp, ReductionKind.MIN), (hlo.MultiplyOp, ReductionKind.PRODUCT)],
    )
    def test_reduce_create_builds_the_compact_form(self, body, kind):
        block = _func_block(T4x8, TensorType(f32, []))
        x, init = block.args
        red = hlo.ReduceOp.create([x], [init], [1], body)
        _verified_module(block, [red])
        assert red.results_[0].type == TensorType(f32, [4])
        assert hlo.single_reducer(red.body) is body
        assert hlo.reduction_kind(red) is kind
        assert f"applies {body.name} across dimensions = [1]" in _text(red)
        assert hlo.reduction_kind(red.clone()) is kind  # clone goes through Operation.create

    def test_reduce_with_a_general_body_prints_the_reducer_form(self):
        block = _func_block(T4x8, TensorType(f32, []))
        x, init = block.args
        red = hlo.ReduceOp.create([x], [init], [0, 1], hlo.SubtractOp)
        _verified_module(block, [red])
        assert hlo.single_reducer(red.body) is None  # subtract is not commutative
        assert hlo.reduction_kind(red) is None
        assert "reducer(" in _text(red)


class Test_Collectives:
    def _operand(self, shape=(4, 4)):
        block = _func_block(TensorType(f32, list(shape)))
        return block, block.args[0]

    def test_all_reduce_prints_as_jax_does(self):
        block, x = self._operand()
        op = hlo.AllReduceOp(x, replica_groups=[[0, 1, 2, 3], [4, 5, 6, 7]])
        _verified_module(block, [op])
        assert hlo.reduction_kind(op) is ReductionKind.SUM
        assert (
            '<{channel_handle = #stablehlo.channel_handle<handle = 1, '
            "type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, "
            "use_global_device_ids}>"
        ) in _text(op)

    def test_a_variadic_all_reduce_has_one_binary_reducer(self):
        block = _func_block(TensorType(f32, [4, 4]), TensorType(f32, [8]))
        op = hlo.AllReduceOp(list(block.args), replica_groups=[[0, 1], [2, 3]])
        _verified_module(block, [op])
        assert len(op.computation.block.args) == 2
        assert hlo.reduction_kind(op) is ReductionKind.SUM

    def test_shape_changing_collectives_infer_results(self):
        block, x = self._operand((4, 8))
        groups = [[0, 1], [2, 3]]
        gather = hlo.AllGatherOp(x, all_gather_dim=1, replica_groups=groups)
        scatter = hlo.ReduceScatterOp(x, scatter_dimension=0, replica_groups=groups,
                                      body_op_class=hlo.MaximumOp)
        a2a = hlo.AllToAllOp(x, split_dimension=1, concat_dimension=0, split_count=2,
                             replica_groups=groups)
        perm = hlo.CollectivePermuteOp(x, source_target_pairs=[(0, 1), (1, 0)])
        bcast = hlo.CollectiveBroadcastOp(x, replica_groups=[[1, 0]])
        _verified_module(block, [gather, scatter, a2a, perm, bcast])
        assert gather.results_[0].type == TensorType(f32, [4, 16])
        assert scatter.result.type == TensorType(f32, [2, 8])
        assert hlo.reduction_kind(scatter) is ReductionKind.MAX
        assert a2a.results_[0].type == TensorType(f32, [8, 4])
        assert perm.result.type == bcast.result.type == TensorType(f32, [4, 8])
        assert "use_global_device_ids" not in _text(a2a)

    def test_ids_are_checked_against_the_module(self):
        block, x = self._operand()
        op = hlo.CollectiveBroadcastOp(x, replica_groups=[[0, 5]])
        block.add_op(op)
        module = ModuleOp(Region(block))
        module.verify()  # no mhlo.num_partitions: the range is unknown
        module.attributes["mhlo.num_partitions"] = IntegerAttr(4, i32)
        with pytest.raises(VerifyException, match="partition id 5, but there are 4"):
            module.verify()

    def test_ragged_groups_are_refused_by_the_builder(self):
        with pytest.raises(ValueError, match="same size"):
            hlo.id_table([[0, 1], [2]])


class Test_Traits:
    def test_elementwise_ops_are_tagged(self):
        block = _func_block(T4x8, T4x8, TensorType(f32, []), TensorType(i1, []))
        x, y, s, p = block.args
        ops = [hlo.AddOp(x, y), hlo.ExponentialOp(x), hlo.SelectOp(p, x, y),
               hlo.ClampOp(s, x, s), hlo.CompareOp(x, y, "LT")]
        for op in ops:
            assert hlo.is_elementwise(op), op.name
        assert ops[2].scalar_operands() == (p,)
        assert ops[3].scalar_operands() == (s, s)
        assert not hlo.is_elementwise(hlo.TransposeOp(x, [1, 0]))
        assert not hlo.is_elementwise(hlo.DotGeneralOp(x, y, [], [], [1], [1]))

    def test_pure_ops_and_effectful_ones(self):
        assert hlo.AddOp.has_trait(Pure) and hlo.DotGeneralOp.has_trait(Pure)
        assert hlo.ConstantOp.has_trait(Pure) and hlo.PartitionIdOp.has_trait(Pure)
        for op in (hlo.AllReduceOp, hlo.AllGatherOp, hlo.CollectiveBroadcastOp,
                   hlo.CustomCallOp):
            assert not op.has_trait(Pure), op.name

    def test_every_op_is_registered(self):
        ctx = xshard_context()
        for name in hlo.__all__:
            cls = getattr(hlo, name)
            if isinstance(cls, type) and name.endswith("Op") and hasattr(cls, "name") \
                    and isinstance(cls.name, str) and cls.name.startswith("stablehlo."):
                assert ctx.get_optional_op(cls.name) is cls


class Test_Verifiers:
    def test_broadcast_in_dim_size_rule(self):
        block = _func_block(TensorType(f32, [3]))
        op = hlo.BroadcastInDimOp(block.args[0], [1], T4x8)
        block.add_op(op)
        with pytest.raises(VerifyException, match="operand dimension 0 \\(3\\) is not 1"):
            op.verify()

    def test_collective_broadcast_constraints(self):
        block, x = Test_Collectives()._operand()
        for groups, message in (([[0, 1], [1, 2]], "must not repeat an id"),
                                ([[0, -2]], "ids >= 0")):
            op = hlo.CollectiveBroadcastOp(x, replica_groups=groups)
            with pytest.raises(VerifyException, match=message):
                op.verify()


class Test_HexFloatFix:
    def test_apply_is_idempotent(self):
        patched = AttrParser._TensorLiteralElement.to_type
        hex_float_elements.apply()
        assert AttrParser._TensorLiteralElement.to_type is patched

    @pytest.mark.parametrize(
        "literal, expected",
        [("dense<0xFF800000> : tensor<f32>", [-math.inf]),
         ("dense<[0xff800000, 2.5, 0x7F800000]> : tensor<3xf32>", [-math.inf, 2.5, math.inf]),
         ("dense<0xFF80> : tensor<bf16>", [-math.inf]),
         ("dense<[0x10, 3]> : tensor<2xi32>", [16, 3])],
    )
    def test_hex_elements_keep_their_bits(self, literal, expected):
        attr = Parser(xshard_context(), literal).parse_attribute()
        assert list(attr.get_values()) == expected


def _chunks_printed(*flags: str) -> list[str]:
    out = subprocess.run(
        ["xshard-opt", str(OPS_MLIR), "--split-input-file", *flags],
        check=True, capture_output=True, text=True,
    ).stdout
    return [c for c in out.split("// -----") if c.strip()]


@pytest.mark.parametrize("flags", [(), ("--print-op-generic",)], ids=["pretty", "generic"])
def test_printed_ops_parse_with_upstream_stablehlo(flags):
    """jaxlib's MLIR (with the real StableHLO dialect) reads every op xshard prints."""
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    chunks = _chunks_printed(*flags)
    assert len(chunks) == 2
    with jmlir.make_ir_context():
        reread = [ir.Module.parse(chunk) for chunk in chunks]
        assert all(m.operation.verify() for m in reread)
        ops_text, collectives_text = (str(m) for m in reread)
    # Upstream recognises the single-op reducer xshard built or kept.
    assert "applies stablehlo.add across dimensions = [1]" in ops_text
    assert "stablehlo.dot_general" in ops_text and "stablehlo.custom_call @Sharding" in ops_text
    for name in ("all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                 "collective_permute", "collective_broadcast"):
        assert f'"stablehlo.{name}"' in collectives_text
