"""The propagation benchmark's chains stay valid input for xshard and for mlir-opt-22."""

import importlib.util
from pathlib import Path

import pytest

from xshard.dialects.shard import ShardOp

_TOOL = Path(__file__).parent.parent / "tools" / "bench_propagation.py"
_spec = importlib.util.spec_from_file_location("bench_propagation", _TOOL)
assert _spec and _spec.loader
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize("chain", [bench.stablehlo_chain, bench.linalg_chain])
def test_chain_propagates_from_its_one_annotation(chain):
    from xshard.transforms.propagation.sharding_propagation import ShardingPropagationPass

    runner = bench._Xshard()
    module = runner.parse(chain(12))
    fn = next(op for op in module.walk() if op.name == "func.func")
    payload = [op for op in fn.body.block.ops if op.dialect_name() not in ("shard", "func")]
    assert len(payload) == 12
    before = sum(isinstance(op, ShardOp) for op in module.walk())
    ShardingPropagationPass().apply(runner.ctx, module)
    assert sum(isinstance(op, ShardOp) for op in module.walk()) > before + 12


def test_mlir_opt_propagates_the_linalg_chain(tmp_path, mlir_opt: str):
    path = tmp_path / "chain.mlir"
    path.write_text(bench.linalg_chain(12))
    assert bench._mlir_opt_pass(mlir_opt, path) >= 0.0
