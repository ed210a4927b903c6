"""xshard's `shard` dialect against the reference `mlir-opt-22` (LLVM 22.1.8).

For every module of `tests/corpus/shard/`: each tool parses what the other
prints, pretty and generic, and both tools see the same IR (compared in MLIR's
generic form, where SSA names are plain numbers, and in xshard's generic form
with the name hints dropped).
"""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from xshard.context import xshard_context

CORPUS = Path(__file__).parent / "corpus" / "shard"


def _modules() -> list[tuple[str, str]]:
    cases = []
    for path in sorted(CORPUS.glob("*.mlir")):
        for i, chunk in enumerate(path.read_text().split("// -----")):
            cases.append((f"{path.stem}-{i}", chunk))
    return cases


CASES = _modules()



def _run(command: list[str], text: str) -> str:
    done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}\ninput:\n{text}"
    return done.stdout


def _xshard(text: str, *flags: str) -> str:
    return _run(["xshard-opt", *flags], text)


def _xshard_generic_without_names(text: str) -> str:
    """xshard's generic print with SSA names dropped and properties sorted, so the
    tools' naming and the order of the input text cannot differ."""
    module = Parser(xshard_context(), text).parse_module()
    assert isinstance(module, ModuleOp)
    for op in module.walk():
        op.properties = dict(sorted(op.properties.items()))
        op.attributes = dict(sorted(op.attributes.items()))
        for result in op.results:
            result.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def test_corpus_is_not_empty():
    assert len(CASES) >= 2


@pytest.mark.parametrize(("name", "text"), CASES, ids=[name for name, _ in CASES])
def test_mlir_opt_parses_xshard_output(mlir_opt: str, name: str, text: str):
    _run([mlir_opt], _xshard(text))
    _run([mlir_opt], _xshard(text, "--print-op-generic"))


@pytest.mark.parametrize(("name", "text"), CASES, ids=[name for name, _ in CASES])
def test_xshard_parses_mlir_opt_output(mlir_opt: str, name: str, text: str):
    _xshard(_run([mlir_opt], text))
    _xshard(_run([mlir_opt, "--mlir-print-op-generic"], text))


@pytest.mark.parametrize(("name", "text"), CASES, ids=[name for name, _ in CASES])
def test_same_ir_in_mlir_generic_form(mlir_opt: str, name: str, text: str):
    reference = _run([mlir_opt, "--mlir-print-op-generic"], text)
    for flags in ((), ("--print-op-generic",)):
        through_xshard = _run([mlir_opt, "--mlir-print-op-generic"], _xshard(text, *flags))
        assert through_xshard == reference


@pytest.mark.parametrize(("name", "text"), CASES, ids=[name for name, _ in CASES])
def test_same_ir_in_xshard_generic_form(mlir_opt: str, name: str, text: str):
    reference = _xshard_generic_without_names(text)
    assert _xshard_generic_without_names(_run([mlir_opt], text)) == reference
    assert (
        _xshard_generic_without_names(_run([mlir_opt, "--mlir-print-op-generic"], text))
        == reference
    )


@pytest.mark.parametrize(("name", "text"), CASES, ids=[name for name, _ in CASES])
def test_same_canonical_form(mlir_opt: str, name: str, text: str):
    reference = _run([mlir_opt, "--canonicalize", "--mlir-print-op-generic"], text)
    ours = _run([mlir_opt, "--mlir-print-op-generic"], _xshard(text, "-p", "canonicalize"))
    assert ours == reference
