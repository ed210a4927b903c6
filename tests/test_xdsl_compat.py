"""What importing xshard changes in xDSL for the rest of the process: its bugs, no more.

xshard fixes xDSL 0.74 bugs for the whole process and keeps its own choices (mlir-opt's
`%0:2` result groups, a bound on dense literals) in its own printer and parser
(docs/xdsl-compat.md). These tests hold that:
- xDSL's own round-trip (its `Parser`, every dialect it ships, its `Printer`, custom and
  generic form) of each program of tests/corpus/xdsl/, valid MLIR that both mlir-opt 22
  and xDSL 0.74 read, prints byte for byte the same in a process that has imported every
  module of xshard as in one that has imported none (`tests/xdsl_round_trip.py`);
- the corpus would show xshard's printing, were it xDSL's again;
- the programs xDSL alone gets wrong change only as docs/xdsl-compat.md says;
- the functions of xDSL that xshard replaces are exactly the fixes listed here, each
  in its module of xshard/xdsl_compat/.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, f32
from xdsl.parser import Parser
from xdsl.universe import Universe
from xdsl.utils.exceptions import ParseError

from xshard import xdsl_compat
from xshard.xdsl_compat.dense_splat import splat_element
from xshard.xdsl_compat.printing import text
from xshard.xdsl_compat.string_literals import STRING_LITERAL

TESTS = Path(__file__).parent
CORPUS = {path.stem: path.read_text() for path in sorted((TESTS / "corpus" / "xdsl").glob("*.mlir"))}

FIXED = {
    "hex_float_elements": (
        "%0 = arith.constant dense<[0xFF800000, 1.0]> : tensor<2xf32>",
        "dense<[4.28657869e+09, 1.000000e+00]> : tensor<2xf32>",
        "dense<[0xff800000, 1.000000e+00]> : tensor<2xf32>",
    ),
    "builtin_literals": (
        "%0 = arith.constant dense<[1.0e40, -3.5e38]> : tensor<2xf32>",
        "OverflowError: float too large to pack with f format",
        "dense<[0x7f800000, 0xff800000]> : tensor<2xf32>",
    ),
    "builtin_literals (complex)": (
        "%0 = arith.constant dense<[(2147483648, 4)]> : tensor<1xcomplex<i32>>",
        "'i' format requires -2147483648 <= number <= 2147483647",
        "dense<(-2147483648,4)> : tensor<1xcomplex<i32>>",
    ),
    "affine_products": (
        '"test.op"() {map = affine_map<(d0)[s0, s1] -> (s0 * s1)>} : () -> ()',
        "NotImplementedError: Multiplication with non-constant (semi-affine) is not "
        "supported yet self: s0 other: s1",
        "affine_map<(d0)[s0, s1] -> ((s0 * s1))>",
    ),
}
"""fix: (a valid program xDSL alone reads wrong, what xDSL alone prints or raises,
what it prints with xshard imported), as docs/xdsl-compat.md shows them."""

REPLACED = {
    "xdsl.dialects.builtin.DenseIntOrFPElementsAttr.is_splat": "dense_splat",
    "xdsl.dialects.builtin.FloatAttr.__init__": "builtin_literals",
    "xdsl.dialects.linalg.abstract_ops.NamedOperation.parse": "op_parsing",
    "xdsl.dialects.linalg.ops.BroadcastOp.parse": "op_parsing",
    "xdsl.dialects.linalg.ops.ReduceOp.parse": "op_parsing",
    "xdsl.dialects.linalg.ops.ReduceOp.verify_": "verifiers",
    "xdsl.dialects.linalg.ops.TransposeOp.parse": "op_parsing",
    "xdsl.dialects.linalg.ops.TransposeOp.verify_": "verifiers",
    "xdsl.dialects.scf.IndexSwitchOp.parse": "op_parsing",
    "xdsl.dialects.tosa.ConstOp.verify_": "verifiers",
    "xdsl.dialects.utils.dynamic_index_list.parse_dynamic_index_without_type":
        "custom_syntax_integers",
    "xdsl.irdl.declarative_assembly_format.DenseArrayAttributeVariable.parse_attr":
        "custom_syntax_integers",
    "xdsl.irdl.declarative_assembly_format.FormatProgram.parse": "op_parsing",
    "xdsl.parser.affine_parser.AffineParser._create_binop_expr": "affine_products",
    "xdsl.utils.mlir_lexer.MLIRLexer._lex_string_literal": "string_literals",
    # hex_float_elements wraps it too, inside
    "xdsl.parser.attribute_parser.AttrParser._TensorLiteralElement.to_type":
        "builtin_literals",
    "xdsl.parser.attribute_parser.AttrParser.parse_optional_builtin_int_or_float_attr":
        "builtin_literals",
    "xdsl.parser.attribute_parser.AttrParser.parse_shape_dimension": "builtin_literals",
}
"""Each function of xDSL's that xshard replaces, and the fix module whose code runs."""


def _in_process(*flags: str) -> dict:
    programs = CORPUS | {f"fixed:{name}": program for name, (program, _, _) in FIXED.items()}
    return json.loads(
        subprocess.run(
            [sys.executable, str(TESTS / "xdsl_round_trip.py"), *flags],
            input=json.dumps(programs), capture_output=True, text=True, check=True,
        ).stdout
    )


@pytest.fixture(scope="module")
def without_xshard() -> dict:
    return _in_process()


@pytest.fixture(scope="module")
def with_xshard() -> dict:
    return _in_process("--with-xshard")


def test_corpus_is_big_enough():
    assert len(CORPUS) >= 30


@pytest.mark.parametrize("name", CORPUS)
def test_xdsl_round_trip_is_byte_identical_with_xshard_imported(
    without_xshard: dict, with_xshard: dict, name: str
):
    printed = without_xshard["round_trips"][name]
    assert printed.startswith("builtin.module"), f"xDSL alone fails on a corpus program: {printed}"
    assert with_xshard["round_trips"][name] == printed


@pytest.mark.parametrize("fix", FIXED)
def test_programs_xdsl_reads_wrong_change_as_documented(
    without_xshard: dict, with_xshard: dict, fix: str
):
    _, alone, fixed = FIXED[fix]
    assert alone in without_xshard["round_trips"][f"fixed:{fix}"]
    assert fixed in with_xshard["round_trips"][f"fixed:{fix}"]


def test_xshard_replaces_only_its_fixes_of_xdsl(without_xshard: dict, with_xshard: dict):
    assert without_xshard["replaced"] == {}
    assert with_xshard["replaced"] == {
        name: f"xdsl_compat/{module}.py" for name, module in REPLACED.items()
    }


def test_the_corpus_would_show_xshards_printing_in_xdsls():
    """Every program with an op of several unnamed results prints otherwise through
    `XShardPrinter`; were that xDSL's printing again, the round-trip test would fail."""
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    differ = {
        name for name, program in CORPUS.items()
        if text(module := Parser(ctx, program).parse_module()) != str(module)
    }
    assert {name for name in CORPUS if name.startswith("multi_result")} <= differ


def test_applying_the_fixes_again_changes_nothing():
    before = DenseIntOrFPElementsAttr.is_splat, Parser._TensorLiteralElement.to_type
    xdsl_compat.apply()
    assert (DenseIntOrFPElementsAttr.is_splat, Parser._TensorLiteralElement.to_type) == before


def test_an_empty_dense_attribute_is_no_splat():
    empty = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [0]), [])
    assert not empty.is_splat() and splat_element(empty) is None
    zeros = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [3]), [0.0, -0.0, 0.0])
    assert zeros.is_splat()  # as xDSL compares values: -0.0 == 0.0
    nans = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [2]), [float("nan")] * 2)
    assert not nans.is_splat()


@given(st.text(alphabet='ab"\\\n\tfF0x9', max_size=14))
def test_string_literals_are_the_language_xdsl_lexes(body: str):
    """The linear regex accepts a literal exactly where xDSL's does, and as far
    (on bodies short enough for xDSL's to finish)."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    text = f'"{body}'
    ours, theirs = STRING_LITERAL.match(text), MLIRLexer._unescaped_characters_regex.match(text)
    assert (ours and ours.end()) == (theirs and theirs.end())


def test_an_unterminated_string_is_an_error_at_once():
    program = '%0 = "test.op"() {a = "' + "x " * 40 + "}> : () -> ()\n"
    with pytest.raises(ParseError, match="closing string literal"):
        Parser(Context(allow_unregistered=True), program).parse_module()
