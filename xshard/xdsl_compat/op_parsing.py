"""Ops whose custom syntax xDSL parses into a traceback instead of an error.

Without this fix xDSL 0.74 raises a Python exception, not a located parse error, on
- a declarative-format op whose parsed pieces its definition rejects, e.g. variadic
  operand groups of different sizes under `SameVariadicOperandSize` (`ValueError`
  from the op's `__init__`; xshard's `tcp.slice` is such an op);
- a linalg named op with fewer operands than its body reads (`linalg.matmul` with one
  input: `IndexError`), where MLIR's error is that the region expects more arguments;
- `linalg.transpose`, `linalg.broadcast` and `linalg.reduce` with a dimension beyond
  64 bits, and `scf.index_switch` with a case value beyond them (`ValueError` storing
  it in an i64 array); MLIR's error is `integer value too large`.
With it each is a parse error at the op; valid ops parse as before.
"""

from __future__ import annotations

from collections.abc import Callable
from traceback import walk_tb
from typing import Any

from xdsl.dialects.builtin import IntegerType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import BroadcastOp, ReduceOp, TransposeOp
from xdsl.dialects.scf import IndexSwitchOp
from xdsl.irdl import irdl_op_init
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.parser import Parser

from xshard.xdsl_compat._patch import patch


def _raised_in(err: BaseException, function: Callable[..., Any]) -> bool:
    """Whether the innermost frame of `err`'s traceback runs `function`."""
    frames = [frame for frame, _ in walk_tb(err.__traceback__)]
    return bool(frames) and frames[-1].f_code is function.__code__


def _format_parse(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse(self: FormatProgram, parser: Parser, op_type: type) -> Any:
        start = parser.pos
        try:
            return original(self, parser, op_type)
        except ValueError as err:
            if not _raised_in(err, irdl_op_init):
                raise
            parser.raise_error(f"'{op_type.name}' op {err}", start, parser.pos)

    return parse


def _named_op_parse(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse(cls: type[NamedOperation], parser: Parser) -> Any:
        start = parser.pos
        try:
            return original(cls, parser)
        except IndexError as err:  # its body reads an argument the operands do not give
            parser.raise_error(
                f"custom op '{cls.name}' has too few operands for its region ({err})",
                start,
                parser.pos,
            )

    return parse


def _dims_parse(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse(cls: type, parser: Parser) -> Any:
        start = parser.pos
        try:
            return original(cls, parser)
        except ValueError as err:
            if not _raised_in(err, IntegerType.get_normalized_value):
                raise
            parser.raise_error("integer value too large", start, parser.pos)

    return parse


def apply() -> None:
    patch(FormatProgram, "parse", _format_parse)
    patch(NamedOperation, "parse", _named_op_parse, classmethod)
    for op in (TransposeOp, BroadcastOp, ReduceOp, IndexSwitchOp):
        patch(op, "parse", _dims_parse, classmethod)
