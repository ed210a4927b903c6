"""Diagnostics that point at the user's source: `file:line:col: error: message`.

The parser here stamps every operation it reads with a `FileLineColLoc`
(unless the text carries its own `loc(...)`), so verifier and pass errors can
name the line of the op at fault long after parsing; clones keep the location.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span


class DiagnosticError(DiagnosticException):
    """An error about one operation; printed with that operation's location."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


def op_location(op: Operation | None) -> str | None:
    """`file:line:col` of `op`, or of its nearest located ancestor."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        op = op.parent_op()
    return None


def format_error(op: Operation | None, message: str, fallback: str) -> str:
    return f"{op_location(op) or fallback}: error: {message}"


class LocatingParser(Parser):
    """A parser that records where each operation starts.

    An attribute that fails its own verifier while being parsed is reported as
    a parse error at the operation that holds it.
    """

    line_offset: int = 0
    """Lines before this chunk in the input file (for `--split-input-file`)."""

    def parse_operation(self) -> Operation:
        start: Span = self._current_token.span
        try:
            op = super().parse_operation()
        except VerifyException as err:
            raise ParseError(start, str(err).split("\n")[0]) from err
        if not isinstance(op.location, FileLineColLoc):
            where = start.get_location()
            op.location = FileLineColLoc(
                StringAttr(where.file), IntAttr(where.line + self.line_offset), IntAttr(where.col)
            )
        return op


def verify_located(op: Operation) -> None:
    """Verify `op` and everything nested, innermost first, raising a located error."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                verify_located(inner)
    try:
        op.verify(verify_nested_ops=False)
    except VerifyException as err:
        raise DiagnosticError(op, str(err)) from err
